import Foundation
import Testing
@testable import ReceiptsCLI

/// The `receipts` command line, driven in-process.
@Suite("CLI")
struct CLITests {
    func run(_ args: [String], env: [String: String] = ProcessInfo.processInfo.environment) -> (code: Int32, out: String, err: String) {
        let c = CapturingConsole()
        let code = CLI.run(args, context: CommandContext(console: c.console, environment: env))
        return (code, c.stdout, c.stderr)
    }

    @Test func parsePrintsTheThreeFields() {
        let r = run(["parse", Repo.samples + "/us-hardware-01.png"])
        #expect(r.code == 0)
        #expect(r.out.contains("vendor   Harbor Lane Hardware LLC"))
        #expect(r.out.contains("2024-03-04"))
        #expect(r.out.contains("55.84 USD"))
        #expect(r.err.isEmpty)
    }

    @Test func jsonKeysAreStable() throws {
        let r = run(["parse", "--json", Repo.samples + "/de-moebel-01.png"])
        #expect(r.code == 0)
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        for key in ["file", "vendor", "date", "total", "currency"] { #expect(obj[key] != nil, "missing key \(key)") }
        let total = try #require(obj["total"] as? [String: Any])
        #expect(total["value"] as? String == "1236.98")
        #expect(total["confidence"] is Double)
        #expect((total["evidence"] as? [String: Any])?["rule"] is String)
        #expect((obj["currency"] as? [String: Any])?["value"] as? String == "EUR")
        #expect((obj["date"] as? [String: Any])?["value"] as? String == "2024-11-02")
    }

    @Test func badInputsGetOneErrorLineEachAndTheRestIsParsed() throws {
        let dir = try TempDir()
        _ = FileManager.default.createFile(atPath: dir.file("empty.jpg"), contents: Data())
        _ = FileManager.default.createFile(atPath: dir.file("notes.png"), contents: Data("not an image".utf8))
        let r = run(["parse", dir.file("empty.jpg"), dir.file("notes.png"), dir.file("missing.jpg"), Repo.samples + "/us-hardware-01.png"])
        #expect(r.code == ExitCode.inputError.rawValue)
        let lines = r.err.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines[0] == "error: \(dir.file("empty.jpg")): the file is empty")
        #expect(lines[1].hasPrefix("error: \(dir.file("notes.png")): not an image"))
        #expect(lines[2] == "error: \(dir.file("missing.jpg")): no such file")
        #expect(r.out.contains("Harbor Lane Hardware LLC"))
    }

    @Test func unknownOptionSuggests() {
        let r = run(["eval", "--jbos", "2", "x"])
        #expect(r.code == ExitCode.usage.rawValue)
        #expect(r.err.contains("unknown option '--jbos'. Did you mean '--jobs'?"))
    }

    @Test func unknownCommandSuggests() {
        let r = run(["pars", "x.jpg"])
        #expect(r.code == ExitCode.usage.rawValue)
        #expect(r.err.contains("Did you mean 'parse'?"))
    }

    @Test func helpDocumentsExitCodesAndOptions() {
        let top = run(["--help"])
        #expect(top.code == 0)
        for code in ExitCode.allCases { #expect(top.out.contains(code.meaning)) }
        let parse = run(["parse", "--help"])
        for opt in ["--json", "--explain", "--psm", "--tessdata", "--vendors", "--rules", "--date-order"] {
            #expect(parse.out.contains(opt), "parse --help lacks \(opt)")
        }
    }

    @Test func missingLanguageDataExits4() throws {
        let dir = try TempDir()
        let r = run(["parse", "--tessdata", dir.path, Repo.samples + "/us-hardware-01.png"])
        #expect(r.code == ExitCode.missingDependency.rawValue)
        #expect(r.err.contains("tesseract-ocr-eng"))
    }

    @Test func badValuesAreUsageErrors() {
        #expect(run(["parse", "--psm", "99", "x.png"]).code == ExitCode.usage.rawValue)
        #expect(run(["parse", "--date-order", "sideways", "x.png"]).code == ExitCode.usage.rawValue)
        #expect(run(["parse"]).code == ExitCode.usage.rawValue)
    }

    @Test func explainShowsEvidenceForEveryField() {
        let r = run(["parse", "--explain", Repo.samples + "/us-hardware-01.png"])
        #expect(r.code == 0)
        #expect(r.out.contains("[total.keyword]"))
        #expect(r.out.contains("[vendor."))
        #expect(r.out.contains("[date."))
        #expect(r.out.contains("subtotal 51.41 + tax 4.43 = 55.84"))
    }
}
