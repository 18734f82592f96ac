import Foundation
import Testing
import ReceiptModel
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

    /// A line item's details are in its JSON as printed, and the key is left out when it has none.
    @Test func lineItemDetailsInJSON() throws {
        let item = LineItem(description: "Tuna Sub", amount: Amount("4.49")!, details: ["- -Fries", "No Green Pepper"], evidence: Evidence(rule: "item.line"))
        let enc = JSONEncoder()
        enc.outputFormatting = .sortedKeys
        let json = String(decoding: try enc.encode(LineItemReport(item, position: 0)), as: UTF8.self)
        #expect(json.contains(#""details":["- -Fries","No Green Pepper"]"#), "\(json)")
        var plain = item
        plain.details = nil
        #expect(!String(decoding: try enc.encode(LineItemReport(plain, position: 0)), as: UTF8.self).contains("details"))
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

    /// SampleReceipts/text (the project's German, French, Spanish and British receipts as true text: `box/` and `key/`,
    /// no images) is a set `eval --truth-text` reads, and the parser reads every one of its vendors, dates and totals.
    @Test func europeanTextSetReadsRight() throws {
        let r = run(["eval", "--truth-text", "--json", Repo.samples + "/text"])
        #expect(r.code == 0, "\(r.err)")
        let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
        #expect(obj["receipt_count"] as? Int == 60, "\(obj.keys.sorted())")
        let misses = try #require(obj["misses"] as? [[String: Any]])
        #expect(misses.isEmpty, "\(misses)")
    }

    /// `eval` compares labels as score.py does with the same flags, and says for each miss whether the right
    /// value was on any text the parser had ("not read") or was there and not chosen.
    @Test func evalScoresLikeTheReferenceAndTellsWhyFieldsWereMissed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("eval-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for sub in ["img", "key", "box"] { try FileManager.default.createDirectory(at: dir.appendingPathComponent(sub), withIntermediateDirectories: true) }
        // Two receipts; the image is never read with --truth-text, but eval lists receipts by their images.
        for id in ["a", "b"] {
            try FileManager.default.copyItem(atPath: Repo.samples + "/us-hardware-01.png", toPath: dir.path + "/img/\(id).png")
        }
        let text = "10,10,200,10,200,30,10,30,Juniper Grill\n10,40,200,40,200,60,10,60,DATE 04/03/2019\n10,70,200,70,200,90,10,90,TIP 12.50\n10,100,200,100,200,120,10,120,TOTAL 9.99\n"
        try text.write(toFile: dir.path + "/box/a.txt", atomically: true, encoding: .utf8)
        try text.write(toFile: dir.path + "/box/b.txt", atomically: true, encoding: .utf8)
        // a: the name glued (as the photo set's labels are), the date ambiguous, a total that is on the receipt but not chosen.
        try #"{"company": "JUNIPERGRILL", "date": "03/04/2019", "total": "12.50"}"#.write(toFile: dir.path + "/key/a.json", atomically: true, encoding: .utf8)
        // b: a total that no line holds.
        try #"{"company": "Juniper Grill", "date": "04/03/2019", "total": "77.77"}"#.write(toFile: dir.path + "/key/b.json", atomically: true, encoding: .utf8)

        func misses(_ flags: [String]) throws -> [[String: Any]] {
            let r = run(["eval", "--truth-text", "--json"] + flags + [dir.path])
            #expect(r.code == 0, "\(r.err)")
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            return try #require(obj["misses"] as? [[String: Any]])
        }
        let plain = try misses([])
        #expect(plain.contains { $0["sample"] as? String == "a" && $0["field"] as? String == "vendor" })
        let photo = try misses(["--spaceless", "--either-order"])
        #expect(!photo.contains { $0["field"] as? String == "vendor" })
        #expect(!photo.contains { $0["field"] as? String == "date" })
        let totalA = try #require(photo.first { $0["sample"] as? String == "a" && $0["field"] as? String == "total" })
        #expect(totalA["cause"] as? String == "read, not chosen")
        let totalB = try #require(photo.first { $0["sample"] as? String == "b" && $0["field"] as? String == "total" })
        #expect(totalB["cause"] as? String == "not read")
        let table = run(["eval", "--truth-text", "--spaceless", dir.path])
        #expect(table.out.contains("where the misses go"))
    }

    /// `parse -` reads the receipt from standard input (`cat scan.jpg | receipts parse -`).
    @Test func parseReadsStandardInput() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Repo.samples + "/us-hardware-01.png"))
        let c = CapturingConsole()
        let input = Input(isTerminal: false, readLine: { nil }, readAll: { limit in bytes.count <= limit ? bytes : nil })
        let code = CLI.run(["parse", "-"], context: CommandContext(console: c.console, environment: ProcessInfo.processInfo.environment, input: input))
        #expect(code == 0, "\(c.stderr)")
        #expect(c.stdout.contains("55.84 USD"))
        // Nothing there: one clear line naming "-".
        let empty = CapturingConsole()
        let none = CLI.run(["parse", "-"], context: CommandContext(console: empty.console, environment: ProcessInfo.processInfo.environment, input: .none))
        #expect(none == ExitCode.inputError.rawValue)
        #expect(empty.stderr.contains("error: -: nothing on standard input"))
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

    /// A missing model is exit 4 naming where it looked: the receipt model says how to get it back
    /// (or to read with stock Tesseract); a stock language names its Debian package.
    @Test func missingLanguageDataExits4() throws {
        let dir = try TempDir()
        let r = run(["parse", "--tessdata", dir.path, Repo.samples + "/us-hardware-01.png"])
        #expect(r.code == ExitCode.missingDependency.rawValue)
        #expect(r.err.contains("receipt.traineddata") && r.err.contains(dir.path) && r.err.contains("--model eng"), "\(r.err)")
        let eng = run(["parse", "--model", "eng", "--tessdata", dir.path, Repo.samples + "/us-hardware-01.png"])
        #expect(eng.code == ExitCode.missingDependency.rawValue)
        #expect(eng.err.contains("tesseract-ocr-eng"), "\(eng.err)")
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
