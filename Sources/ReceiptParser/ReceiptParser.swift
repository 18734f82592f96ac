import Foundation
import ReceiptModel

/// A vendor a user knows, with the other ways receipts print it.
public struct KnownVendor: Sendable, Hashable, Codable {
    public var name: String
    public var aliases: [String]
    public init(name: String, aliases: [String] = []) { self.name = name; self.aliases = aliases }
}

public struct ParserOptions: Sendable, Hashable {
    public var rules: ParserRules = .builtIn
    /// How to read ambiguous all-digit dates (03/04/2024).
    public var dateOrder: DateOrder = .auto
    /// Dates after this day are rejected as implausible (default: tomorrow).
    public var latestDate: CalendarDate? = nil
    /// Dates before this year are rejected unless lowered.
    public var earliestYear: Int = 2000
    /// Matched fuzzily against the top of the receipt before the generic vendor rules.
    public var knownVendors: [KnownVendor] = []
    /// Currency to assume when the receipt shows none (ISO code), e.g. from a locale.
    public var defaultCurrency: String? = nil

    public init() {}
}

/// Turns an `OCRPage` into a `ParsedReceipt`. Pure Swift: no OCR engine needed.
public struct ReceiptParser: Sendable {
    public static let version = "0.1.0"
    public var options: ParserOptions
    let compiled: CompiledRules

    public init(options: ParserOptions = ParserOptions()) {
        self.options = options
        compiled = CompiledRules(options.rules)
    }

    public func parse(_ page: OCRPage) -> ParsedReceipt {
        let rows = RowBuilder.rows(page)
        let lines = rows.enumerated().map { ParseLine(index: $0.offset, source: $0.element.source, line: $0.element.line, rules: compiled) }
        var receipt = ParsedReceipt(parserVersion: Self.version)
        // Currency symbols are counted line by line as read: a row of "Amt (RM)" "Tax (RM)" shows RM twice.
        let merged = rows.count != page.lines.count
        receipt.currency = currency(merged ? page.lines.enumerated().map { ParseLine(index: $0.offset, line: $0.element, rules: compiled, scanAmounts: false) } : lines)
        receipt.date = date(lines, currency: receipt.currency?.value)
        receipt.time = time(lines, dateLine: receipt.date?.evidence.line)
        receipt.vendor = vendor(lines)
        let money = MoneyFields(lines: lines, rules: compiled)
        receipt.subtotal = money.subtotal
        receipt.tax = money.tax
        receipt.lineItems = lineItems(lines, before: money.firstSummaryLine)
        let (total, checks) = money.total(lineItems: receipt.lineItems)
        receipt.total = total
        receipt.checks = checks
        receipt.receiptNumber = receiptNumber(lines)
        (receipt.paymentMethod, receipt.cardLast4) = payment(lines)
        return receipt
    }

    /// Convenience for plain text (one receipt line per text line).
    public func parse(text: String) -> ParsedReceipt { parse(OCRPage(text: text)) }

    // MARK: currency

    func currency(_ lines: [ParseLine]) -> Field<String>? {
        var counts: [String: (Int, Int)] = [:]  // code -> (count, first line)
        for l in lines {
            for code in compiled.currencies(in: l) {
                let c = counts[code] ?? (0, l.index)
                counts[code] = (c.0 + 1, c.1)
            }
        }
        guard let best = counts.max(by: { $0.value.0 < $1.value.0 || ($0.value.0 == $1.value.0 && $0.value.1 > $1.value.1) }) else {
            return options.defaultCurrency.map { Field($0, confidence: 0.3, evidence: Evidence(rule: "currency.default")) }
        }
        let line = lines[best.value.1]
        // A bare "$" is many countries' dollar: a tax or payment system named on the receipt tells which.
        if best.key == "USD", !lines.contains(where: { $0.words.contains(" usd ") || $0.text.uppercased().contains("US$") }) {
            for l in lines {
                if let (word, code) = compiled.dollarHints.first(where: { l.words.contains($0.0) }) {
                    return Field(code, confidence: 0.7, evidence: l.evidence(rule: "currency.dollar-hint",
                                 notes: ["'$' with '\(word.trimmingCharacters(in: .whitespaces))' on the receipt"]))
                }
            }
        }
        return Field(best.key, confidence: min(0.95, 0.6 + 0.1 * Double(best.value.0)),
                     evidence: line.evidence(rule: "currency.symbol", notes: ["seen \(best.value.0)×"]))
    }

    // MARK: date

    func date(_ lines: [ParseLine], currency: String?) -> Field<CalendarDate>? {
        let latest = options.latestDate ?? Self.tomorrow()
        var found: [(RawDate, ParseLine)] = []
        for l in lines { for d in DateScanner.scan(l.text, months: compiled.months) { found.append((d, l)) } }
        guard !found.isEmpty else { return nil }

        // Day/month order: the user's word, else the evidence on the receipt weighed: dates that can only be
        // read one way (stronger on a date line, weaker when they might be a time like 11.14.00), and the currency.
        var order = options.dateOrder
        var orderNote: String
        if order != .auto {
            orderNote = "order \(order.rawValue) (given)"
        } else {
            var votes: [DateOrder: Double] = [.dayFirst: 0, .monthFirst: 0]
            var why: [DateOrder: String] = [:]
            for (raw, line) in found where raw.shape == .numeric && raw.first != raw.second {
                guard let certain = raw.certainOrder, let v = raw.reading(certain), v <= latest, v.year >= options.earliestYear else { continue }
                var w = 1.0
                if raw.text.contains("."), raw.text.filter(\.isNumber).count <= 6 { w = 0.5 }
                if compiled.dateKeyword(line.words) > 0 { w += 1 }
                votes[certain, default: 0] += w
                if why[certain] == nil { why[certain] = "'\(raw.text)' can only be read that way" }
            }
            // A document number that embeds the date ("BATO2201803120255" beside "12/03/18") tells the order.
            let runs = lines.flatMap { l in l.text.split(whereSeparator: { !$0.isNumber }).filter { $0.count >= 10 }.map(String.init) }
            if !runs.isEmpty {
                for (raw, _) in found where raw.shape == .numeric && raw.certainOrder == nil {
                    let held = [DateOrder.dayFirst, .monthFirst].filter { o in
                        guard let v = raw.reading(o) else { return false }
                        let key = String(format: "%04d%02d%02d", v.year, v.month, v.day)
                        return runs.contains { $0.contains(key) }
                    }
                    if held.count == 1, let o = held.first {
                        votes[o, default: 0] += 1.5
                        if why[o] == nil { why[o] = "a document number holds '\(raw.text)' as \(raw.reading(o)?.iso ?? "")" }
                    }
                }
            }
            if let c = currency {
                let cur: DateOrder = compiled.monthFirstCurrencies.contains(c) ? .monthFirst : .dayFirst
                votes[cur, default: 0] += 0.6
                if why[cur] == nil { why[cur] = "currency \(c)" }
            }
            let d = votes[.dayFirst] ?? 0, m = votes[.monthFirst] ?? 0
            if d == 0, m == 0 {
                order = .dayFirst
                orderNote = "order day-first: no evidence either way"
            } else {
                order = m > d ? .monthFirst : .dayFirst
                orderNote = "order \(order.rawValue): \(why[order] ?? "evidence")"
            }
        }

        var candidates: [(CalendarDate, Double, Evidence)] = []
        for (raw, line) in found {
            var notes: [String] = []
            var score = 0.7
            var value: CalendarDate?
            if raw.shape == .numeric {
                if let certain = raw.certainOrder {
                    value = raw.reading(certain)
                    if raw.first != raw.second, certain != order { notes.append("read \(certain.rawValue) (only valid reading)") }
                } else {
                    value = raw.reading(order)
                    notes.append(orderNote)
                    if options.dateOrder == .auto, orderNote.contains("no evidence") { score -= 0.15 }
                }
            } else {
                value = raw.reading(.dayFirst)
            }
            guard var v = value else { continue }
            // The other reading when this one is implausible (in the future).
            if v > latest, raw.shape == .numeric, let alt = raw.reading(order == .dayFirst ? .monthFirst : .dayFirst), alt <= latest, alt.year >= options.earliestYear {
                notes.append("\(v.iso) is in the future; read the other way")
                v = alt
                score -= 0.1
            }
            guard v <= latest, v.year >= options.earliestYear else { continue }
            if raw.shape == .compact { score -= 0.25 }
            // Glued to a word ("HC03-7-15"): a product code more likely than a date.
            let at = line.text.index(line.text.startIndex, offsetBy: raw.position)
            if at > line.text.startIndex, line.text[line.text.index(before: at)].isLetter { score -= 0.3; notes.append("glued to a word") }
            if raw.text.filter(\.isNumber).count >= 8 || raw.shape == .named { score += 0.05 }
            let kw = compiled.dateKeyword(line.words)
            if kw > 0 { score += 0.2 * kw; notes.append("date keyword on the line") }
            if compiled.isDateDistractor(line.words) { score -= 0.45; notes.append("expiry/validity wording on the line") }
            // Receipts print the transaction date near the top or just after the totals; a little weight to the top.
            score -= 0.05 * Double(line.index) / Double(max(1, lines.count))
            candidates.append((v, score, line.evidence(rule: raw.rule, notes: ["'\(raw.text)'"] + notes)))
        }
        guard !candidates.isEmpty else { return nil }
        // The same day printed twice is stronger evidence.
        var byDay: [CalendarDate: Int] = [:]
        for c in candidates { byDay[c.0, default: 0] += 1 }
        let ranked = candidates.map { c in (c.0, c.1 + (byDay[c.0, default: 1] > 1 ? 0.1 : 0), c.2) }
            .sorted { $0.1 > $1.1 }
        let best = ranked[0]
        let rejected = ranked.dropFirst().filter { $0.0 != best.0 }.prefix(5).map { Candidate(value: $0.0.iso, score: $0.1, evidence: $0.2) }
        return Field(best.0, confidence: min(0.99, max(0.02, best.1)), evidence: best.2, rejected: Array(rejected))
    }

    static func tomorrow() -> CalendarDate {
        let d = Date().addingTimeInterval(86_400)
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = cal.dateComponents([.year, .month, .day], from: d)
        return CalendarDate(year: c.year ?? 2100, month: c.month ?? 1, day: c.day ?? 1) ?? CalendarDate(year: 2100, month: 1, day: 1)!
    }

    // MARK: time

    func time(_ lines: [ParseLine], dateLine: Int?) -> Field<TimeOfDay>? {
        var best: (TimeOfDay, Double, ParseLine)?
        for l in lines {
            for (t, _) in TimeScanner.scan(l.text) {
                var score = 0.6
                if l.source == dateLine { score += 0.3 }
                if l.words.padded.contains(" time ") || l.words.padded.contains(" masa ") || l.words.padded.contains(" zeit ") || l.words.padded.contains(" heure ") { score += 0.2 }
                if best == nil || score > best!.1 { best = (t, score, l) }
            }
        }
        return best.map { Field($0.0, confidence: $0.1, evidence: $0.2.evidence(rule: "time.hh:mm")) }
    }

    // MARK: vendor

    func vendor(_ lines: [ParseLine]) -> Field<String>? {
        // The header: the first lines, up to the first one with money or a date on it (where the items start).
        let top = Array(lines.prefix(15))
        let firstData = top.firstIndex { l in
            l.amounts.contains { !$0.isPercent } || !DateScanner.scan(l.text, months: compiled.months).isEmpty
        } ?? top.count
        // 1. A vendor the user listed, matched fuzzily.
        if !options.knownVendors.isEmpty {
            var best: (KnownVendor, Double, ParseLine, String)?
            for l in top {
                let text = VendorText.normalise(l.text)
                guard text.count >= 3 else { continue }
                for v in options.knownVendors {
                    for alias in [v.name] + v.aliases {
                        let a = VendorText.normalise(alias)
                        guard !a.isEmpty else { continue }
                        let s = text.contains(a) ? 1.0 : similarity(text, a)
                        if s >= 0.8, best == nil || s > best!.1 { best = (v, s, l, alias) }
                    }
                }
            }
            if let (v, s, l, alias) = best {
                return Field(v.name, confidence: 0.75 + 0.2 * s, evidence: l.evidence(rule: "vendor.known", notes: [String(format: "matches '%@' (%.0f%%)", alias, s * 100)]))
            }
        }
        // 2. Generic rules: a name ending in a legal form, else the first name-like line.
        var candidates: [(String, Double, Evidence)] = []
        var firstNameLike = true
        for (i, l) in top.enumerated() {
            guard let kind = compiled.vendorLineKind(l) else { continue }
            var name = VendorText.clean(l.text)
            var score: Double
            var rule: String
            switch kind {
            case .legalForm(let onlyForm):
                score = 0.8
                rule = "vendor.legal-form"
                name = VendorText.dropLabel(name)
                // "SDN BHD" alone on its line, or a line that reads as the end of a name ("& TEA LEAF (M) SDN BHD",
                // "KITCHEN SDN BHD"): the name starts on the line above.
                let rest = compiled.wordsBeforeLegalForm(l.words)
                let restWords = rest.count
                // Or only a business word before the form ("RESTAURANT SDN BHD", "COFFEE CO."): the tail of a name.
                let tail = restWords == 1 && compiled.hasNameWord(String(rest[0]))
                // Or the line starts with a long legal form ("ENTERPRISE (SETIA"): the name began above.
                let startsWithForm = l.words.words.first.map { w in w.count >= 5 && compiled.legalForms.contains { $0.normalised == " \(w) " } } ?? false
                let continues = onlyForm || restWords == 0 || tail || startsWithForm || l.text.first == "(" || l.text.first == "&" || top[max(0, i - 1)].text.hasSuffix("&")
                if continues, i > 0, compiled.vendorLineKind(top[i - 1]) == .nameLike, !top[i - 1].text.contains(":") {
                    name = VendorText.clean(top[i - 1].text) + " " + name
                    rule = "vendor.legal-form-two-lines"
                }
                // "ENTERPRISE (SETIA" / "ALAM) SDN BHD": a bracket left open closes on the next line.
                if name.filter({ $0 == "(" }).count > name.filter({ $0 == ")" }).count, i + 1 < top.count,
                   top[i + 1].text.contains(")"), top[i + 1].amounts.isEmpty {
                    name += " " + VendorText.clean(top[i + 1].text)
                }
                if i < 5 { score += 0.1 }
            case .nameLike:
                score = firstNameLike ? 0.55 : 0.35
                rule = firstNameLike ? "vendor.first-name-line" : "vendor.name-line"
                if l.text.uppercased() == l.text { score += 0.05 }
                if i > firstData { score -= 0.2 }
                // "HOME HARDWARE &" / "ELECTRICAL": a name carried over to the next line.
                if l.text.hasSuffix("&"), i + 1 < top.count, compiled.vendorLineKind(top[i + 1]) == .nameLike {
                    name += " " + VendorText.clean(top[i + 1].text)
                }
                firstNameLike = false
            }
            score -= 0.02 * Double(i)
            if l.confidence < 0.6 { score -= 0.1 }
            // What names look like, whichever rule found the line: a business word ("RESTAURANT", "BAKERY"),
            // a registration number on the next line; not a short lower-case scrap ("tie") from a logo.
            let letters = name.filter(\.isLetter)
            if compiled.hasNameWord(name) { score += 0.15 }
            // A registration number below the line, or on it ("BEST DENKI MALAYSIA (308282-A)").
            if i + 1 < top.count, Self.registrationNumber.matches(in: top[i + 1].text).first != nil { score += 0.1 }
            else if Self.registrationOnLine.matches(in: l.text).first != nil { score += 0.1 }
            if letters.count <= 4 || (letters == letters.lowercased() && letters.count < 8) { score -= 0.15 }
            name = compiled.repairName(name)
            guard name.count >= 3 else { continue }
            candidates.append((name, score, l.evidence(rule: rule)))
        }
        guard let best = candidates.max(by: { $0.1 < $1.1 }) else { return nil }
        let rejected = candidates.filter { $0.0 != best.0 }.sorted { $0.1 > $1.1 }.prefix(4).map { Candidate(value: $0.0, score: $0.1, evidence: $0.2) }
        return Field(best.0, confidence: min(0.95, max(0.05, best.1)), evidence: best.2, rejected: Array(rejected))
    }

    // MARK: line items

    /// A company registration number line: "(001610235-P)", "(1168272-U)", "Co. Reg. 12345-X".
    static let registrationNumber = Pattern(#"^\W*(?:co(?:mpany)?\.?\s*(?:reg|no)\S*\s*:?\s*)?[\(\[{]?\s*\d{5,}-?[A-Z0-9]\s*[\)\]}]?\W*$"#)

    static let registrationOnLine = Pattern(#"[\(\[{]\s*\d{5,}-?[A-Z]\s*[\)\]}]\W*$"#)

    static let quantityPrefix = Pattern(#"^\s*(\d{1,3})\s*[xX×@*]\s+"#)
    static let quantityTimesPrice = Pattern(#"(?<![\d.,])(\d{1,3})\s*[xX×@*]\s*(?:RM|\$|€|£)?\s*(\d+[.,]\d{2})"#)

    func lineItems(_ lines: [ParseLine], before summaryLine: Int?) -> [LineItem] {
        let end = summaryLine ?? lines.count
        guard end > 0 else { return [] }
        var items: [LineItem] = []
        for l in lines[..<end] {
            guard let last = l.amounts.last(where: { !$0.isPercent }), l.words.letterCount >= 3 else { continue }
            if compiled.isSummaryOrMeta(l.words) { continue }
            if !DateScanner.scan(l.text, months: compiled.months).isEmpty { continue }
            let descEnd = l.text.index(l.text.startIndex, offsetBy: min(l.text.count, l.amounts.first?.position ?? last.position))
            var desc = String(l.text[..<descEnd])
            var qty: Decimal?
            var unit: Amount?
            if let m = Self.quantityTimesPrice.matches(in: l.text).first, let q = m.groups[1].flatMap({ Decimal(string: $0) }),
               let p = m.groups[2].flatMap({ Amount($0.replacingOccurrences(of: ",", with: ".")) }) {
                qty = q; unit = p
                desc = String(l.text[..<m.range.lowerBound])
            } else if let m = Self.quantityPrefix.matches(in: desc).first, let q = m.groups[1].flatMap({ Decimal(string: $0) }) {
                qty = q
                desc = String(desc[m.range.upperBound...])
            }
            desc = VendorText.clean(desc)
            guard desc.filter(\.isLetter).count >= 2 else { continue }
            let amount = last.negative ? Amount(0) - last.amount : last.amount
            items.append(LineItem(description: desc, quantity: qty, unitPrice: unit, amount: amount,
                                  evidence: l.evidence(rule: "item.line")))
        }
        return items
    }

    // MARK: receipt number, payment

    static let idToken = Pattern(#"[:#.\s]*([A-Z0-9][A-Z0-9\-/]{2,24})"#)

    func receiptNumber(_ lines: [ParseLine]) -> Field<String>? {
        for l in lines {
            for (kw, weight) in compiled.receiptNumberKeywords where l.words.contains(kw.normalised) {
                // The token after the keyword, with a digit in it.
                guard let r = l.text.range(of: kw.raw, options: [.caseInsensitive]) ?? l.text.range(of: kw.raw.replacingOccurrences(of: " ", with: ""), options: .caseInsensitive) else { continue }
                let after = String(l.text[r.upperBound...])
                for m in Self.idToken.matches(in: after.uppercased()) {
                    guard let tok = m.groups[1], tok.contains(where: \.isNumber) else { continue }
                    return Field(tok, confidence: 0.5 + 0.3 * weight, evidence: l.evidence(rule: "receipt-number.keyword", notes: ["after '\(kw.raw)'"]))
                }
            }
        }
        return nil
    }

    static let cardDigits = Pattern(#"(?:[*xX#•]{2,}[\s*xX#•\-]*|ending (?:in )?|last 4[:\s]*)(\d{4})(?!\d)"#)

    func payment(_ lines: [ParseLine]) -> (Field<String>?, Field<String>?) {
        var method: Field<String>?
        var last4: Field<String>?
        for l in lines {
            if last4 == nil, let m = Self.cardDigits.matches(in: l.text).first, let d = m.groups[1] {
                last4 = Field(d, confidence: 0.85, evidence: l.evidence(rule: "card.masked-number"))
            }
            if method == nil || method?.value == "cash" {
                if let card = compiled.cardWords.first(where: { l.words.contains($0) }) {
                    method = Field("card", confidence: 0.8, evidence: l.evidence(rule: "payment.card-word", notes: ["'\(card.trimmingCharacters(in: .whitespaces))'"]))
                } else if method == nil, !l.amounts.isEmpty, let cash = compiled.cashWords.first(where: { l.words.contains($0) }) {
                    method = Field("cash", confidence: 0.7, evidence: l.evidence(rule: "payment.cash-word", notes: ["'\(cash.trimmingCharacters(in: .whitespaces))'"]))
                }
            }
        }
        if last4 != nil, method == nil || method?.value == "cash" {
            method = Field("card", confidence: 0.7, evidence: last4!.evidence)
        }
        return (method, last4)
    }
}

/// One OCR line with what the parser computes once per line.
struct ParseLine {
    /// Position among the rows the parser reads (top to bottom).
    let index: Int
    /// Index in `OCRPage.lines` of the (first) source line, for evidence.
    let source: Int
    let text: String
    let words: WordLine
    let amounts: [FoundAmount]
    let box: BoundingBox?
    let confidence: Double

    init(index: Int, source: Int? = nil, line: OCRLine, rules: CompiledRules, scanAmounts: Bool = true) {
        self.index = index
        self.source = source ?? index
        text = line.text
        words = WordLine(text)
        amounts = scanAmounts ? AmountScanner.scan(text, currencyWords: rules.currencyWords) : []
        box = line.box
        confidence = line.confidence
    }

    func evidence(rule: String, notes: [String] = []) -> Evidence {
        Evidence(line: source, text: text, box: box, rule: rule, notes: notes)
    }
}

enum VendorText {
    /// Legal forms of up to three letters: never dropped as scraps after a name.
    static let shortForms: Set<String> = ["bhd", "sdn", "ltd", "inc", "llc", "co", "plc", "pty", "pte", "ag", "sa", "kg", "bv", "nv", "ab", "as", "oy"]
    static let misreadSdnBhd = Pattern(#"\bS(?:[O0DIEU]N|DIV|DM|DIi|DR|C)\b[.,':]{0,3}\s*(?:[B83][HN][DO0]|[B83]H[A])\b"#)

    /// Strips OCR noise at the ends and a trailing registration number "(81109-A)".
    static func clean(_ s: String) -> String {
        var t = s.replacingOccurrences(of: #"\s*[\(\[]\s*(?:co\.?\s*(?:reg|no)\.?\s*:?\s*)?[0-9][0-9A-Z\-\s]*[\)\]]?\s*$"#, with: "", options: [.regularExpression, .caseInsensitive])
        t = t.trimmingCharacters(in: CharacterSet(charactersIn: " ,.;:"))
        t = t.replacingOccurrences(of: #"\s*[\(\[]\s*(?:co\.?\s*(?:reg|no)\.?\s*:?\s*)?[0-9][0-9A-Z\-\s]*[\)\]]?\s*$"#, with: "", options: [.regularExpression, .caseInsensitive])
        // A branch code "(KJ1)", then a bare registration number at the end: "NAME SDN BHD 1110644-W".
        t = t.replacingOccurrences(of: #"\s*[\(\[][A-Z]{0,3}\d[0-9A-Z\-]{0,8}[\)\]]$"#, with: "", options: .regularExpression)
        t = t.replacingOccurrences(of: #"\s+[A-Z]{0,3}\d{4,}-?[A-Z]?$"#, with: "", options: .regularExpression)
        t = t.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        let junk = CharacterSet(charactersIn: " *~|_=-—–:;,'\"`!^<>{}[]\\/©®•»«‘’“”")
        t = t.trimmingCharacters(in: junk)
        // Leading dots and a stray lower-case scrap before an upper-case name ("ri FOODICIOUS"), trailing scraps after a legal form.
        t = t.replacingOccurrences(of: #"^[.\s]+(?=\S)"#, with: "", options: .regularExpression)
        t = t.replacingOccurrences(of: #"^[a-z]{1,2}\s+(?=[A-Z]{2})"#, with: "", options: .regularExpression)
        t = t.replacingOccurrences(of: #"(?i)(\b(?:bhd|ltd|llc|inc|gmbh|corp|plc|co|s/b)\.?)(?:\s+[A-Za-z0-9]{1,2}){1,2}$"#, with: "$1", options: .regularExpression)
        // OCR's "SON BHD", "SIN BHD", "SDIi BHD", "SEN 3HD", "SDN BHO" for SDN BHD (Malaysia's private limited).
        // (Read right, "Sdn. Bhd." is left as printed.)
        for m in misreadSdnBhd.matches(in: t).reversed() where m.groups[0].map({ $0.uppercased().filter(\.isLetter) }) != "SDNBHD" {
            t.replaceSubrange(m.range, with: "SDN BHD")
        }
        // After a legal form ends the name, anything with a digit is a registration number or noise:
        // "SDN BHD 1110644-¥", "Sdn Bhd {256864-P)", "SDN BHD (Ca. No:20154-T)".
        t = t.replacingOccurrences(of: #"(?i)(\b(?:bhd|ltd|llc|inc|gmbh|corp|plc|s/b|pte|pty)\b\.?)\s+.*\d.*$"#, with: "$1", options: .regularExpression)
        t = t.trimmingCharacters(in: junk.union(CharacterSet(charactersIn: ".")).subtracting(CharacterSet(charactersIn: ".")))
        // "RESTORAN SIAM VILLAGE oo": short lower-case scraps after a name printed in capitals.
        var words = t.split(separator: " ")
        if words.filter({ $0.count >= 2 && $0.contains(where: \.isUppercase) && !$0.contains(where: \.isLowercase) }).count >= 2 {
            while words.count > 2, let last = words.last, last.count <= 3, last.contains(where: \.isLowercase),
                  !shortForms.contains(last.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
                words.removeLast()
            }
            t = words.joined(separator: " ")
        }
        return t
    }

    /// "OWNED BY: NAME SDN BHD" → "NAME SDN BHD"; "#0002 NAME" → "NAME".
    static func dropLabel(_ s: String) -> String {
        var t = s
        if let colon = t.firstIndex(of: ":") {
            let head = t[..<colon], tail = t[t.index(after: colon)...]
            if head.split(separator: " ").count <= 2, tail.filter(\.isLetter).count >= 4 { t = String(tail) }
        }
        t = t.replacingOccurrences(of: #"^\s*#\S*\d\S*\s+"#, with: "", options: .regularExpression)
        return clean(t)
    }

    /// Upper-case, punctuation dropped, spaces collapsed (the scorer's normalisation).
    /// Diacritics folded (Ä→A), as the scorer drops non-ASCII letters' accents on both sides.
    static func normalise(_ s: String) -> String {
        let mapped = s.folding(options: [.diacriticInsensitive], locale: nil).uppercased().map { $0.isLetter || $0.isNumber || $0 == "&" ? $0 : " " }
        return String(mapped).split(separator: " ").joined(separator: " ")
    }
}
