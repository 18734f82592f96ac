/// A frozen OCR reading of one image: the pages the parser saw, with the engine
/// that produced them. Committed beside the sample receipts so parser tests are
/// exact and fast, and so OCR drift (a new Tesseract or traineddata) shows up as
/// its own failure rather than as a parser regression.
public struct OCRRecording: Sendable, Hashable, Codable {
    public var image: String
    /// e.g. "5.3.0"
    public var tesseractVersion: String
    /// Language data and its checksum, e.g. "eng 4113088 bytes fnv1a64:…".
    public var traineddata: String
    /// The page the parser read first (after any orientation fix).
    public var first: OCRPage
    /// The second look, when the first failed its checks.
    public var second: OCRPage?
    public var secondReason: String?

    public init(image: String, tesseractVersion: String, traineddata: String, first: OCRPage, second: OCRPage?, secondReason: String?) {
        self.image = image; self.tesseractVersion = tesseractVersion; self.traineddata = traineddata
        self.first = first; self.second = second; self.secondReason = secondReason
    }

    enum CodingKeys: String, CodingKey {
        case image, tesseractVersion = "tesseract_version", traineddata, first, second, secondReason = "second_reason"
    }
}
