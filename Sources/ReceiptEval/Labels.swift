import Foundation
import ReceiptIngest
import ReceiptModel

/// Something wrong with what an evaluation was given (a folder, a label, a baseline), or with
/// writing what it made. Front ends map `kind` to their exit codes.
public struct EvalError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable {
        /// The request itself is wrong (not a folder, a bad baseline file, no true lines for `--lines`).
        case usage
        /// A file could not be read or written.
        case input
    }

    public var kind: Kind
    public var message: String
    public init(_ kind: Kind, _ message: String) { self.kind = kind; self.message = message }
    public var description: String { message }
}

/// The fields an evaluation scores: vendor, date and total on every labelled receipt; subtotal, tax,
/// time and the line items where the label gives them (wild-dev's keys, our sidecars), scored as
/// `../shared/tools/extras.py` scores them (`ExtrasScorer`).
public enum EvalField: String, Sendable, CaseIterable, Codable {
    case vendor, date, total, subtotal, tax, time
    /// The labelled item prices found among the line items' amounts (each amount used once).
    case itemPrices = "item_prices"
    /// The labelled item names with a line item at least 0.8 alike (`ExtrasScorer.likeness`).
    case itemNames = "item_names"

    /// The three of the "all three" row.
    public static let headline: [EvalField] = [.vendor, .date, .total]

    /// Scored item by item (a receipt has several), not once a receipt.
    public var isItemMeasure: Bool { self == .itemPrices || self == .itemNames }

    /// As tables show it.
    public var label: String {
        switch self {
        case .itemPrices: "item prices"
        case .itemNames: "item names"
        default: rawValue
        }
    }
}

/// One labelled receipt: an image and what it should read as.
public struct LabelledReceipt: Sendable {
    public var id: String
    public var image: String
    public var vendor: String?
    /// Any of these days is right: one, or both readings of an ambiguous all-digit label with `--either-order`.
    public var dates: [CalendarDate] = []
    /// Any of these is right (SROIE keys may list several, joined by " | ").
    public var totals: [Amount]
    /// The true text lines with their boxes, when the data set has them (SROIE `box/`).
    public var truthPage: OCRPage?
    /// Subtotal, tax, time and line items, where the label gives them.
    public var extras = ExtraLabels()

    public init(id: String, image: String, vendor: String? = nil, dates: [CalendarDate] = [], totals: [Amount] = [], truthPage: OCRPage? = nil) {
        self.id = id; self.image = image; self.vendor = vendor; self.dates = dates; self.totals = totals; self.truthPage = truthPage
    }

    /// A folder in SROIE layout (`img/`, `key/`, `box/`) or images with `.json` sidecars beside them,
    /// in file-name order.
    public static func load(_ dir: String, scoring: Scoring = Scoring()) throws(EvalError) -> [LabelledReceipt] {
        let fm = FileManager.default
        var isDir: ObjCBool = false
        guard fm.fileExists(atPath: dir, isDirectory: &isDir), isDir.boolValue else {
            throw EvalError(.usage, "\(dir): not a folder")
        }
        let imgDir = (dir as NSString).appendingPathComponent("img"), keyDir = (dir as NSString).appendingPathComponent("key")
        let boxDir = (dir as NSString).appendingPathComponent("box")
        // A set of true text alone (`box/` and `key/`, no `img/`: SampleReceipts/text) is read as SROIE's, each
        // receipt named by its box file, which stands as its image (only `--truth-text` and the parser bench read it).
        let textOnly = !fm.fileExists(atPath: imgDir) && fm.fileExists(atPath: keyDir) && fm.fileExists(atPath: boxDir)
        let sroie = textOnly || fm.fileExists(atPath: imgDir) && fm.fileExists(atPath: keyDir)
        let folder = textOnly ? boxDir : sroie ? imgDir : dir
        let images = ((try? fm.contentsOfDirectory(atPath: folder)) ?? [])
            .filter { textOnly ? $0.hasSuffix(".txt") : ImageDecoders.standard.fileExtensions.contains(($0 as NSString).pathExtension.lowercased()) }.sorted()
        var out: [LabelledReceipt] = []
        for name in images {
            let id = (name as NSString).deletingPathExtension
            let image = (folder as NSString).appendingPathComponent(name)
            let labelPath = sroie ? (keyDir as NSString).appendingPathComponent(id + ".json") : (dir as NSString).appendingPathComponent(id + ".json")
            guard let data = fm.contents(atPath: labelPath) else { continue }
            guard let obj = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
                throw EvalError(.input, "\(labelPath): not a JSON object")
            }
            var r = LabelledReceipt(id: id, image: image)
            r.vendor = (obj["vendor"] as? String) ?? (obj["company"] as? String)
            if let d = obj["date"] as? String { r.dates = scoring.dates(d) }
            if let t = obj["total"] as? String {
                r.totals = t.components(separatedBy: " | ").compactMap(LabelValue.amount)
            } else if let t = obj["total"] as? NSNumber {
                r.totals = Amount(t.stringValue).map { [$0] } ?? []
            }
            r.extras = ExtraLabels(obj)
            if sroie {
                let box = ((dir as NSString).appendingPathComponent("box") as NSString).appendingPathComponent(id + ".txt")
                if let text = try? String(contentsOfFile: box, encoding: .utf8) { r.truthPage = truthPage(text) }
            }
            out.append(r)
        }
        return out
    }

    /// SROIE box lines are `x1,y1,…,x4,y4,text`: the text with its bounding box, in file order.
    public static func truthPage(_ s: String) -> OCRPage {
        OCRPage(lines: s.split(whereSeparator: \.isNewline).compactMap { line in
            let parts = line.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false)
            guard parts.count == 9 else { return line.isEmpty ? nil : OCRLine(text: String(line)) }
            let n = parts.prefix(8).compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard n.count == 8 else { return OCRLine(text: String(parts[8])) }
            let xs = [n[0], n[2], n[4], n[6]], ys = [n[1], n[3], n[5], n[7]]
            let box = BoundingBox(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            return OCRLine(text: String(parts[8]), box: box)
        }.filter { !$0.words.isEmpty })
    }
}

/// How labels are compared, as `score.py`'s flags of the same names do.
public struct Scoring: Sendable {
    /// Vendors compared without spaces (the photo set's labels glue words: "KOREANRESTAURANT").
    public var spaceless = false
    /// An ambiguous all-digit label date (03/04/2018) is month-first.
    public var monthFirst = false
    /// An ambiguous all-digit label date accepts either reading.
    public var eitherOrder = false

    public init(spaceless: Bool = false, monthFirst: Bool = false, eitherOrder: Bool = false) {
        self.spaceless = spaceless; self.monthFirst = monthFirst; self.eitherOrder = eitherOrder
    }

    public func dates(_ label: String) -> [CalendarDate] {
        guard let d = LabelValue.date(label, monthFirst: monthFirst) else { return [] }
        guard eitherOrder, let other = LabelValue.date(label, monthFirst: !monthFirst), other != d else { return [d] }
        return [d, other]
    }

    public func vendor(_ s: String) -> String {
        let v = LabelValue.vendor(s)
        return spaceless ? v.replacingOccurrences(of: " ", with: "") : v
    }
}
