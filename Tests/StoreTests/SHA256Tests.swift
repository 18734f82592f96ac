import Foundation
import ReceiptModel
import Testing
import ReceiptSupport

@Suite("SHA-256 content hash")
struct SHA256Tests {
    // FIPS 180-4 / NIST CAVP known answers.
    @Test("known answers", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        ("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
         "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
        ("The quick brown fox jumps over the lazy dog", "d7a8fbb307d7809469ca9abcb0082e4f8d5651e46d3cdb762d02d0bf37c9e592"),
    ])
    func knownAnswers(input: String, hex: String) {
        #expect(ContentHash.sha256(Data(input.utf8)) == hex)
    }

    @Test("a million 'a'")
    func millionA() {
        #expect(ContentHash.sha256(Data(repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("lengths around the 55/56/64-byte padding edges agree with chunked updates")
    func paddingEdgesAndChunks() {
        // 55, 56 and 64 bytes of 'a' (NIST-derived values).
        #expect(ContentHash.sha256(Data(repeating: 0x61, count: 55)) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(ContentHash.sha256(Data(repeating: 0x61, count: 56)) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(ContentHash.sha256(Data(repeating: 0x61, count: 64)) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
        let data = Data((0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        for chunk in [1, 3, 63, 64, 65, 200] {
            var h = SHA256()
            var i = 0
            while i < data.count { h.update(data[i..<min(i + chunk, data.count)]); i += chunk }
            #expect(h.hexDigest() == ContentHash.sha256(data), "chunk \(chunk)")
        }
    }

    @Test("agrees with sha256sum on a sample receipt image")
    func agreesWithCoreutils() throws {
        let file = Repo.path("SampleReceipts/us-hardware-01.png")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        p.arguments = [file]
        let pipe = Pipe()
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let expected = String(out.prefix(64))
        #expect(ContentHash.sha256(try Data(contentsOf: URL(fileURLWithPath: file))) == expected)
    }
}
