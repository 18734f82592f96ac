import Foundation
import Testing
import ReceiptModel
import ReceiptOCR
import ReceiptParser
import ReceiptPipeline
@testable import ReceiptsCLI

/// The real pipeline over SampleReceipts/: accuracy against the committed
/// baseline, and Tesseract's text against the frozen OCR fixtures.
@Suite("OCR regression on SampleReceipts", .serialized)
struct OCRRegressionTests {
    static let baseline = Repo.fixtures + "/sample-baseline.json"
    static let ocrDir = Repo.fixtures + "/ocr"
    /// `RECORD_OCR_FIXTURES=1 swift test --filter OCRRegression` re-records the frozen OCR on purpose.
    static let recording = ProcessInfo.processInfo.environment["RECORD_OCR_FIXTURES"] == "1"
    static let traineddata: String = (try? TesseractEngine().traineddataChecksum()) ?? "unavailable"

    @Test("per-field accuracy is at or above the committed baseline")
    func accuracyAtOrAboveBaseline() throws {
        let c = CapturingConsole()
        let code = CLI.run(["eval", "--json", "--baseline", Self.baseline, Repo.samples],
                           context: CommandContext(console: c.console))
        let report = try #require(try JSONSerialization.jsonObject(with: Data(c.stdout.utf8)) as? [String: Any], "eval printed: \(c.stdout) \(c.stderr)")
        let accuracy = report["accuracy"] as? [String: Double] ?? [:]
        #expect(code == 0, "below baseline: \(c.stderr)\naccuracy now: \(accuracy)")
        #expect(report["receipt_count"] as? Int == Repo.sampleImages.count)
        #expect(report["error_count"] as? Int == 0)
        // Where the time went and what the extra looks bought, as the text report's tables.
        let stages = report["stage_seconds"] as? [String: Double] ?? [:]
        #expect(Set(stages.keys) == ["decode", "normalise", "first_read", "orientation", "missed_rows", "row_re-reads", "second_look", "parse"])
        #expect((stages["first_read"] ?? 0) > 0)
        let looks = report["extra_looks"] as? [[String: Any]] ?? []
        #expect(looks.contains { $0["look"] as? String == "second look" && ($0["receipts"] as? Int ?? 0) >= 1 })
    }

    @Test("Tesseract reads each sample as the frozen fixture says", arguments: Repo.sampleImages)
    func ocrMatchesFrozenFixture(_ sample: SampleFile) throws {
        // Both looks are recorded for every sample, so a parser change that asks for
        // a second look more (or less) often still replays from the fixture.
        let engine = try TesseractEngine()
        var options = PipelineOptions()
        options.secondPass = false
        let result = try ReceiptPipeline(engine: engine, options: options).process(path: sample.path)
        let defaults = PipelineOptions()
        // A PDF's text layer is never OCR'd: its recording is the text layer, with no second look.
        let textLayer = result.reading.isTextLayer
        let second = textLayer ? nil : try engine.recognize((defaults.secondLookWithoutContrastNorm ? result.image.withoutContrastNormalization : result.image).pageImage,
                                                            request: OCRRequest(layout: defaults.secondLookLayout, alternatives: true))
        let live = OCRRecording(image: sample.name, tesseractVersion: TesseractEngine.version,
                                traineddata: Self.traineddata, first: result.reading.first,
                                second: second, secondReason: textLayer ? nil : "psm\(defaults.secondLookLayout.psm)")
        let path = Self.ocrDir + "/" + sample.base + ".json"
        if Self.recording {
            try FileManager.default.createDirectory(atPath: Self.ocrDir, withIntermediateDirectories: true)
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            try enc.encode(live).write(to: URL(fileURLWithPath: path))
            return
        }
        let data = try #require(FileManager.default.contents(atPath: path), "no frozen OCR for \(sample.name): record with RECORD_OCR_FIXTURES=1")
        let frozen = try JSONDecoder().decode(OCRRecording.self, from: data)
        guard frozen.tesseractVersion == live.tesseractVersion, frozen.traineddata == live.traineddata else {
            Issue.record("OCR engine changed (fixture: tesseract \(frozen.tesseractVersion), \(frozen.traineddata); now: \(live.tesseractVersion), \(live.traineddata)). Re-record with RECORD_OCR_FIXTURES=1 and review the accuracy change.")
            return
        }
        let drift = zip(frozen.first.lines.map(\.text), live.first.lines.map(\.text)).filter { $0 != $1 }
        #expect(frozen.first.lines.count == live.first.lines.count && drift.isEmpty,
                "OCR drift on \(sample.name): \(drift.prefix(3).map { "'\($0)' → '\($1)'" })")
        #expect(frozen.second?.text == live.second?.text, "second-pass OCR drift on \(sample.name)")
    }
}
