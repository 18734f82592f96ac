import Foundation
import ReceiptTestSupport
import Testing

/// Paths relative to this repository (found from this file, not the working directory).
enum Repo {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }
    static let samples = path("SampleReceipts")
    static let fixtures = path("Tests/Fixtures")

    /// The sample receipts: images, HEIC photos and PDFs (each has a .json sidecar).
    static let sampleExtensions = ["png", "jpg", "heic", "pdf"]
    static var sampleImages: [SampleFile] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: samples)) ?? []
        return names.filter { sampleExtensions.contains(($0 as NSString).pathExtension) }.sorted().map(SampleFile.init)
    }
}

/// A sample receipt, named by its file in test output.
struct SampleFile: CustomTestStringConvertible, Sendable {
    let name: String
    var path: String { (Repo.samples as NSString).appendingPathComponent(name) }
    var base: String { (name as NSString).deletingPathExtension }
    var testDescription: String { name }
}

/// A scratch folder removed when the test ends.
final class TempDir {
    let path: String
    init() throws {
        path = NSTemporaryDirectory() + "receipts-test-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }
    func file(_ name: String) -> String { (path as NSString).appendingPathComponent(name) }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

extension Repo {
    /// A built executable of this package (see `PackageExecutables.path`).
    static func executable(_ name: String) -> String? { PackageExecutables.path(name) }
}

/// Runs a built executable of this package to the end (arguments as given, bytes as given).
func runExecutable(_ name: String, _ args: [String], environment: [String: String]? = nil) throws -> ProcessOutput {
    let exe = try #require(Repo.executable(name), "\(name) not built: run `swift build` first (the tests run the real binary)")
    return try runProcess(exe, args, environment: environment)
}
