import Foundation
import Testing
import ReceiptModel
import ReceiptEval
import ReceiptParser

/// The parser on the frozen OCR of every sample receipt: exact and fast (no Tesseract).
/// The pipeline's second-look decision is replayed from the recording.
@Suite("Parser on frozen OCR of SampleReceipts")
struct FrozenOCRTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let ocrDir = root.appendingPathComponent("Tests/Fixtures/ocr").path
    static let samples = root.appendingPathComponent("SampleReceipts").path

    struct Sample: CustomTestStringConvertible, Sendable {
        let name: String
        var testDescription: String { name }
        var recording: OCRRecording? {
            FileManager.default.contents(atPath: FrozenOCRTests.ocrDir + "/" + name + ".json")
                .flatMap { try? JSONDecoder().decode(OCRRecording.self, from: $0) }
        }
        var label: [String: Any] {
            FileManager.default.contents(atPath: FrozenOCRTests.samples + "/" + name + ".json")
                .flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] } ?? [:]
        }
        var synthetic: Bool { label["source"] as? String == "synthetic" }
    }

    static var all: [Sample] {
        ((try? FileManager.default.contentsOfDirectory(atPath: ocrDir)) ?? [])
            .filter { $0.hasSuffix(".json") }.sorted().map { Sample(name: String($0.dropLast(5))) }
    }

    static func replay(_ r: OCRRecording) -> ParsedReceipt {
        ReceiptParser().parseWithSecondLook(r.first) { _ in r.second }.receipt
    }

    @Test func everySampleHasAFrozenReading() throws {
        let images = try FileManager.default.contentsOfDirectory(atPath: Self.samples)
            .filter { ["png", "jpg", "heic", "pdf"].contains(($0 as NSString).pathExtension) }
        #expect(Self.all.count == images.count)
    }

    /// The clean renders of other countries' receipts (US, European, Canadian): date and total must be
    /// right on every one. (The Malaysian-style scans and photos are degraded on purpose; their misses
    /// are counted against the baseline below.)
    @Test("clean synthetic receipts: date and total exact", arguments: all.filter { $0.synthetic && $0.label["locale"] as? String != "en_MY" })
    func syntheticDateAndTotal(_ s: Sample) throws {
        let rec = try #require(s.recording)
        let got = Self.replay(rec)
        #expect(got.date?.value.iso == s.label["date"] as? String, "date: \(got.date?.evidence.text ?? "none")")
        #expect(got.total?.value.description == s.label["total"] as? String, "total: \(got.total?.evidence.text ?? "none")")
    }

    /// The end-to-end baseline's figures, without running OCR. The replay has both looks but not the
    /// pipeline's re-reads of single rows (a faded shop name read again alone, say), so it may fall short
    /// of the baseline by one receipt (one line item for the item measures), no more.
    @Test func accuracyOnFrozenOCRMatchesBaseline() throws {
        let baselinePath = Self.root.appendingPathComponent("Tests/Fixtures/sample-baseline.json").path
        let baseline = try JSONDecoder().decode([String: Double].self, from: try #require(FileManager.default.contents(atPath: baselinePath)))
        let labelled = Dictionary(uniqueKeysWithValues: try LabelledReceipt.load(Self.samples).map { ($0.id, $0) })
        let scored = try Self.all.map { s in
            Scored(try #require(labelled[s.name]), got: Self.replay(try #require(s.recording)))
        }
        #expect(scored.count == labelled.count)
        let summary = Summary(scored)
        for (key, want) in baseline {
            let row = try #require(ScoreRow.allCases.first { $0.key == key }, "\(key): no such row")
            let n = summary.labelled[row] ?? 0, right = summary.right[row] ?? 0
            // In counts, not rounded percentages: the baseline's count is its percentage of what is labelled.
            let wantCount = Int((want * Double(n) / 100).rounded())
            #expect(right + 1 >= wantCount, "\(key): \(summary.accuracy(row) ?? 0) % on frozen OCR, more than one below the baseline \(want) %")
        }
    }
}
