import Foundation
import ReceiptStore
import Testing

/// docs/JSON.md is the contract: every command it lists is run here with real images, a
/// real store and real Tesseract, and what it prints is checked key by key against the
/// page (documented keys only, documented types, the keys marked "always" present,
/// money as decimal strings, ids as integers).
@Suite("JSON vocabulary (docs/JSON.md)")
struct JSONVocabularyTests {
    struct KeySpec { var type: String; var always: Bool }
    struct Doc {
        /// Command as written in the doc → (one object or lines, object name).
        var commands: [String: (lines: Bool, object: String)] = [:]
        var objects: [String: [String: KeySpec]] = [:]
    }

    static func cells(_ line: Substring) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    static func unquote(_ s: String) -> String { s.replacingOccurrences(of: "`", with: "") }

    static func readDoc() throws -> Doc {
        let text = try String(contentsOfFile: Repo.path("docs/JSON.md"), encoding: .utf8)
        var doc = Doc()
        var section = ""
        var object: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("## ") { section = String(line.dropFirst(3)); object = nil; continue }
            if line.hasPrefix("### ") { object = unquote(line.dropFirst(4).trimmingCharacters(in: .whitespaces)); continue }
            guard line.hasPrefix("| `") else { continue }
            let c = cells(line)
            if section == "Commands", c.count == 2 {
                let prints = c[1]
                let name = unquote(String(prints.split(separator: " ").last ?? ""))
                doc.commands[unquote(c[0])] = (prints.hasPrefix("lines of"), name)
            } else if section == "Objects", let object, c.count == 4 {
                doc.objects[object, default: [:]][unquote(c[0])] = KeySpec(type: c[1], always: c[2] == "yes")
            }
        }
        return doc
    }

    /// Problems with `value` as an instance of `type` at `path`.
    static func check(_ value: Any, type: String, path: String, doc: Doc) -> [String] {
        let number = value as? NSNumber
        let isBool = number.map { String(cString: $0.objCType) == "c" } ?? false
        let isInteger = !isBool && number.map { ["i", "l", "q", "s"].contains(String(cString: $0.objCType)) } ?? false
        func expect(_ ok: Bool) -> [String] { ok ? [] : ["\(path): expected \(type), got \(value)"] }
        if type.hasPrefix("list of ") {
            guard let list = value as? [Any] else { return expect(false) }
            let inner = String(type.dropFirst(8))
            return list.enumerated().flatMap { check($0.element, type: inner, path: "\(path)[\($0.offset)]", doc: doc) }
        }
        if type.hasPrefix("map of ") {
            guard let map = value as? [String: Any] else { return expect(false) }
            let inner = String(type.dropFirst(7))
            return map.flatMap { check($0.value, type: inner, path: "\(path).\($0.key)", doc: doc) }
        }
        if type.hasPrefix("object ") { return checkObject(value, name: String(type.dropFirst(7)), path: path, doc: doc) }
        switch type {
        case "string": return expect(value is String)
        case "integer": return expect(isInteger)
        case "number": return expect(number != nil && !isBool)
        case "boolean": return expect(isBool)
        case "money": return expect((value as? String).map { $0.wholeMatch(of: /-?[0-9]+(\.[0-9]+)?/) != nil } ?? false)
        case "date": return expect((value as? String).map { $0.wholeMatch(of: /[0-9]{4}-[0-9]{2}-[0-9]{2}/) != nil } ?? false)
        default:
            // "list of link": a bare object name.
            if doc.objects[type] != nil { return checkObject(value, name: type, path: path, doc: doc) }
            return ["\(path): the doc names an unknown type '\(type)'"]
        }
    }

    static func checkObject(_ value: Any, name: String, path: String, doc: Doc) -> [String] {
        guard let spec = doc.objects[name] else { return ["\(path): the doc has no object '\(name)'"] }
        guard let obj = value as? [String: Any] else { return ["\(path): expected an object \(name), got \(value)"] }
        var issues: [String] = []
        for (key, v) in obj {
            if key.wholeMatch(of: /[a-z][a-z0-9_]*/) == nil { issues.append("\(path).\(key): not snake_case") }
            if key == "id" { issues.append("\(path).id: ids are named for what they identify") }
            guard let s = spec[key] else { issues.append("\(path).\(key): not documented for \(name)"); continue }
            issues += check(v, type: s.type, path: "\(path).\(key)", doc: doc)
        }
        for (key, s) in spec where s.always && obj[key] == nil { issues.append("\(path): \(name) lacks '\(key)' (always)") }
        // Money fields hold decimal strings.
        if name == "field" || name == "shown_field", ["total", "subtotal", "tax"].contains(path.split(separator: ".").last.map(String.init) ?? ""),
           let v = obj["value"] as? String, v.wholeMatch(of: /[0-9]+\.[0-9]{2}/) == nil {
            issues.append("\(path).value: money '\(v)' is not a decimal string")
        }
        return issues
    }

    static func jsonObjects(_ text: String, lines: Bool) throws -> [Any] {
        let chunks = lines ? text.split(separator: "\n").map(String.init) : [text]
        return try chunks.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }.map {
            try JSONSerialization.jsonObject(with: Data($0.utf8))
        }
    }

    @Test func everyCommandSpeaksTheDocumentedVocabulary() throws {
        let doc = try Self.readDoc()
        #expect(doc.commands.count >= 11)
        #expect(doc.objects.count >= 20)

        // A folder of two labelled samples and one broken file; a store read from it.
        let tmp = try TempDir()
        let images = tmp.path("images")
        try FileManager.default.createDirectory(atPath: images, withIntermediateDirectories: true)
        for name in ["us-hardware-01", "de-supermarkt-01"] {
            for ext in ["png", "json"] {
                try FileManager.default.copyItem(atPath: Repo.samples + "/\(name).\(ext)", toPath: images + "/\(name).\(ext)")
            }
        }
        let broken = tmp.path("broken.jpg")
        try "not an image".write(toFile: broken, atomically: true, encoding: .utf8)
        // The SROIE layout `eval --lines` reads: one sample, its first lines as the true text (their words and boxes as
        // its frozen reading has them), the vendor's line labelled as misspelt so that it is listed as read wrong.
        let lines = tmp.path("lines")
        for sub in ["img", "key", "box"] { try FileManager.default.createDirectory(atPath: lines + "/" + sub, withIntermediateDirectories: true) }
        try FileManager.default.copyItem(atPath: Repo.samples + "/us-hardware-01.png", toPath: lines + "/img/r1.png")
        try #"{"company": "Harbor Lane Hardvvare LLC", "date": "2024-03-04", "total": "51.41"}"#.write(toFile: lines + "/key/r1.json", atomically: true, encoding: .utf8)
        let recording = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Repo.path("Tests/Fixtures/ocr/us-hardware-01.json")))) as? [String: Any])
        let first = try #require((recording["first"] as? [String: Any])?["lines"] as? [[String: Any]])
        var box = ""
        for (i, line) in first.prefix(4).enumerated() {
            guard let b = line["box"] as? [String: Int], let x = b["x"], let y = b["y"], let w = b["width"], let h = b["height"] else { continue }
            let text = i == 0 ? "Harbor Lane Hardvvare LLC" : ((line["words"] as? [[String: Any]]) ?? []).compactMap { $0["text"] as? String }.joined(separator: " ")
            box += "\(x),\(y),\(x + w),\(y),\(x + w),\(y + h),\(x),\(y + h),\(text)\n"
        }
        try box.write(toFile: lines + "/box/r1.txt", atomically: true, encoding: .utf8)
        let store = tmp.path("s.sqlite")
        let jsonl = tmp.path("batch.jsonl")

        func run(_ args: [String], ok: Set<Int32> = [0]) -> String {
            let r = cli(args)
            #expect(ok.contains(r.code), "\(args): exit \(r.code): \(r.err)")
            return r.out
        }
        _ = run(["items", "import", "--store", store, Repo.samples + "/inventory.csv"])
        _ = run(["batch", "--store", store, "--quiet", "--jobs", "1", "--jsonl", jsonl, images, broken], ok: [3])
        let outputs: [String: () throws -> String] = [
            "receipts parse --json": { run(["parse", "--json", "--explain", "--text", images + "/us-hardware-01.png"]) },
            "receipts batch --jsonl FILE": { try String(contentsOfFile: jsonl, encoding: .utf8) },
            "receipts eval --json": { run(["eval", "--json", "--jobs", "1", images]) },
            "receipts eval --lines --json": { run(["eval", "--lines", "--json", "--jobs", "1", lines]) },
            "receipts eval --learn --json": { run(["eval", "--learn", "--json", "--jobs", "1", images]) },
            "receipts reconcile --json": { run(["reconcile", "--json", "--store", store]) },
            "receipts edit --json": {
                _ = run(["links", "confirm", "--store", store, "--by", "sam", "1"])
                return run(["edit", "--json", "--store", store, "--by", "sam", "1", "--total", "55.80", "--line", "Hammer=14.99", "--clear", "time"])
                    + run(["edit", "--json", "--store", store, "1", "--undo", "total"])
            },
            "receipts list --json": { run(["list", "--json", "--store", store]) },
            "receipts show --json": { run(["show", "--json", "--store", store, "1"]) + "\n" + run(["show", "--json", "--store", store, "2"]) },
            "receipts export --format json": { run(["export", "--format", "json", "--store", store]) },
            "receipts items list --json": { run(["items", "list", "--json", "--store", store]) },
            "receipts links list --json": { run(["links", "list", "--json", "--store", store]) },
            "receipts store info --json": { run(["store", "info", "--json", "--store", store]) },
            // Receipt 1's corrections (edit, above) taught its shop.
            "receipts shops list --json": { run(["shops", "list", "--json", "--store", store]) },
            "receipts shops show --json": { run(["shops", "show", "--json", "--store", store, "1"]) },
        ]
        #expect(Set(outputs.keys) == Set(doc.commands.keys), "the doc's commands and the ones this test runs differ")
        // In the order the store fills up: reconcile before edit, edit before show.
        let order = ["receipts parse --json", "receipts batch --jsonl FILE", "receipts eval --json", "receipts eval --lines --json", "receipts eval --learn --json", "receipts reconcile --json",
                     "receipts edit --json", "receipts list --json", "receipts show --json", "receipts export --format json",
                     "receipts shops list --json", "receipts shops show --json",
                     "receipts items list --json", "receipts links list --json", "receipts store info --json"]
        var seen: Set<String> = []
        for command in order {
            guard let make = outputs[command], let spec = doc.commands[command] else { Issue.record("\(command) missing"); continue }
            let text = try make()
            let objects = try Self.jsonObjects(text, lines: spec.lines || command == "receipts show --json")
            #expect(!objects.isEmpty, "\(command) printed nothing")
            for (i, o) in objects.enumerated() {
                let issues = Self.checkObject(o, name: spec.object, path: "\(command)#\(i + 1)", doc: doc)
                #expect(issues.isEmpty, "\(issues.joined(separator: "\n"))")
            }
            seen.formUnion(Self.keys(objects))
        }
        // The runs above exercise the vocabulary's less common corners too.
        for key in ["receipt_id", "item_id", "link_id", "correction_id", "line_item", "line", "error", "rejected", "parser", "corrected",
                    "readings", "failures", "item", "box", "quantity", "truth"] {
            #expect(seen.contains(key), "no command printed '\(key)': the test does not cover it")
        }
    }

    static func keys(_ values: [Any]) -> Set<String> {
        var out: Set<String> = []
        func walk(_ v: Any) {
            if let o = v as? [String: Any] { for (k, x) in o { out.insert(k); walk(x) } }
            if let l = v as? [Any] { l.forEach(walk) }
        }
        values.forEach(walk)
        return out
    }
}
