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
        let items = try SQLReceiptStore(path: dir.path("s.sqlite")).items().map(\.item)
        #expect(items.map(\.name).sorted() == ["Desk", "Lamp"])
        #expect(items.first { $0.name == "Lamp" }?.notes == "two\nlines")
    }

    @Test func aFullDiskDuringAThousandRowImportLosesNothing() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        let before = try SQLReceiptStore(path: store).items().map(\.item.name).sorted()
        #expect(before.count == 18)
        let csv = try Self.thousandRows(dir)
        // 300 KB: the 700 KB import cannot be written; the store as it is (under 100 KB) can.
        let r = try Self.run(["items", "import", "--store", store, csv], fileSizeBlocks: 600)
        #expect(r.code == 5, "exit \(r.code): \(r.err)")
        #expect(r.err.hasPrefix("error: \(csv): writing the items: \(store): "), "\(r.err)")
        let s = try SQLReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        #expect(try s.items().map(\.item.name).sorted() == before)
        // Without the limit the same import goes in whole.
        #expect(cli(["items", "import", "--store", store, csv]).code == 0)
        #expect(try SQLReceiptStore(path: store).items().count == 1018)
    }

    /// 1,000 rows, the 500th without a name: that row is reported by its line and skipped,
    /// the other 999 go in (the documented behaviour of a bad row), exit 3.
    @Test func aBadRowFiveHundredOfAThousandIsReportedAndSkipped() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        var lines = try String(contentsOfFile: try Self.thousandRows(dir), encoding: .utf8).components(separatedBy: "\r\n")
        lines[500] = ",Brand,499.99,USD,2024-01-02,Shop,no name"  // line 501: the 500th row
        let csv = try dir.write("bad500.csv", lines.joined(separator: "\r\n"))
        let r = cli(["items", "import", "--store", store, csv])
        #expect(r.code == 3, "\(r.err)")
        #expect(r.err == "error: \(csv):501: no name\n", "\(r.err)")
        #expect(r.out.contains("999 items read: 999 new, 0 updated, 0 unchanged; 1 bad row skipped"), "\(r.out)")
        let s = try SQLReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        let names = try s.items().map(\.item.name)
        #expect(names.count == 18 + 999)
        #expect(!names.contains { $0.hasPrefix("Item 499 ") })
    }

    /// A write that fails at the 500th row of 1,000 (a trigger in the store makes SQLite fail the
    /// insert, as a disk error would): none of the file's rows are kept, the 18 items before
    /// are, the message names the file, the store and SQLite's reason, exit 5.
    @Test func aWriteFailingAtRowFiveHundredOfAThousandWritesNone() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        let before = try SQLReceiptStore(path: store).items().map(\.item.name).sorted()
        try RawSQLite.exec(store, """
            CREATE TRIGGER fail_row_500 BEFORE INSERT ON items WHEN NEW.name LIKE 'Item 499 %'
            BEGIN SELECT RAISE(FAIL, 'injected write failure at row 500'); END;
            """)
        let csv = try Self.thousandRows(dir)
        let r = cli(["items", "import", "--store", store, csv])
        #expect(r.code == 5, "\(r.err)")
        #expect(r.err.hasPrefix("error: \(csv): writing the items: \(store): "), "\(r.err)")
        #expect(r.err.contains("injected write failure at row 500"), "\(r.err)")
        let s = try SQLReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        #expect(try s.items().map(\.item.name).sorted() == before)
        try RawSQLite.exec(store, "DROP TRIGGER fail_row_500")
        #expect(cli(["items", "import", "--store", store, csv]).code == 0)
        #expect(try SQLReceiptStore(path: store).items().count == 1018)
    }

    /// The prefix that runs a child without root's power to ignore file permissions: as root,
    /// `setpriv` to nobody (65534), proved by `id -u`; as anyone else, nothing. Fails, never skips,
    /// when root cannot be dropped.
    static func unprivileged() throws -> [String] {
        guard getuid() == 0 else { return [] }
        let setpriv = "/usr/bin/setpriv"
        try #require(FileManager.default.isExecutableFile(atPath: setpriv), "setpriv (util-linux) is needed to drop root for the read-only store test")
        let prefix = [setpriv, "--reuid=65534", "--regid=65534", "--clear-groups"]
        let p = Process()
        p.executableURL = URL(fileURLWithPath: setpriv)
        p.arguments = Array(prefix.dropFirst()) + ["/usr/bin/id", "-u"]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let uid = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        p.waitUntilExit()
        try #require(p.terminationStatus == 0 && uid == "65534", "could not drop root with setpriv (id -u said '\(uid)')")
        return prefix
    }

    /// Runs `receipts ARGS` after `prefix`; returns the exit code, stdout and stderr. With a prefix
    /// the binary runs from a copy in `dir`, so that a checkout nobody may enter (under /root, say)
    /// does not stop the child.
    static func run(_ prefix: [String], _ args: [String], dir: TempDir) throws -> CLIResult {
        var exe = try #require(Repo.executable("receipts"), "receipts not built: run `swift build` (this test runs the real binary)")
        if !prefix.isEmpty {
            let copy = dir.path("receipts-bin")
            if !FileManager.default.fileExists(atPath: copy) {
                try FileManager.default.copyItem(atPath: exe, toPath: copy)
                try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
            }
            exe = copy
        }
        let command = prefix + [exe] + args
        // A copy just written may be briefly "busy" (ETXTBSY): a child another test thread forked
        // meanwhile can hold the write descriptor open. That is the test's race, not the tool's: try again.
        for attempt in 1...5 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: command[0])
            p.arguments = Array(command.dropFirst())
            let out = Pipe(), err = Pipe()
            p.standardOutput = out
            p.standardError = err
            try p.run()
            let o = out.fileHandleForReading.readDataToEndOfFile()
            let e = err.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            let r = CLIResult(code: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
            if r.code == 126, r.err.contains("Text file busy"), attempt < 5 { usleep(200_000); continue }
            return r
        }
        fatalError("unreachable")
    }

    /// A store file without write permission (its folder writable): every writing command fails at
    /// once with exit 5 and a message saying the store is read-only; the file is byte-identical;
    /// reading it still works.
    @Test func aReadOnlyStoreFileIsRefusedByEveryWritingCommand() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        do {
            let s = try SQLReceiptStore(path: store)
            try save(s, try parsedFromSidecar("us-electronics-01"), hash: "e", path: "us-electronics-01.png")
            _ = try s.checkpoint()
        }
        let csv = try dir.write("new.csv", "name,price\nLamp,12.00\n")
        try FileManager.default.copyItem(atPath: Repo.samples + "/us-kitchen-01.png", toPath: dir.path("kitchen.png"))
        let prefix = try Self.unprivileged()
        let fm = FileManager.default
        if getuid() == 0 {
            // nobody owns the folder (so only the file's mode stands in the way) and the file.
            for name in try fm.contentsOfDirectory(atPath: dir.url.path) {
                try fm.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: dir.path(name))
            }
            try fm.setAttributes([.ownerAccountID: 65534, .groupOwnerAccountID: 65534], ofItemAtPath: dir.url.path)
        }
        try fm.setAttributes([.posixPermissions: 0o444], ofItemAtPath: store)
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        // The child can run the binary and read the store.
        let list = try Self.run(prefix, ["items", "list", "--store", store], dir: dir)
        #expect(list.code == 0, "the unprivileged child could not read the store: exit \(list.code): \(list.err)")
        #expect(list.out.contains("WH-1000XM5"), "\(list.out)")
        for args in [["items", "import", "--store", store, csv],
                     ["reconcile", "--store", store],
                     ["edit", "--store", store, "1", "--total", "9.99"],
                     ["batch", "--store", store, "--quiet", dir.path("kitchen.png")]] {
            let r = try Self.run(prefix, args, dir: dir)
            #expect(r.code == 5, "\(args[0]): exit \(r.code): \(r.err)")
            #expect(r.err == "error: \(store): the store is read-only (no permission to write the file); nothing was changed\n",
                    "\(args[0]): \(r.err)")
            #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes, "\(args[0]) changed the read-only store")
        }
        try fm.setAttributes([.posixPermissions: 0o644], ofItemAtPath: store)
        let s = try SQLReceiptStore(path: store)
        #expect(try s.integrityCheck() == "ok")
        #expect(try s.items().count == 18 && s.receipts().count == 1)
    }

    /// A store in a folder this user may not write (it may read the file): SQLite cannot create the
    /// WAL's side files, so no command can open it; each says why, exit 5, the file unchanged.
    @Test func aStoreInAReadOnlyFolderSaysSo() throws {
        let dir = try TempDir()
        let store = dir.path("s.sqlite")
        #expect(cli(["items", "import", "--store", store, Repo.samples + "/inventory.csv"]).code == 0)
        let prefix = try Self.unprivileged()
        // As root the folder stays root's (0755): nobody may read it, not write it.
        if getuid() != 0 { try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: dir.url.path) }
        defer { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: dir.url.path) }
        let bytes = try Data(contentsOf: URL(fileURLWithPath: store))
        for args in [["items", "list", "--store", store], ["items", "import", "--store", store, Repo.samples + "/inventory.csv"]] {
            let r = try Self.run(prefix, args, dir: dir)
            #expect(r.code == 5, "\(args[0]) \(args[1]): exit \(r.code): \(r.err)")
            #expect(r.err == "error: cannot open the store: \(store): the folder holding the store is read-only "
                    + "(the store needs to create its -wal and -shm files beside it)\n", "\(r.err)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == bytes)
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
