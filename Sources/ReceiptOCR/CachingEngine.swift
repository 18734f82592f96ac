import Foundation
import ReceiptIngest
import ReceiptModel

/// Keeps what another engine read, on disk, keyed by the pixels it was shown, the page
/// segmentation and the engine's identity. A parser change can then be measured on the whole
/// dev set in seconds (`receipts eval --ocr-cache DIR`); a change to image preparation changes
/// the pixels and so misses the cache by itself.
public final class CachingEngine: OCREngine {
    public let inner: OCREngine
    public let directory: URL
    public private(set) var hits = 0
    public private(set) var misses = 0

    public init(_ inner: OCREngine, directory: String) throws {
        self.inner = inner
        self.directory = URL(fileURLWithPath: directory, isDirectory: true)
        try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    }

    public var identity: String { inner.identity }

    public func recognize(_ image: IngestedImage, segmentation: PageSegmentation?) throws -> OCRPage {
        let file = entry(image, segmentation.map { "psm\($0.rawValue)" } ?? "default")
        if let data = try? Data(contentsOf: file), let page = try? JSONDecoder().decode(OCRPage.self, from: data) {
            hits += 1
            return page
        }
        misses += 1
        let page = try inner.recognize(image, segmentation: segmentation)
        try? write(JSONEncoder().encode(page), to: file)
        return page
    }

    public func uprightQuarterTurns(_ image: IngestedImage) throws -> Int {
        let file = entry(image, "osd")
        if let data = try? Data(contentsOf: file), let text = String(data: data, encoding: .utf8), let turns = Int(text) {
            hits += 1
            return turns
        }
        misses += 1
        let turns = try inner.uprightQuarterTurns(image)
        try? write(Data(String(turns).utf8), to: file)
        return turns
    }

    private func entry(_ image: IngestedImage, _ kind: String) -> URL {
        var h = SHA256()
        h.update(Data(inner.identity.utf8))
        h.update(Data(kind.utf8))
        return directory.appendingPathComponent(String(h.hexDigest().prefix(16)) + String(format: "%016llx", image.pixelHash) + ".\(kind).json")
    }

    /// Written to a temporary name and renamed, so parallel workers never read half a file.
    private func write(_ data: Data, to file: URL) throws {
        let tmp = file.appendingPathExtension("tmp-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try data.write(to: tmp)
        if rename(tmp.path, file.path) != 0 { try? FileManager.default.removeItem(at: tmp) }
    }
}
