import Foundation
import Testing
import ReceiptStore

/// Faults around the store, through the real binary: each ends with a message and a non-zero exit,
/// the store passes `PRAGMA integrity_check`, nothing stored before is lost, nothing half-written.
@Suite("Store faults", .serialized)
struct StoreFaultTests {
    /// Runs `receipts ARGS` through /bin/sh under a file-size limit (`ulimit -f`, 512-byte blocks),
    /// stdout to `stdoutFile` (or /dev/null); returns the exit code and stderr.
    static func run(_ args: [String], fileSizeBlocks: Int, stdoutFile: String = "/dev/null") throws -> (code: Int32, err: String) {
        let exe = try #require(Repo.executable("receipts"), "receipts not built: run `swift build` (this test runs the real binary)")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", "ulimit -f \(fileSizeBlocks); exec \"$@\" > \"$0\"", stdoutFile, exe] + args
        let err = Pipe()
        p.standardError = err
        try p.run()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: e, as: UTF8.self))
    }

    /// 1,000 items of about 700 bytes each, with Windows line ends (as Excel writes CSV).
    static func thousandRows(_ dir: TempDir) throws -> String {
        var csv = "name,brand,price,currency,date,vendor,notes\r\n"
        for i in 0..<1000 {
            csv += "Item \(i) \(String(repeating: "x", count: 200)),Brand,\(i).99,USD,2024-01-02,Shop,\(String(repeating: "n", count: 500))\r\n"
        }
        return try dir.write("inv1000.csv", csv)
    }

    @Test func aCSVWithWindowsLineEndsImportsEveryRow() throws {
        let dir = try TempDir()
        let csv = try dir.write("crlf.csv", "name,price,notes\r\nLamp,12.00,\"two\r\nlines\"\r\nDesk,99.00,\r\n")
        let r = cli(["items", "import", "--store", dir.path("s.sqlite"), csv])
        #expect(r.code == 0, "\(r.err)")
        let items = try SQLiteReceiptStore(path: dir.path("s.sqlite")).items().map(\.item)
        #expect(items.map(\.name).sorted() == ["Desk", "Lamp"])
        #expect(items.first { $0.name == "Lamp" }?.notes == "two\nlines")
    }

    @Test func aFullDiskDuringAThousandRowImportLosesNothing() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        let before = try SQLiteReceiptStore(path: store).items().map(\.item.name).sorted()
        #expect(before.count == 18)
        let csv = try Self.thousandRows(dir)
        // 300 KB: the 700 KB import cannot be written; the store as it is (under 100 KB) can.
        let r = try Self.run(["items", "import", "--store", store, csv], fileSizeBlocks: 600)
        #expect(r.code == 5, "exit \(r.code): \(r.err)")
        #expect(r.err.hasPrefix("error: \(csv): writing the items: \(store): "), "\(r.err)")
        let s = try SQLiteReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        #expect(try s.items().map(\.item.name).sorted() == before)
        // Without the limit the same import goes in whole.
        #expect(cli(["items", "import", "--store", store, csv]).code == 0)
        #expect(try SQLiteReceiptStore(path: store).items().count == 1018)
    }

    @Test func aStorePathThatIsAFolderIsRefused() throws {
        let dir = try TempDir()
        let folder = dir.path("store.sqlite")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let r = cli(["items", "import", "--store", folder, Repo.samples + "/inventory.csv"])
        #expect(r.code == 5)
        #expect(r.err.hasPrefix("error: cannot open the store: \(folder): "), "\(r.err)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    @Test func outputThatCannotBeWrittenDoesNotCrashTheCommand() throws {
        let dir = try TempDir()
        // `receipts rules` prints about 6 KB; stdout is a file limited to 512 bytes.
        let r = try Self.run(["rules"], fileSizeBlocks: 1, stdoutFile: dir.path("out.json"))
        #expect(r.code == 0, "exit \(r.code): \(r.err.prefix(300))")
    }
}
