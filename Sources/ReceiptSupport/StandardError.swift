import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The process's stderr, and a way to keep a C library's bare `fprintf(stderr, …)` off it.
///
/// Some library code prints straight to stderr with no hook to route it (Poppler's Cairo font
/// engine: `some font thing failed`). `capturing` points descriptor 2 at a temporary file for the
/// length of one call and gives back what was written there. The tool's own lines never go
/// through descriptor 2 but through `fd`, a duplicate of the original stderr taken before any
/// capture, so a line another thread writes meanwhile still reaches the user.
public enum StandardError {
    /// A duplicate of descriptor 2 as it was at the first use (before any capture).
    /// Write the tool's own messages here, not to 2.
    public static let fd: Int32 = {
        let d = fcntl(2, F_DUPFD_CLOEXEC, 3)
        return d >= 0 ? d : 2
    }()

    /// The most that is kept of what was captured.
    public static let keptBytes = 4096

    /// One capture at a time: two at once would put descriptor 2 back in the wrong order. (Recursive: a capture
    /// inside another on the same thread puts it back in order, and takes what is written meanwhile.)
    private static let lock = NSRecursiveLock()

    /// Runs `body` with no capture under way (descriptor 2 is the real stderr meanwhile).
    public static func withoutCapture<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Runs `body` with descriptor 2 pointing at an unlinked temporary file, then puts
    /// descriptor 2 back and returns what was written to it (at most `keptBytes`, trimmed).
    /// Captures on different threads wait for each other; one started inside `body` takes what is written while it
    /// runs, and this one gets nothing of that.
    /// When no temporary file can be made, descriptor 2 points at /dev/null instead.
    public static func capturing<T>(_ body: () throws -> T) rethrows -> (result: T, said: String) {
        _ = fd  // Take the duplicate of the real stderr before descriptor 2 is pointed elsewhere.
        lock.lock()
        defer { lock.unlock() }
        let sink = temporaryFile()
        let saved = sink >= 0 ? fcntl(2, F_DUPFD_CLOEXEC, 3) : -1
        guard sink >= 0, saved >= 0 else {
            if sink >= 0 { close(sink) }
            return (try body(), "")
        }
        fflush(nil)
        dup2(sink, 2)
        defer { close(sink) }
        let result: T
        do {
            result = try body()
        } catch {
            restore(saved)
            throw error
        }
        restore(saved)
        return (result, read(sink))
    }

    private static func restore(_ saved: Int32) {
        fflush(nil)
        dup2(saved, 2)
        close(saved)
    }

    private static func temporaryFile() -> Int32 {
        var template = Array("/tmp/receipts-stderr-XXXXXX".utf8CString)
        let tmp = (getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp")
        if tmp != "/tmp" { template = Array((tmp + "/receipts-stderr-XXXXXX").utf8CString) }
        let d = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if d >= 0 {
            _ = fcntl(d, F_SETFD, FD_CLOEXEC)
            _ = template.withUnsafeBufferPointer { unlink($0.baseAddress!) }
            return d
        }
        return open("/dev/null", O_WRONLY | O_CLOEXEC)
    }

    private static func read(_ d: Int32) -> String {
        guard lseek(d, 0, SEEK_SET) == 0 else { return "" }
        var buf = [UInt8](repeating: 0, count: keptBytes)
        var n = 0
        while n < keptBytes {
            let r = buf.withUnsafeMutableBytes { pread(d, $0.baseAddress! + n, keptBytes - n, off_t(n)) }
            if r < 0 && errno == EINTR { continue }
            if r <= 0 { break }
            n += r
        }
        return String(decoding: buf[..<n], as: UTF8.self).trimmingWhitespace()
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
