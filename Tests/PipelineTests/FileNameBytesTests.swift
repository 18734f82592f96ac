import Foundation
import ReceiptTestSupport
import Testing
import ReceiptModel
import ReceiptStore
#if canImport(Glibc)
import Glibc
import ReceiptSupport
#endif

/// File names are bytes: one that is not UTF-8 is read, stored without loss and shown escaped.
@Suite("File names that are not UTF-8")
struct FileNameBytesTests {
    @Test func anyBytesRoundTrip() {
        var rng = SystemRandomNumberGenerator()
        let fixed: [[UInt8]] = [Array("receipt.png".utf8), [0x72, 0xE9, 0xFF, 0x2E, 0x70], Array("é ü €".utf8),
                                Array("\u{EF80}\u{EFFF}".utf8), [0xEE, 0xBE], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xC0, 0xAF]]
        for bytes in fixed + (0..<2000).map({ _ in (0..<Int.random(in: 0...12, using: &rng)).map { _ in UInt8.random(in: 1...255, using: &rng) } }) {
            let s = PathBytes.string(bytes)
            #expect(PathBytes.bytes(s) == bytes, "\(bytes)")
            if let valid = String(validating: bytes, as: UTF8.self), !valid.unicodeScalars.contains(where: { (0xEF80...0xEFFF).contains($0.value) }) {
                #expect(s == valid)  // ordinary names are ordinary strings
            }
        }
        #expect(PathBytes.displayable(PathBytes.string([0x72, 0xE9, 0xFF, 0x2E, 0x70, 0x6E, 0x67])) == "r\\xE9\\xFF.png")
        #expect(PathBytes.displayable("reçu.png") == "reçu.png")
    }

    /// Runs `receipts ARGS… NAME` through /bin/sh, so the name reaches argv as raw bytes.
    func run(_ args: [String], withRawName name: [UInt8], in dir: String) throws -> ProcessOutput {
        let exe = try #require(Repo.executable("receipts"), "receipts not built: run `swift build`")
        let octal = name.map { String(format: "\\%03o", $0) }.joined()
        let script = "cd \"$1\" && shift && exec \"$@\" \"$(printf '\(octal)')\""
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = ["-c", script, "sh", dir, exe] + args
        let out = Pipe(), err = Pipe()
        p.standardOutput = out; p.standardError = err
        try p.run()
        let o = out.fileHandleForReading.readDataToEndOfFile(), e = err.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return ProcessOutput(code: p.terminationStatus, out: String(decoding: o, as: UTF8.self), err: String(decoding: e, as: UTF8.self))
    }

    /// Spaces and a newline in a name: read, and stored with exactly those bytes.
    @Test func aNameWithSpacesAndANewlineIsReadAndStored() throws {
        let dir = try TempDir()
        let name = Array("till slip\n2024 03.png".utf8)
        try FileManager.default.copyItem(atPath: Repo.fixtures + "/formats/receipt.png", toPath: dir.path + "/" + String(decoding: name, as: UTF8.self))
        let parsed = try run(["parse", "--json"], withRawName: name, in: dir.path)
        #expect(parsed.code == 0, "\(parsed.err)")
        #expect(parsed.out.contains(#""file":"till slip\n2024 03.png""#), "\(parsed.out)")
        let store = dir.file("s.sqlite")
        let batch = try runExecutable("receipts", ["batch", "--quiet", "--store", store, dir.path])
        #expect(batch.code == 0, "\(batch.err)")
        let paths = try SQLReceiptStore(path: store).receipts().flatMap(\.sourcePaths)
        #expect(paths.map(PathBytes.bytes) == [Array((dir.path + "/").utf8) + name])
    }

    @Test func aNameThatIsNotUTF8IsReadStoredAndShown() throws {
        let dir = try TempDir()
        let name: [UInt8] = [0x72, 0xE9, 0xFF, 0x2E, 0x70, 0x6E, 0x67]  // r\xe9\xff.png
        let image = try Data(contentsOf: URL(fileURLWithPath: Repo.fixtures + "/formats/receipt.png"))
        // Made with the raw bytes, not through the code under test.
        let fd = (dir.path + "/").utf8CString.dropLast().map { UInt8(bitPattern: $0) }.withUnsafeBufferPointer { prefix in
            (Array(prefix) + name + [0]).withUnsafeBufferPointer { p in
                p.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
            }
        }
        #expect(fd >= 0)
        _ = image.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)

        let parsed = try run(["parse"], withRawName: name, in: dir.path)
        #expect(parsed.code == 0, "\(parsed.err)")
        #expect(parsed.out.hasPrefix("r\\xE9\\xFF.png\n"), "\(parsed.out)")

        let store = dir.file("s.sqlite")
        let batch = try run(["batch", "--quiet", "--store", store], withRawName: name, in: dir.path)
        #expect(batch.code == 0, "\(batch.err)")
        // A folder walk finds it too (the second copy is skipped by content, its path recorded).
        let folder = try runExecutable("receipts", ["batch", "--quiet", "--store", store, dir.path])
        #expect(folder.err.contains("1 skipped"), "\(folder.err)")
        let paths = try SQLReceiptStore(path: store).receipts().flatMap(\.sourcePaths)
        #expect(Set(paths.map(PathBytes.bytes)) == [name, Array((dir.path + "/").utf8) + name])
        let export = try runExecutable("receipts", ["export", "--store", store])
        #expect(export.out.contains("r\\xE9\\xFF.png"), "\(export.out)")
    }
}
