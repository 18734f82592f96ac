import Foundation
import ReceiptModel
#if canImport(Glibc)
import Glibc
import ReceiptSupport
#endif

/// Process-wide setup done once by the `receipts` executable before any work.
enum ProcessSetup {
    /// Tesseract's OpenMP runtime reads `OMP_THREAD_LIMIT` when the library is
    /// loaded, before `main` runs: setting it later has no effect. So when it is
    /// unset, set it to 1 and re-execute ourselves (one `execv`, a few ms).
    /// OpenMP left on makes parallel OCR 4–5× slower.
    static func prepare() {
        guard getenv("OMP_THREAD_LIMIT") == nil else { return }
        setenv("OMP_THREAD_LIMIT", "1", 1)
        // The arguments as the kernel gave them (bytes, not decoded text: a name that is not UTF-8 survives).
        execv("/proc/self/exe", CommandLine.unsafeArgv)
        // execv returned: it failed; carry on with OpenMP as it is.
    }
}

/// Ctrl-C / SIGTERM raise the interruption flag so work in flight can finish, for a grace
/// period (10 s; `RECEIPTS_INTERRUPT_GRACE` seconds) after which the process exits anyway: one
/// receipt's OCR can take minutes. A second signal exits at once. Either way the store is
/// consistent: every write is one SQLite transaction, and one cut short is rolled back.
enum SignalHandling {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static let defaultGrace = 10.0

    static var grace: Double {
        getenv("RECEIPTS_INTERRUPT_GRACE").flatMap { Double(String(cString: $0)) }.map { max(0, $0) } ?? defaultGrace
    }

    static func install(_ interruption: Interruption) {
        let grace = grace
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if interruption.isRaised { forceExit("interrupted again: stopped at once") }
                interruption.raise()
                DispatchQueue.global().asyncAfter(deadline: .now() + grace) {
                    forceExit("interrupted: the work in flight did not finish within \(Int(grace)) s; stopped "
                              + "(everything stored before is kept; run the same command again to continue)")
                }
            }
            source.resume()
            sources.append(source)
        }
    }

    /// Says why on stderr and ends the process without running exit handlers (other threads may
    /// still be inside Tesseract or SQLite; a transaction cut short is rolled back by SQLite).
    static func forceExit(_ message: String) -> Never {
        let line = "error: \(message)\n"
        _ = line.withCString { write(StandardError.fd, $0, strlen($0)) }
        _exit(ExitCode.interrupted.rawValue)
    }
}
