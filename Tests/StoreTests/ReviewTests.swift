import Foundation
import ReceiptModel
import ReceiptStore
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `receipts review` driven through a real pseudo-terminal: the child process sees a TTY
/// on stdin and stdout, as a user's shell gives it.
@Suite("review on a terminal")
struct ReviewTests {
    /// Runs `receipts ARGS` with a new pseudo-terminal as its stdin, stdout and stderr, types
    /// `input` (lines) into it, and returns everything the terminal showed until the child ended.
    static func runOnTerminal(_ args: [String], input: [String]) throws -> (code: Int32, screen: String) {
        let exe = try #require(Repo.executable("receipts"), "the receipts executable was not built")
        // posix_openpt/grantpt/unlockpt/ptsname are hidden from Swift's Glibc module (they need
        // _XOPEN_SOURCE); the same three steps through the kernel's interface: open the
        // multiplexer, unlock the new terminal (TIOCSPTLCK), ask its number (TIOCGPTN).
        let master = open("/dev/ptmx", O_RDWR | O_NOCTTY)
        try #require(master >= 0, "cannot open /dev/ptmx")
        defer { close(master) }
        var unlock: CInt = 0, number: CInt = 0
        let TIOCSPTLCK: UInt = 0x4004_5431, TIOCGPTN: UInt = 0x8004_5430
        try #require(ioctl(master, TIOCSPTLCK, &unlock) == 0 && ioctl(master, TIOCGPTN, &number) == 0, "cannot unlock the pseudo-terminal")
        let name = "/dev/pts/\(number)"
        let slave = open(name, O_RDWR | O_NOCTTY)
        try #require(slave >= 0, "cannot open \(name)")
        let terminal = FileHandle(fileDescriptor: slave, closeOnDealloc: false)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        p.standardInput = terminal
        p.standardOutput = terminal
        p.standardError = terminal
        try p.run()
        close(slave)  // the child holds it now; its exit ends our reads
        // Then ^D at the start of a line: end of input, as a user typing it ends `review`.
        let typed = input.map { $0 + "\n" }.joined() + "\u{04}"
        _ = typed.withCString { write(master, $0, strlen($0)) }
        var screen = Data()
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = read(master, &buffer, buffer.count)
            if n <= 0 { break }  // EIO once the child has closed the terminal
            screen.append(buffer, count: n)
        }
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: screen, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n"))
    }

    func fixture(_ engine: Engine) throws -> (TempDir, String) {
        let tmp = try TempDir()
        let path = try tmp.storeLocation(engine)
        let store = try openStore(path)
        func put(_ p: ParsedReceipt, _ hash: String, _ status: ReceiptStatus) throws {
            try store.saveReceipt(StoredReceiptInput(contentHash: hash, sourcePath: tmp.path("\(hash).png"), ocrText: nil, parsed: p,
                                                     engineVersion: "t", status: status))
        }
        var unsure = receipt(vendor: "Pelita Senja Co", date: "2018-02-22", total: "26.00")
        unsure.total?.confidence = 0.4
        try put(unsure, "r1", .needsReview)
        try put(receipt(vendor: nil, date: nil, total: nil), "r2", .needsReview)
        try put(receipt(vendor: "Fine Shop", date: "2024-01-01", total: "5.00"), "r3", .parsed)
        var third = receipt(vendor: "Third", date: "2024-02-02", total: "7.00")
        third.vendor?.confidence = 0.3
        try put(third, "r4", .needsReview)
        _ = try store.checkpoint()
        return (tmp, path)
    }

    @Test(arguments: Engine.allCases) func editAcceptSkipQuitThroughAPseudoTerminal(_ engine: Engine) throws {
        let (tmp, path) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let (code, screen) = try Self.runOnTerminal(["review", "--store", path, "--by", "kim"],
                                                    input: ["e total 62.00", "e date 2018-13-40", "a", "x", "s", "q"])
        #expect(code == 0, "\(screen)")
        // The first receipt: shown with its unsure total marked, the image path, then the prompt.
        #expect(screen.contains("[1/3] receipt #1  [needs-review]\n  vendor         Pelita Senja Co"))
        #expect(screen.contains("  total          26.00 ?"))
        #expect(screen.contains("  image          \(tmp.path("r1.png")) (not there now)"))
        #expect(screen.contains("a accept · e FIELD VALUE edit · s skip · q quit > "))
        #expect(screen.contains("receipt #1: total 26.00 → 62.00"))
        #expect(screen.contains("date: '2018-13-40' is not a date (YYYY-MM-DD)"))
        #expect(screen.contains("  total          62.00 *"))
        #expect(screen.contains("receipt #1: accepted by kim"))
        // Oldest first, undated last.
        #expect(screen.contains("[2/3] receipt #4  [needs-review]\n  vendor         Third ?"))
        #expect(screen.contains("unknown answer 'x'"))
        #expect(screen.contains("[3/3] receipt #2"))
        #expect(screen.contains("reviewed 2 of 3: 0 accepted, 1 edited, 1 skipped (quit)"))

        let store = try openStore(path, create: false)
        let first = try #require(try store.receiptDetail(ReceiptID(1)))
        #expect(first.state == .corrected)
        #expect(first.effective.total?.value == Amount("62.00"))
        #expect(Set(first.corrections.map(\.field)) == [.total, .vendor, .date], "accept confirms the other headline fields")
        #expect(first.corrections.allSatisfy { $0.by == "kim" })
        #expect(try store.listReceipts(ReceiptFilter(state: .needsReview)).map(\.id.rawValue) == [4, 2])
    }

    @Test(arguments: Engine.allCases) func acceptLeavesTheQueueAndEndOfInputQuits(_ engine: Engine) throws {
        let (tmp, path) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let (code, screen) = try Self.runOnTerminal(["review", "--store", path], input: ["a", "a", "a"])
        #expect(code == 0, "\(screen)")
        #expect(screen.contains("nothing to accept: no vendor, date or total was found"), "receipt #2 has none of them")
        #expect(screen.contains("reviewed 2 of 3: 2 accepted, 0 edited, 0 skipped (quit)"))
        let store = try openStore(path, create: false)
        #expect(try store.receiptDetail(ReceiptID(1))?.state == .corrected)
    }

    /// From a script (no terminal) review refuses and says what to use instead, in-process and as a process.
    @Test(arguments: Engine.allCases) func withoutATerminalItPointsToEdit(_ engine: Engine) throws {
        let (tmp, path) = try fixture(engine)
        defer { withExtendedLifetime(tmp) {} }
        let r = cli(["review", "--store", path])
        #expect(r.code == 2)
        #expect(r.err.contains("review needs a terminal") && r.err.contains("receipts edit ID --total 12.30"))
        let piped = try runReceipts(["review", "--store", path])
        #expect(piped.code == 2)
        #expect(piped.err.contains("receipts list --status needs-review"))
        #expect(try openStore(path).listReceipts(ReceiptFilter(state: .needsReview)).count == 3)
    }
}
