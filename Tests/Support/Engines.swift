import ReceiptModel
import ReceiptOCR

/// An engine that returns the pages it is given: tests the code around OCR without Tesseract.
/// Records every request (and the size of every image) so a test can check what was asked.
public final class ScriptedEngine: OCREngine {
    /// The page for each layout asked for (nil: the engine's default); a layout not listed reads as an empty page.
    public var pages: [PageLayout?: OCRPage]
    /// When set, answers every request that has a region (instead of `pages`).
    public var regionPage: ((BoundingBox) -> OCRPage)?
    /// What `uprightQuarterTurns` answers.
    public var turns = 0
    public private(set) var requests: [OCRRequest] = []
    /// Width × height of each image read, in order.
    public private(set) var imageSizes: [(width: Int, height: Int)] = []
    public private(set) var orientationChecks = 0
    public let identity: String

    public init(pages: [PageLayout?: OCRPage] = [:], identity: String = "scripted") {
        self.pages = pages; self.identity = identity
    }

    /// Recognitions asked for so far.
    public var calls: Int { requests.count }

    public func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
        requests.append(request)
        imageSizes.append((image.width, image.height))
        if let region = request.region, let regionPage { return regionPage(region) }
        var page = pages[request.layout] ?? OCRPage(lines: [])
        page.width = image.width
        page.height = image.height
        return page
    }

    public func uprightQuarterTurns(_ image: PageImage) throws -> Int {
        orientationChecks += 1
        return turns
    }

    /// A page from text, one line per text line, every word at `confidence`.
    public static func page(_ text: String, confidence: Double = 0.9) -> OCRPage {
        OCRPage(lines: text.split(separator: "\n").map { OCRLine(text: String($0), confidence: confidence) })
    }
}

/// An engine that fails the way a real one can: tests that the pipeline turns each failure
/// into the right result or error for that file.
public final class FailingEngine: OCREngine {
    public enum Failure: Sendable {
        /// Throws `OCRError.recognitionFailed` naming the image.
        case recognitionFailed
        /// Throws `OCRError.timedOut` naming the image, as the time limit does.
        case timeout(seconds: Double)
        /// Reads nothing: a page with no lines.
        case emptyPage
        /// Throws this error.
        case error(any Error & Sendable)
    }

    public let failure: Failure
    /// Recognitions that succeed (with `page`) before the failure starts: 1 fails only the second look.
    public let succeedFirst: Int
    public let page: OCRPage
    /// When set, `uprightQuarterTurns` fails the same way (else it answers 0).
    public let failOrientation: Bool
    public private(set) var calls = 0
    public let identity = "failing"

    public init(_ failure: Failure, succeedFirst: Int = 0, page: OCRPage = OCRPage(lines: []), failOrientation: Bool = false) {
        self.failure = failure; self.succeedFirst = succeedFirst; self.page = page; self.failOrientation = failOrientation
    }

    public func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
        calls += 1
        if calls <= succeedFirst { return page }
        try fail(image)
        return OCRPage(lines: [], width: image.width, height: image.height)
    }

    public func uprightQuarterTurns(_ image: PageImage) throws -> Int {
        if failOrientation { try fail(image) }
        return 0
    }

    private func fail(_ image: PageImage) throws {
        switch failure {
        case .recognitionFailed: throw OCRError.recognitionFailed(file: image.name)
        case .timeout(let s): throw OCRError.timedOut(file: image.name, seconds: s)
        case .emptyPage: return
        case .error(let e): throw e
        }
    }
}
