import Foundation
import ReceiptModel
import ReceiptParser
import ReceiptStore

/// Reading receipts with what the user's corrections taught, and working out what a correction
/// teaches: the one use case of the shop directory, for every front end (batch, parse --store,
/// --reparse, eval --learn) and for the store (`ShopTeacher`).
///
///     let learning = ShopLearning(shops: try store.shops())
///     let learned = learning.read(result.receipt, reading: result.reading, page: result.page)
///     try store.saveReceipt(StoredReceiptInput(…, parsed: result.receipt, learned: learned, …))
///     try store.correct(id, [try .set(.vendor, "Hollins")], by: "sam", teacher: learning.teacher)
public struct ShopLearning: Sendable {
    public let directory: ShopDirectory
    /// The parser that reads rows for habits (its rules and date order).
    public let parser: ReceiptParser

    /// Confidence of a value a habit found.
    public static let habitConfidence = 0.9

    public init(shops: [StoredShop], parser: ReceiptParser = ReceiptParser()) {
        self.init(directory: ShopDirectory(shops), parser: parser)
    }

    public init(directory: ShopDirectory, parser: ReceiptParser = ReceiptParser()) {
        self.directory = directory
        self.parser = parser
    }

    /// What the shops the user taught set on a receipt the parser read: the shop's name as its
    /// vendor, and the total and date from the lines the shop's habits point at. `reading` is what
    /// OCR read (its first page is fingerprinted), `page` the page the parser took its fields from.
    /// Nil when no shop matches.
    public func read(_ receipt: ParsedReceipt, reading: OCRReading, page: OCRPage) -> LearnedFields? {
        guard !directory.isEmpty, let match = directory.match(Fingerprint.of(reading.first), name: receipt.vendor?.value) else { return nil }
        var out = LearnedFields(shop: match.shop.rawValue)
        out.vendor = Self.replacing(receipt.vendor, with: match.name, confidence: match.confidence,
                                    evidence: Evidence(line: receipt.vendor?.evidence.line, text: receipt.vendor?.evidence.text, box: receipt.vendor?.evidence.box,
                                                       rule: "vendor.shop", notes: [.matchedShop(match.note)]))
        guard !match.habits.isEmpty || !match.years.isEmpty else { return out }
        let rows = parser.rows(page)
        // A habit does not overrule what the receipt itself backs: a total its arithmetic gives, a date on a date line.
        // A habit that finds the parser's own value changes nothing: the value did not come from the shop.
        if !Self.backed(receipt.total), let (row, value, habit) = Self.apply(match.habits, .total, rows, values: \.amounts), value != receipt.total?.value {
            out.total = Self.replacing(receipt.total, with: value, confidence: Self.habitConfidence,
                                       evidence: row.evidence(rule: "total.learned", notes: [.learnedHabit(habit)]))
        }
        if !Self.backed(receipt.date), let (row, value, habit) = Self.apply(match.habits, .date, rows, values: \.dates), value != receipt.date?.value {
            out.date = Self.replacing(receipt.date, with: value, confidence: Self.habitConfidence,
                                      evidence: row.evidence(rule: "date.learned", notes: [.learnedHabit(habit)]))
        }
        if let date = Self.year(out.date ?? receipt.date, rows: rows, years: match.years) { out.date = date }
        return out
    }

    /// Confidence of a date whose year was taken from the shop's confirmed receipts.
    public static let yearConfidence = 0.8
    /// A year read this far from every year of the shop's confirmed receipts is taken for a slip.
    public static let yearsApart = 3

    /// The date with its year taken from the shop's receipts the user confirmed, when OCR misread
    /// it: the date read is `yearsApart` years or more from every year of theirs, and one year of
    /// theirs is one digit from it (a slip OCR often makes, 3→8; any digit when the year read cannot
    /// be, in the future). With no date read, a date the parser dropped as impossible ("12/03/2418")
    /// is taken the same way.
    static func year(_ date: Field<CalendarDate>?, rows: [ReadRow], years: [Int: (count: Int, latest: ReceiptID)]) -> Field<CalendarDate>? {
        guard !years.isEmpty else { return nil }
        func taken(_ d: CalendarDate, impossible: Bool) -> (CalendarDate, LearnedYear)? {
            // A year that could be a receipt of the shop's is believed: shops' receipts span years, and OCR's
            // 6↔8 runs both ways (2016 and 2018 receipts of one shop). One several years off all of them is not.
            guard years[d.year] == nil, impossible || years.keys.allSatisfy({ abs($0 - d.year) >= Self.yearsApart }) else { return nil }
            let fits = years.filter { y, _ in
                impossible ? String(d.year).count == 4 && zip(String(d.year), String(y)).filter { $0 != $1 }.count == 1
                    : ReceiptParser.digitSlip(String(d.year), String(y)) != nil
            }
            guard fits.count == 1, let (y, seen) = fits.first, let v = CalendarDate(year: y, month: d.month, day: d.day) else { return nil }
            return (v, LearnedYear(read: d, year: y, receipts: seen.count, teacher: seen.latest.rawValue))
        }
        if let date {
            guard let (v, note) = taken(date.value, impossible: false) else { return nil }
            var e = date.evidence
            e.rule = "date.learned-year"
            e.notes.append(.learnedYear(note))
            return replacing(date, with: v, confidence: min(yearConfidence, date.confidence), evidence: e)
        }
        for row in rows.sorted(by: { ($0.keyword == "date" ? 0 : 1, $0.index) < ($1.keyword == "date" ? 0 : 1, $1.index) }) {
            for d in row.droppedDates {
                if let (v, note) = taken(d, impossible: true) {
                    return Field(v, confidence: yearConfidence, evidence: row.evidence(rule: "date.learned-year", notes: [.learnedYear(note)]))
                }
            }
        }
        return nil
    }

    /// The parser's value is backed by the receipt itself: a total a sum or the rounding gives, a date on a line with a date keyword.
    static func backed<T>(_ f: Field<T>?) -> Bool {
        f?.evidence.notes.contains { n in
            switch n {
            case .sum, .roundedBy, .afterRounding, .dateKeyword: true
            default: false
            }
        } ?? false
    }

    /// The first of the shop's habits for `field` (the latest taught first) that finds its line; each
    /// kind of line tried once, however many receipts taught it.
    static func apply<T>(_ habits: [TaughtHabit], _ field: CorrectableField, _ rows: [ReadRow], values: (ReadRow) -> [T]) -> (ReadRow, T, LearnedHabit)? {
        var tried: Set<LineKind> = []
        for h in habits.filter({ $0.field == field }).sorted(by: { $0.correctionID > $1.correctionID }) where tried.insert(h.line).inserted {
            if let (row, value) = Habits.find(h.line, in: rows, values: values) {
                return (row, value, LearnedHabit(field: field.rawValue, line: h.line, teacher: h.receiptID.rawValue))
            }
        }
        return nil
    }

    /// A learned value in place of the parser's field, the parser's own value kept first among the rejected.
    static func replacing<T>(_ parsed: Field<T>?, with value: T, confidence: Double, evidence: Evidence) -> Field<T> {
        var rejected: [Candidate] = []
        if let p = parsed, p.value != value {
            rejected = [Candidate(value: "\(p.value)", score: p.confidence, evidence: p.evidence)] + p.rejected
        }
        return Field(value, confidence: max(confidence, parsed.map { $0.value == value ? $0.confidence : 0 } ?? 0),
                     evidence: evidence, rejected: Array(rejected.prefix(5)))
    }

    /// What a corrected or confirmed receipt teaches (the store asks inside the correction's transaction).
    public var teacher: any ShopTeacher { Teacher(parser: parser) }

    /// The teacher alone, for a front end that corrects receipts and reads none (`edit`, `review`):
    /// `parser` reads the rows a habit is learned on.
    public static func teacher(parser: ReceiptParser = ReceiptParser()) -> any ShopTeacher { Teacher(parser: parser) }
}

/// What one receipt teaches: its fingerprint, to the shop the user named (or confirmed by leaving
/// the vendor as it was), and a habit for each total or date the user changed or confirmed whose
/// value stood on a line of the receipt. (From changes alone, habits were learned on 10 of
/// the 67 shops sroie-stream taught and set the total on repeat shops 2.9 points above the parser's; from
/// confirmations too, 4.4 points, and the date 1.3 instead of 1.0, no receipt worse.)
struct Teacher: ShopTeacher {
    let parser: ReceiptParser

    func lesson(_ input: TeachingInput) -> ShopLesson? {
        guard !input.corrections.isEmpty, let name = input.effective.vendor?.value, !ShopName.key(name).isEmpty,
              let reading = input.reading else { return nil }
        let target: ShopLesson.Target
        if input.changed.contains(.vendor) { target = .named(name) }
        else if let t = input.taught { target = .shop(t) }
        else if let s = input.learned?.shop, input.learned?.vendor?.value == name { target = .shop(ShopID(s)) }
        else { target = .named(name) }
        let keys = Fingerprint.of(reading.first).allKeys
        // A habit from each total and date the user changed or confirmed, where the value is printed on the receipt.
        var habits: [ShopLesson.Habit] = []
        let latest = Dictionary(input.corrections.map { ($0.field, $0) }, uniquingKeysWith: { a, b in a.id > b.id ? a : b })
        let teaching = [CorrectableField.total, .date].compactMap { f -> Correction? in
            guard let c = latest[f], c.value != nil else { return nil }
            return c
        }
        if !teaching.isEmpty {
            let rows = parser.rows(parser.parse(reading).page)
            for c in teaching {
                let kind: LineKind?
                switch c.field {
                case .total: kind = c.value.flatMap(Amount.init).flatMap { v in Habits.kind(of: v, field: "total", in: rows, anyRow: false, values: \.amounts) }
                default: kind = c.value.flatMap { CalendarDate(iso: $0) }.flatMap { v in Habits.kind(of: v, field: "date", in: rows, anyRow: true, values: \.dates) }
                }
                if let kind { habits.append(ShopLesson.Habit(field: c.field, line: kind, correctionID: c.id)) }
            }
        }
        return ShopLesson(target: target, keys: keys, habits: habits)
    }
}
