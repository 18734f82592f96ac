import Foundation
import Synchronization
import ReceiptModel
import ReceiptSupport

/// Where the CLI writes: results to `out`, everything else to `err`, serialized
/// so lines from several workers never interleave. Tests pass a capturing console.
public final class Console: Sendable {
    /// Held while writing, so lines never interleave.
    private let lock = Mutex(())
    private let writeOut: @Sendable (String) -> Void
    private let writeErr: @Sendable (String) -> Void
    /// stderr is a terminal: progress may redraw, colour may be used.
    public let errIsTerminal: Bool
    public let outIsTerminal: Bool

    public init(out: @escaping @Sendable (String) -> Void, err: @escaping @Sendable (String) -> Void,
                outIsTerminal: Bool = false, errIsTerminal: Bool = false) {
        writeOut = out; writeErr = err; self.outIsTerminal = outIsTerminal; self.errIsTerminal = errIsTerminal
    }

    /// The process's own stdout and stderr.
    public static func standard() -> Console {
        Console(out: { s in writeAll(1, s) }, err: { s in writeAll(StandardError.fd, s) },
                outIsTerminal: isatty(1) != 0, errIsTerminal: isatty(2) != 0)
    }

    /// Writes all of `s` to a descriptor. A write that fails (a full disk, a file-size limit, a closed
    /// pipe) loses that output but never stops the command: FileHandle.write traps on such errors.
    static func writeAll(_ fd: Int32, _ s: String) {
        var bytes = Array(s.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }

    // A file name that is not UTF-8 is shown with its bytes escaped (`r\xE9.png`): PathBytes.
    public func out(_ line: String) { lock.withLock { _ in writeOut(PathBytes.displayable(line) + "\n") } }
    public func outRaw(_ text: String) { lock.withLock { _ in writeOut(PathBytes.displayable(text)) } }
    public func err(_ line: String) { lock.withLock { _ in writeErr(PathBytes.displayable(line) + "\n") } }
    public func errRaw(_ text: String) { lock.withLock { _ in writeErr(PathBytes.displayable(text)) } }
    public func error(_ message: String) { err("error: \(message)") }
    public func warning(_ message: String) { err("warning: \(message)") }
}

/// A console that keeps what was written, for tests and for embedding.
public final class CapturingConsole: Sendable {
    private let written = Mutex((out: "", err: ""))
    public init() {}
    public var stdout: String { written.withLock { $0.out } }
    public var stderr: String { written.withLock { $0.err } }
    public var console: Console {
        Console(out: { [self] s in written.withLock { $0.out += s } }, err: { [self] s in written.withLock { $0.err += s } })
    }
}

/// The exit codes of `receipts`, documented in `receipts --help`.
public enum ExitCode: Int32, Sendable, CaseIterable {
    case ok = 0
    /// A check failed: `eval --baseline` found a field below its baseline.
    case checkFailed = 1
    /// Bad command line: unknown option, missing argument, invalid value.
    case usage = 2
    /// At least one input could not be read or recognised (the others were still processed).
    case inputError = 3
    /// Tesseract's language data (or another dependency) is missing.
    case missingDependency = 4
    /// The store could not be opened or written.
    case storeError = 5
    /// Stopped by Ctrl-C / SIGTERM; what was done is kept.
    case interrupted = 130

    public var meaning: String {
        switch self {
        case .ok: "success"
        case .checkFailed: "a check failed (eval below its baseline)"
        case .usage: "usage error (unknown option, bad value, missing argument, a bad config file)"
        case .inputError: "one or more inputs could not be read or recognised"
        case .missingDependency: "Tesseract language data or another dependency is missing"
        case .storeError: "the store could not be opened or written"
        case .interrupted: "interrupted (Ctrl-C / SIGTERM); finished work was kept"
        }
    }
}
