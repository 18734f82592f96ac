import Foundation
import ReceiptSupport
import ReceiptModel
import ReceiptHostileInputs

// Two builds of one target list:
//  - `make fuzz` builds with -sanitize=fuzzer,address -DRECEIPTS_LIBFUZZER: libFuzzer drives the
//    target named by FUZZ_TARGET (its main, its mutations plus the structured image ones below);
//  - a plain build replays files through a target (`receipts-fuzz image crash-123`): what the
//    regression tests do with the inputs fuzzing found, on any machine.

#if RECEIPTS_LIBFUZZER

nonisolated(unsafe) var target: FuzzTarget = .image

@_silgen_name("LLVMFuzzerMutate")
func LLVMFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

@_cdecl("LLVMFuzzerInitialize")
public func fuzzInitialize(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>) -> Int32 {
    let env = ProcessInfo.processInfo.environment
    guard let name = env["FUZZ_TARGET"], let t = FuzzTarget(rawValue: name) else {
        FileHandle.standardError.write(Data("receipts-fuzz: set FUZZ_TARGET to one of \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
        exit(2)
    }
    target = t
    // Seeds go into the corpus folder before libFuzzer reads it.
    if let dir = env["FUZZ_SEEDS_DIR"], let repo = env["FUZZ_REPO"] {
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for s in t.seeds(repo: URL(fileURLWithPath: repo)) {
            // Named by content: a seed added later (a new fixture) is never hidden by an old one's name.
            let path = (dir as NSString).appendingPathComponent("seed-" + ContentHash.sha256(s.data).prefix(16))
            if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: s.data) }
        }
    }
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                         _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Int32

/// SwiftPM gives an executable its module's main: libFuzzer's driver is started from it.
@main
enum FuzzMain {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            target.run(data.map { Data(bytes: $0, count: size) } ?? Data())
            return 0
        })
    }
}

/// Images: one time in four, a structured mutation (header sizes, chunk lengths, CRCs, offsets,
/// truncation at segment boundaries) instead of libFuzzer's byte-level ones.
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    if target == .image, seed % 4 == 0 {
        let variants = HostileImages.variants(of: Data(bytes: data, count: size))
        if !variants.isEmpty {
            let v = variants[Int(seed / 4) % variants.count].data
            if v.count <= maxSize {
                v.copyBytes(to: data, count: v.count)
                return v.count
            }
        }
    }
    return LLVMFuzzerMutate(data, size, maxSize)
}

#else

@main
enum Replay {
    static func main() {
        let args = Array(CommandLine.arguments.dropFirst())
        guard let name = args.first, let target = FuzzTarget(rawValue: name) else {
            print("usage: receipts-fuzz TARGET FILE…   (TARGET: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")))")
            print("Runs each file once through the target (the inputs `make fuzz` found). `make fuzz` builds the libFuzzer version.")
            exit(args.isEmpty ? 0 : 2)
        }
        for file in args.dropFirst() {
            guard let data = FileManager.default.contents(atPath: file) else {
                FileHandle.standardError.write(Data("error: \(file): cannot read\n".utf8))
                exit(3)
            }
            let t0 = Date()
            target.run(data)
            print(String(format: "%@: ok (%.2f s)", file, Date().timeIntervalSince(t0)))
        }
        // The most memory this program held at once, for the tests' bound: Linux's VmHWM, the high-water mark of
        // this program's own memory. (`getrusage`'s ru_maxrss is kept across exec: a program started by a large
        // process, as the test runner is halfway through the suite, reported the runner's peak, 606 MB, for its 56.)
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let hwm = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") }
            .flatMap { Int($0.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first ?? "") }
        print("peak RSS: \((hwm ?? usage.ru_maxrss) / 1024) MB")
    }
}

#endif
