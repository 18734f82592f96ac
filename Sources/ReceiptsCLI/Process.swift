import Foundation
#if canImport(Glibc)
import Glibc
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

/// Ctrl-C / SIGTERM raise the interruption flag so work in flight can finish;
/// a second signal exits at once.
enum SignalHandling {
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func install(_ interruption: Interruption) {
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                if interruption.isRaised { exit(ExitCode.interrupted.rawValue) }
                interruption.raise()
            }
            source.resume()
            sources.append(source)
        }
    }
}
