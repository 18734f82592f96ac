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
    /// of the baseline by one receipt, no more.
    @Test func accuracyOnFrozenOCRMatchesBaseline() throws {
        let baselinePath = Self.root.appendingPathComponent("Tests/Fixtures/sample-baseline.json").path
        let baseline = try JSONDecoder().decode([String: Double].self, from: try #require(FileManager.default.contents(atPath: baselinePath)))
        var right = ["vendor": 0, "date": 0, "total": 0, "all": 0]
        let samples = Self.all
        for s in samples {
            let got = Self.replay(try #require(s.recording))
            let l = s.label
            let v = (l["vendor"] as? String).map { LabelValue.vendor($0) == got.vendor.map { LabelValue.vendor($0.value) } } ?? true
            let d = (l["date"] as? String).map { LabelValue.date($0) == got.date?.value } ?? true
            let t = (l["total"] as? String).map { LabelValue.amount($0)?.cents == got.total?.value.cents } ?? true
            right["vendor"]! += v ? 1 : 0; right["date"]! += d ? 1 : 0; right["total"]! += t ? 1 : 0
            right["all"]! += v && d && t ? 1 : 0
        }
        for (field, want) in baseline {
            let got = (1000 * Double(right[field] ?? 0) / Double(samples.count)).rounded() / 10
            // In receipts, not rounded percentages: the baseline's count is its percentage of these samples.
            let wantCount = Int((want * Double(samples.count) / 100).rounded())
            #expect((right[field] ?? 0) + 1 >= wantCount, "\(field): \(got) % on frozen OCR, more than one receipt below the baseline \(want) %")
        }
    }
}
