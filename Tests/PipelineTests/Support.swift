import Foundation
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
    /// A built executable of this package: next to the test bundle first, then any
    /// `.build*/debug` folder of the checkout. Nil only when none was built.
    static func executable(_ name: String) -> String? {
        var dirs: [URL] = []
        if let exe = Bundle.main.executableURL { dirs.append(exe.deletingLastPathComponent()) }
        dirs.append(Bundle.main.bundleURL.deletingLastPathComponent())
        let fm = FileManager.default
        for entry in ((try? fm.contentsOfDirectory(atPath: root.path)) ?? []).sorted() where entry.hasPrefix(".build") {
            dirs.append(root.appendingPathComponent(entry).appendingPathComponent("debug"))
        }
        for d in dirs {
            let p = d.appendingPathComponent(name).path
            if fm.isExecutableFile(atPath: p) { return p }
        }
        return nil
    }
}

/// What a child process printed and how it ended.
struct ProcessOutput { var code: Int32; var out: String; var err: String }

/// Runs a built executable of this package to the end (arguments as given, bytes as given).
func runExecutable(_ name: String, _ args: [String], environment: [String: String]? = nil) throws -> ProcessOutput {
    let exe = try #require(Repo.executable(name), "\(name) not built: run `swift build` first (the tests run the real binary)")
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = args
    if let environment { p.environment = environment }
    // stderr into a file, so a chatty child never blocks on a full pipe while stdout is read.
    let errPath = NSTemporaryDirectory() + "receipts-stderr-" + UUID().uuidString
    _ = FileManager.default.createFile(atPath: errPath, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: errPath) }
    let errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
    let out = Pipe()
    p.standardOutput = out; p.standardError = errHandle
    try p.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    try errHandle.close()
    let errData = try Data(contentsOf: URL(fileURLWithPath: errPath))
    return ProcessOutput(code: p.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
}
