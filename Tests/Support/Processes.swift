import Foundation

/// The executables this package builds, for tests that run the real binary.
public enum PackageExecutables {
    /// The checkout: this file is `Tests/Support/Processes.swift`.
    public static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A built executable of this package: next to the test bundle first, then any
    /// `.build*/debug` folder of the checkout. Nil only when none was built.
    public static func path(_ name: String) -> String? {
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
public struct ProcessOutput: Sendable {
    public var code: Int32
    public var out: String
    public var err: String
    public init(code: Int32, out: String, err: String) { self.code = code; self.out = out; self.err = err }
}

/// Runs `executable` to the end (arguments as given, bytes as given). stderr goes into a file, so a
/// chatty child never blocks on a full pipe while stdout is read.
public func runProcess(_ executable: String, _ args: [String], environment: [String: String]? = nil) throws -> ProcessOutput {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    if let environment { p.environment = environment }
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
