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

/// A program the tests run (mandoc, man, bash, zsh, fish), found on PATH or in /usr/bin or /bin.
/// Missing, it is an error that says what to install: such a test fails, it is never skipped.
public func requiredTool(_ name: String, package: String) throws -> String {
    struct Missing: Error, CustomStringConvertible { var description: String }
    let dirs = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin", "/bin"]
    guard let path = dirs.map({ "\($0)/\(name)" }).first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
        throw Missing(description: "\(name) is not installed: apt-get install \(package) (make setup installs it)")
    }
    return path
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
public func runProcess(_ executable: String, _ args: [String], environment: [String: String]? = nil,
                       currentDirectory: String? = nil) throws -> ProcessOutput {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: executable)
    p.arguments = args
    if let environment { p.environment = environment }
    if let currentDirectory { p.currentDirectoryURL = URL(fileURLWithPath: currentDirectory) }
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

/// A child process started in the background, for tests that run several at once (or kill one).
/// stderr goes into a file, as in `runProcess`, so a chatty child never blocks on a full pipe.
public final class StartedProcess {
    public let process = Process()
    private let out = Pipe()
    private let errPath = NSTemporaryDirectory() + "receipts-stderr-" + UUID().uuidString
    private let errHandle: FileHandle

    public init(_ executable: String, _ args: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        if let environment { process.environment = environment }
        _ = FileManager.default.createFile(atPath: errPath, contents: nil)
        errHandle = try FileHandle(forWritingTo: URL(fileURLWithPath: errPath))
        process.standardOutput = out
        process.standardError = errHandle
        try process.run()
    }

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    /// Waits for the end; the code is the exit status, or the signal for a killed child
    /// (`process.terminationReason` tells which).
    public func finish() -> ProcessOutput {
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? errHandle.close()
        let errData = (try? Data(contentsOf: URL(fileURLWithPath: errPath))) ?? Data()
        try? FileManager.default.removeItem(atPath: errPath)
        return ProcessOutput(code: process.terminationStatus, out: String(decoding: outData, as: UTF8.self), err: String(decoding: errData, as: UTF8.self))
    }
}
