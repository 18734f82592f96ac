import Foundation
import ReceiptIngest
import ReceiptInventory
import ReceiptModel
import ReceiptParser
import ReceiptHostileInputs

/// The fuzz targets: one input's bytes through one entry point that takes outside data. A target
/// returns normally for any input (a refusal is a thrown error, caught here); anything else (a
/// crash, a sanitizer report, a hang) is a defect.
enum FuzzTarget: String, CaseIterable, Sendable {
    /// Image bytes -> the ingest stage (every decoder, then normalisation), as `parse` and `batch` read a file.
    case image
    /// Text, or an OCR page as JSON (boxes and all), -> the parser.
    case parser
    /// An inventory file (CSV, Homebox CSV, Nestory JSON) -> the importer's parse.
    case inventory
    /// A `--rules` file -> the rules loader, then a parse with those rules.
    case rules
    /// A `--vendors` file -> the vendors loader, then a parse that matches them.
    case vendors

    /// Smaller than the default limits so one input stays quick; the checks are the same code.
    static let ingestOptions: IngestOptions = {
        var o = IngestOptions()
        o.maxPixels = 4_000_000
        return o
    }()

    /// Made once: compiling the rules is the parser's fixed cost, not what is fuzzed here.
    static let sharedParser = ReceiptParser()

    static let sampleText = "Brightwave Electronics Inc\n12 Main St\n03/04/2024 14:32\nMILK 2.50\nSUBTOTAL 2.50\nTAX 0.20\nTOTAL $2.70\nVISA ****1234"

    func run(_ data: Data) {
        switch self {
        case .image:
            _ = try? Ingest.load(data: data, name: "fuzz", options: Self.ingestOptions)
        case .parser:
            let parser = Self.sharedParser
            if data.first == UInt8(ascii: "{"), let page = try? JSONDecoder().decode(OCRPage.self, from: data) {
                _ = parser.parse(page)
            } else if data.first == UInt8(ascii: "{"), let rec = try? JSONDecoder().decode(OCRRecording.self, from: data) {
                _ = parser.parse(rec.first)
            } else {
                _ = parser.parse(text: String(decoding: data, as: UTF8.self))
            }
        case .inventory:
            for format in [nil] + InventoryFormat.allCases.map(Optional.some) {
                _ = try? InventoryImporter.parse(data: data, fileName: "fuzz", format: format)
            }
        case .rules:
            guard let rules = try? ParserRules.builtIn(extendedWith: data, file: "fuzz.json") else { return }
            var o = ParserOptions()
            o.rules = rules
            _ = ReceiptParser(options: o).parse(text: Self.sampleText)
        case .vendors:
            var o = ParserOptions()
            o.knownVendors = KnownVendor.list(fromText: String(decoding: data, as: UTF8.self))
            _ = ReceiptParser(options: o).parse(text: Self.sampleText)
        }
    }

    /// The seed inputs: real files from the repository, and for images every structured hostile variant of them.
    func seeds(repo: URL) -> [(name: String, data: Data)] {
        func files(_ dir: String, _ keep: (String) -> Bool) -> [(String, Data)] {
            let url = repo.appendingPathComponent(dir)
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).filter(keep).sorted()
            return names.compactMap { n in (try? Data(contentsOf: url.appendingPathComponent(n))).map { (n, $0) } }
        }
        switch self {
        case .image:
            let originals = files("Tests/Fixtures/formats") { _ in true }
            return originals + originals.flatMap { name, data in
                HostileImages.variants(of: data).map { v in ("\(name) \(v.name)", v.data) }
            }
        case .parser:
            let frozen = files("Tests/Fixtures/ocr") { $0.hasSuffix(".json") }
            let texts = frozen.compactMap { name, data -> (String, Data)? in
                guard let rec = try? JSONDecoder().decode(OCRRecording.self, from: data) else { return nil }
                return (name + ".txt", Data(rec.first.text.utf8))
            }
            let pages = frozen.compactMap { name, data -> (String, Data)? in
                guard let rec = try? JSONDecoder().decode(OCRRecording.self, from: data), let page = try? JSONEncoder().encode(rec.first) else { return nil }
                return (name + ".page.json", page)
            }
            return texts + pages.prefix(6)
        case .inventory:
            // With what fuzzing found before (Tests/Fixtures/fuzz/inventory-*), so every run tries it again.
            return files("SampleReceipts") { $0.hasSuffix(".csv") || $0.hasPrefix("nestory") } + files("Tests/Fixtures/fuzz") { $0.hasPrefix("inventory-") }
        case .rules:
            let sample = #"{"total": {"keywords": {"gesamtbetrag": 1.0}}, "date": {"months": {"januar": 1}}, "vendor": {"legal_forms": ["oy"]}}"#
            return [("builtin.json", Data(ParserRules.builtInJSON.utf8)), ("extra.json", Data(sample.utf8))]
        case .vendors:
            return [("vendors.txt", Data("Brightwave Electronics | Brightwave | BW Elec\n# comment\nHarbor Lane Hardware | Harbor Lane\n".utf8))]
        }
    }
}
