internal import CTesseract
import Foundation
import ReceiptSupport
import ReceiptModel

public struct OCROptions: Sendable, Hashable {
    /// The model(s) to read with, as Tesseract names language data: "receipt", the line model
    /// this project trains and ships (the default: Model/README.md), or a stock Tesseract
    /// language ("eng", "eng+deu").
    public var language: String = Tessdata.receiptModel
    /// The layout when a request names none: one uniform block (`--psm 6`) reads receipt
    /// dates and totals best (see docs/accuracy.md).
    public var layout: PageLayout = .singleBlock
    /// Directory holding `<language>.traineddata`; nil searches the usual places (`Tessdata.candidates`).
    public var tessdataDirectory: String? = nil
    /// Give up on one image after this many seconds (Tesseract's monitor deadline).
    public var timeLimit: Double = 60
    /// The resolution to tell Tesseract when the image does not say (receipt scans often do not).
    public var assumedDPI: Int = 300
    /// Keep the LSTM's other readings of each digit it reads (`OCRWord.alternatives`), for the
    /// parser's arithmetic to settle a misread digit with (Tesseract's `lstm_choice_mode` 2), on the
    /// reads that ask for them (`OCRRequest.alternatives`); false: never.
    public var digitAlternatives = true

    public init() {}
}

/// Finds Tesseract's language data: the receipt model that comes with receipts, and the stock
/// models (and `osd`, for orientation) that Tesseract's packages install.
public enum Tessdata {
    /// The name of the project's receipt line model (`receipt.traineddata`, see Model/README.md).
    public static let receiptModel = "receipt"

    /// Directories searched, in order: `TESSDATA_PREFIX` (itself, then its `tessdata/`); where
    /// `make install` puts the receipt model, `share/receipts` beside the binary's `bin/`; the
    /// source tree's `Model/` for a binary built in the tree (the first `Model` folder above
    /// the executable); then the standard install paths of Tesseract's own models.
    public static func candidates(environment: [String: String] = ProcessInfo.processInfo.environment,
                                  executable: String? = executablePath) -> [String] {
        var dirs: [String] = []
        if let prefix = environment["TESSDATA_PREFIX"], !prefix.isEmpty {
            dirs.append(prefix)
            dirs.append((prefix as NSString).appendingPathComponent("tessdata"))
        }
        if let exe = executable {
            let bin = (exe as NSString).deletingLastPathComponent
            dirs.append((((bin as NSString).deletingLastPathComponent as NSString).appendingPathComponent("share") as NSString)
                .appendingPathComponent("receipts"))
            var dir = bin
            for _ in 0..<8 where dir != "/" && !dir.isEmpty {
                let model = (dir as NSString).appendingPathComponent("Model")
                if FileManager.default.fileExists(atPath: (model as NSString).appendingPathComponent(receiptModel + ".traineddata")) {
                    dirs.append(model)
                    break
                }
                dir = (dir as NSString).deletingLastPathComponent
            }
        }
        dirs += ["/usr/share/tesseract-ocr/5/tessdata", "/usr/share/tesseract-ocr/4.00/tessdata",
                 "/usr/share/tessdata", "/usr/local/share/tessdata", "/opt/homebrew/share/tessdata"]
        return dirs
    }

    /// This process's executable, links resolved (Linux: /proc/self/exe), or nil.
    public static var executablePath: String? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments.first.map {
            URL(fileURLWithPath: $0).resolvingSymlinksInPath().path
        }
    }

    /// The first directory holding every language of `language` ("eng+deu").
    public static func locate(language: String, explicit: String? = nil,
                              environment: [String: String] = ProcessInfo.processInfo.environment) throws(OCRError) -> String {
        let dirs = explicit.map { [$0] } ?? candidates(environment: environment)
        let langs = language.split(separator: "+").map(String.init)
        for dir in dirs where langs.allSatisfy({ FileManager.default.isReadableFile(atPath: "\(dir)/\($0).traineddata") }) {
            return dir
        }
        throw .missingLanguageData(language: language, searched: dirs)
    }
}

/// One Tesseract engine: owns a `TessBaseAPI` (and, lazily, a second one for
/// orientation detection). Not thread-safe: give each worker its own.
public final class TesseractEngine: OCREngine {
    private let api: OpaquePointer
    private var osdAPI: OpaquePointer?
    private let options: OCROptions
    public let tessdataDirectory: String
    public let identity: String

    /// The Tesseract library version, e.g. "5.3.0".
    public static var version: String { String(cString: TessVersion()) }

    /// The language data in use with its size and checksum (FNV-1a 64), to tell when OCR output may drift.
    public func traineddataChecksum() -> String {
        options.language.split(separator: "+").map { lang in
            let path = "\(tessdataDirectory)/\(lang).traineddata"
            guard let data = FileManager.default.contents(atPath: path) else { return "\(lang) unreadable" }
            var h = FNV1a64()
            data.withUnsafeBytes { h.add(bytes: $0) }
            return "\(lang) \(data.count) bytes fnv1a64:\(String(h.value, radix: 16))"
        }.joined(separator: ", ")
    }

    public init(options: OCROptions = OCROptions()) throws(OCRError) {
        Self.limitOpenMP()
        self.options = options
        let dir = try Tessdata.locate(language: options.language, explicit: options.tessdataDirectory)
        tessdataDirectory = dir
        guard let api = TessBaseAPICreate() else { throw .initFailed(language: options.language, directory: dir) }
        guard Self.initialise(api, directory: dir, language: options.language) else {
            TessBaseAPIDelete(api)
            throw .initFailed(language: options.language, directory: dir)
        }
        self.api = api
        identity = "tesseract \(Self.version) \(options.language) psm\(options.layout.psm)"
    }

    /// What the OCR cache keys readings by: the identity, the model file's checksum (a retrained
    /// model of the same name reads otherwise) and whether digit alternatives are kept.
    public var cacheKey: String {
        identity + " " + traineddataChecksum() + (options.digitAlternatives ? " alternatives on request" : "")
    }

    deinit {
        TessBaseAPIEnd(api)
        TessBaseAPIDelete(api)
        if let osdAPI { TessBaseAPIEnd(osdAPI); TessBaseAPIDelete(osdAPI) }
    }

    /// OpenMP inside Tesseract makes parallel batches 4–5× slower; one thread per engine.
    /// (The runtime reads this when it starts, so `receipts` also sets it before launch: see `ProcessSetup`.)
    static func limitOpenMP() { setenv("OMP_THREAD_LIMIT", "1", 0) }

    /// Init with Tesseract's own chatter ("Estimating resolution as …") sent to /dev/null.
    private static func initialise(_ api: OpaquePointer, directory: String, language: String) -> Bool {
        let names = ["debug_file"], values = ["/dev/null"]
        var cNames = names.map { strdup($0) }, cValues = values.map { strdup($0) }
        defer { (cNames + cValues).forEach { free($0) } }
        let rc = cNames.withUnsafeMutableBufferPointer { n in
            cValues.withUnsafeMutableBufferPointer { v in
                TessBaseAPIInit4(api, directory, language, OEM_DEFAULT, nil, 0, n.baseAddress, v.baseAddress, names.count, 0)
            }
        }
        return rc == 0
    }

    public func recognize(_ image: PageImage, request: OCRRequest = .page) throws -> OCRPage {
        if let r = request.region {
            // A region is read as an image of its own: Tesseract's SetRectangle on the whole page
            // read lines as garbage ("Date : 09/01/2019" as "RSs ii ia Rea") that the same pixels
            // cropped read right. Boxes come back in page coordinates.
            guard let inside = r.clamped(toWidth: image.width, height: image.height),
                  let crop = image.cropped(to: inside) else { return OCRPage(lines: [], width: image.width, height: image.height) }
            let read = try recognize(crop, request: OCRRequest(layout: request.layout ?? options.layout, alternatives: request.alternatives))
            return OCRPage(lines: read.lines.map { $0.moved(dx: inside.x, dy: inside.y) }, width: image.width, height: image.height)
        }
        let layout = request.layout ?? options.layout
        let alternatives = options.digitAlternatives && request.alternatives
        _ = TessBaseAPISetVariable(api, "lstm_choice_mode", alternatives ? "2" : "0")
        TessBaseAPISetPageSegMode(api, TessPageSegMode(UInt32(layout.psm)))
        Self.setImage(api, image)
        TessBaseAPISetSourceResolution(api, Int32(options.assumedDPI))
        defer { TessBaseAPIClear(api) }

        guard let monitor = TessMonitorCreate() else { throw OCRError.recognitionFailed(file: image.name) }
        defer { TessMonitorDelete(monitor) }
        let limitMs = Int32(max(1, min(Double(Int32.max), options.timeLimit * 1000)))
        TessMonitorSetDeadlineMSecs(monitor, limitMs)
        let start = Date()
        let rc = TessBaseAPIRecognize(api, monitor)
        if Date().timeIntervalSince(start) >= options.timeLimit {
            throw OCRError.timedOut(file: image.name, seconds: options.timeLimit)
        }
        guard rc == 0 else { throw OCRError.recognitionFailed(file: image.name) }
        return readPage(width: image.width, height: image.height, alternatives: alternatives)
    }

    /// Hands Tesseract the pixels; it copies them before returning. The resolution the file
    /// declared goes on Tesseract's copy, where its orientation detection reads it (see shim.h).
    private static func setImage(_ api: OpaquePointer, _ image: PageImage) {
        image.pixels.withUnsafeBufferPointer { p in
            TessBaseAPISetImage(api, p.baseAddress, Int32(image.width), Int32(image.height),
                                Int32(image.bytesPerPixel), Int32(image.bytesPerRow))
        }
        if image.resolution != (0, 0), let copy = TessBaseAPIGetInputImage(api) {
            _ = pixSetResolution(copy, Int32(image.resolution.x), Int32(image.resolution.y))
        }
    }

    private func readPage(width: Int, height: Int, alternatives withAlternatives: Bool) -> OCRPage {
        var lines: [OCRLine] = []
        guard let it = TessBaseAPIGetIterator(api) else { return OCRPage(lines: [], width: width, height: height) }
        defer { TessResultIteratorDelete(it) }
        let pageIt = TessResultIteratorGetPageIterator(it)
        var words: [OCRWord] = []
        repeat {
            if TessPageIteratorIsAtBeginningOf(pageIt, RIL_TEXTLINE) != 0, !words.isEmpty {
                lines.append(OCRLine(words: words))
                words = []
            }
            guard let cText = TessResultIteratorGetUTF8Text(it, RIL_WORD) else { continue }
            let text = String(cString: cText)
            TessDeleteText(cText)
            if text.isEmpty { continue }
            var l: Int32 = 0, t: Int32 = 0, r: Int32 = 0, b: Int32 = 0
            let box: BoundingBox? = TessPageIteratorBoundingBox(pageIt, RIL_WORD, &l, &t, &r, &b) != 0
                ? BoundingBox(x: Int(l), y: Int(t), width: Int(r - l), height: Int(b - t)) : nil
            let conf = Double(TessResultIteratorConfidence(it, RIL_WORD)) / 100
            let alternatives = withAlternatives && text.contains(where: \.isNumber) ? Self.digitAlternatives(it) : nil
            words.append(OCRWord(text: text, box: box, confidence: max(0, min(1, conf)), alternatives: alternatives))
        } while TessResultIteratorNext(it, RIL_WORD) != 0
        if !words.isEmpty { lines.append(OCRLine(words: words)) }
        return OCRPage(lines: lines, width: width, height: height)
    }

    /// Below this confidence (Tesseract's 0...100) a choice is noise: the LSTM lists up to six
    /// characters for every position, most at 0.
    static let alternativeFloor: Float = 20

    /// The word at `it`: for each character read as a digit, the other characters the LSTM weighed
    /// there with some confidence, best first; empty when it weighed none (nil only on failure).
    private static func digitAlternatives(_ it: OpaquePointer) -> [OCRAlternative]? {
        guard let sym = TessResultIteratorCopy(it) else { return nil }
        defer { TessResultIteratorDelete(sym) }
        let page = TessResultIteratorGetPageIterator(sym)
        var out: [OCRAlternative] = []
        var at = 0
        while true {
            if let cText = TessResultIteratorGetUTF8Text(sym, RIL_SYMBOL) {
                let best = String(cString: cText)
                TessDeleteText(cText)
                if best.count == 1, best.first!.isNumber, let choices = TessResultIteratorGetChoiceIterator(sym) {
                    var others: [(Character, Float)] = []
                    repeat {
                        guard let t = TessChoiceIteratorGetUTF8Text(choices) else { continue }
                        let c = String(cString: t), conf = TessChoiceIteratorConfidence(choices)
                        if c.count == 1, c != best, conf >= alternativeFloor, !others.contains(where: { $0.0 == c.first! }) { others.append((c.first!, conf)) }
                    } while TessChoiceIteratorNext(choices) != 0
                    TessChoiceIteratorDelete(choices)
                    if !others.isEmpty {
                        others.sort { $0.1 > $1.1 }
                        out.append(OCRAlternative(at: at, characters: String(others.map(\.0)), confidence: Double(others[0].1) / 100))
                    }
                }
                at += best.count
            }
            if TessPageIteratorIsAtFinalElement(page, RIL_WORD, RIL_SYMBOL) != 0 || TessResultIteratorNext(sym, RIL_SYMBOL) == 0 { break }
        }
        return out
    }

    /// Orientation from Tesseract's OSD model (`osd.traineddata`), loaded on first use.
    /// Returns 0 when OSD is unavailable or not confident.
    public func uprightQuarterTurns(_ image: PageImage) throws -> Int {
        if osdAPI == nil {
            // Tesseract's orientation model, wherever Tesseract's own models are (the receipt model's folder has none).
            let dir = FileManager.default.isReadableFile(atPath: "\(tessdataDirectory)/osd.traineddata")
                ? tessdataDirectory : try? Tessdata.locate(language: "osd")
            guard let dir, let osd = TessBaseAPICreate() else { return 0 }
            guard Self.initialise(osd, directory: dir, language: "osd") else {
                TessBaseAPIDelete(osd)
                return 0
            }
            osdAPI = osd
        }
        guard let osd = osdAPI else { return 0 }
        TessBaseAPISetPageSegMode(osd, PSM_OSD_ONLY)
        var degrees: Int32 = 0
        var confidence: Float = 0, scriptConfidence: Float = 0
        var script: UnsafePointer<CChar>?
        Self.setImage(osd, image)
        TessBaseAPISetSourceResolution(osd, Int32(options.assumedDPI))
        let found = TessBaseAPIDetectOrientationScript(osd, &degrees, &confidence, &script, &scriptConfidence) != 0
        TessBaseAPIClear(osd)
        guard found else { return 0 }
        // Tesseract reports the text's orientation (counter-clockwise); turning clockwise by the rest of the circle undoes it.
        guard confidence >= Self.minimumOrientationConfidence else { return 0 }
        return ((360 - Int(degrees)) % 360) / 90
    }

    /// Below this OSD confidence a rotation is not applied (false turns are costly on upright scans).
    public static let minimumOrientationConfidence: Float = 2.0
}
