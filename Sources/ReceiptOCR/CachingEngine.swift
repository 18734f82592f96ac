import Foundation
import ReceiptModel
import ReceiptSupport

/// Keeps what another engine read, on disk, keyed by the pixels it was shown, the whole request
/// (layout and region) and the engine's identity. A parser change can then be measured on the
/// whole dev set in seconds (`receipts eval --ocr-cache DIR`); a change to image preparation
/// changes the pixels and so misses the cache by itself.
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
    public var cacheKey: String { inner.cacheKey }
    /// The inner engine's key, read once: a checksum of the model is not free.
    private lazy var key = inner.cacheKey

    public func recognize(_ image: PageImage, request: OCRRequest) throws -> OCRPage {
        // "default" and "psm11" name the same entries as before regions existed, so older caches stay valid.
        let file = entry(image, String(request.cacheName.map { $0.isLetter || $0.isNumber ? $0 : "-" }))
        if let data = try? Data(contentsOf: file), let page = try? JSONDecoder().decode(OCRPage.self, from: data) {
            hits += 1
            return page
        }
        misses += 1
        let page = try inner.recognize(image, request: request)
        try? write(JSONEncoder().encode(page), to: file)
        return page
    }

    public func uprightQuarterTurns(_ image: PageImage) throws -> Int {
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

    private func entry(_ image: PageImage, _ kind: String) -> URL {
        var h = SHA256()
        h.update(Data(key.utf8))
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
