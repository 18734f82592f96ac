import Foundation
import ReceiptOCR
import ReceiptTestSupport
import Testing

/// `make install` into a DESTDIR: the binary finds its model beside itself from any folder and
/// reads as the tree's binary does; `make uninstall` leaves no file behind.
@Suite("make install / make uninstall")
struct InstallTests {
    static let installed: Set<String> = [
        "usr/bin/receipts", "usr/share/receipts/receipt.traineddata", "usr/share/man/man1/receipts.1",
        "usr/share/bash-completion/completions/receipts", "usr/share/zsh/vendor-completions/_receipts",
        "usr/share/fish/vendor_completions.d/receipts.fish",
    ]

    static func files(under dir: String) -> Set<String> {
        let e = FileManager.default.enumerator(atPath: dir)
        var out: Set<String> = []
        while let p = e?.nextObject() as? String {
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: dir + "/" + p, isDirectory: &isDir), !isDir.boolValue { out.insert(p) }
        }
        return out
    }

    @Test func installedBinaryFindsItsModelFromAnywhereAndUninstallRemovesEveryFile() throws {
        let make = try requiredTool("make", package: "make")
        let receipts = try #require(Repo.executable("receipts"), "build the receipts executable first (swift build)")
        let tmp = try TempDir()
        let dest = tmp.file("dest"), elsewhere = tmp.file("elsewhere")
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        // The receipt model: the tree's when it has one, else Tesseract's English model under its name.
        var model = Repo.path("Model/receipt.traineddata")
        if !FileManager.default.fileExists(atPath: model) {
            model = tmp.file("receipt.traineddata")
            try FileManager.default.copyItem(atPath: try Tessdata.locate(language: "eng") + "/eng.traineddata", toPath: model)
        }
        let install = try runProcess(make, ["-C", Repo.root.path, "install", "DESTDIR=\(dest)", "PREFIX=/usr", "BIN=\(receipts)", "MODEL=\(model)"])
        #expect(install.code == 0, "\(install.out)\(install.err)")
        #expect(Self.files(under: dest) == Self.installed)

        // From another folder, with nothing pointing at the tree: the same JSON as the tree's binary.
        let env = ["PATH": "/usr/bin:/bin", "HOME": tmp.path, "OMP_THREAD_LIMIT": "1"]
        let bin = dest + "/usr/bin/receipts"
        let sample = Repo.samples + "/us-hardware-01.png"
        func parse(_ exe: String, _ args: [String]) throws -> ProcessOutput {
            try runProcess(exe, ["parse", "--json"] + args + [sample], environment: env, currentDirectory: elsewhere)
        }
        let tree = try parse(receipts, [])
        let ours = try parse(bin, [])
        #expect(ours.code == 0 && ours.out == tree.out && !ours.out.isEmpty, "\(ours.err)")
        // The receipt model is found in share/receipts beside the binary's bin/, and only there:
        // the same binary outside the prefix does not find it.
        let withModel = try parse(bin, ["--model", "receipt"])
        #expect(withModel.code == 0, "\(withModel.err)")
        #expect(withModel.out == (try parse(receipts, ["--model", "receipt", "--tessdata", (model as NSString).deletingLastPathComponent])).out)
        try FileManager.default.copyItem(atPath: bin, toPath: tmp.file("receipts"))
        let alone = try parse(tmp.file("receipts"), ["--model", "receipt"])
        #expect(alone.code == 4 && alone.err.contains("receipt"), "\(alone.code) \(alone.err)")

        // The man page and the completion scripts are what the binary makes.
        let page = try String(contentsOfFile: dest + "/usr/share/man/man1/receipts.1", encoding: .utf8)
        #expect(page == (try runProcess(bin, ["man"], environment: env)).out)
        let fish = try String(contentsOfFile: dest + "/usr/share/fish/vendor_completions.d/receipts.fish", encoding: .utf8)
        #expect(fish == (try runProcess(bin, ["completion", "fish"], environment: env)).out)

        let uninstall = try runProcess(make, ["-C", Repo.root.path, "uninstall", "DESTDIR=\(dest)", "PREFIX=/usr"])
        #expect(uninstall.code == 0, "\(uninstall.err)")
        #expect(Self.files(under: dest).isEmpty, "left behind: \(Self.files(under: dest))")
        #expect(!FileManager.default.fileExists(atPath: dest + "/usr/share/receipts"))
    }
}
