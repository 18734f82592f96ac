import Foundation
import ReceiptModel

// Line items as a receipt prints them: the priced rows above the totals block, each a name, the quantity
// and unit price where printed, and an amount; a name printed on its own row above its price joined to it;
// a discount or a void printed under an item attached to it; totals, tax, tender, change and loyalty rows
// never taken; their sum checked against the subtotal (or the total) once those are settled
// (`itemsCheck`).

extension ReceiptParser {
    // (`mayMatch`: what any match needs, on printable ASCII.)
    static let quantityPrefix = Pattern(#"^\s*(\d{1,3})\s*[xX×@*]\s+"#, mayMatch: { ReceiptParser.startsWithDigit($0) && Bytes.has($0, "xX@*") })
    static let quantityTimesPrice = Pattern(#"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,3})?)\s*(?:[xX×@*]|(?:lb|kg|KG|LB|Ib|kilos?|KILOS?)\s*@)\s*(?:RM|\$|€|£)?\s*(\d+[.,]\d{2})"#,
                                            mayMatch: { b in
        // an "@", or an "x", "X" or "*" after a digit and maybe spaces
        if Bytes.has(b, "@") { return true }
        var lastNonSpace: UInt8 = 0
        for c in b {
            if (c == UInt8(ascii: "x") || c == UInt8(ascii: "X") || c == UInt8(ascii: "*")) && Bytes.isDigit(lastNonSpace) { return true }
            if c != 0x20 { lastNonSpace = c }
        }
        return false
    })
    /// A quantity first on the row: "2 Coffee", "1 x Tea" (not "2%", "3.BEEF ROLL", a code "9988").
    static let leadingQuantity = Pattern(#"^\s*(\d{1,2})(?:\s*[xX×]\s*|\s+)(?=\S)"#, mayMatch: { b in
        // after the spaces, a run of one or two digits (not three: neither two nor one of them is followed by a
        // space or an x), then a space or an "x" or "X"
        var i = 0
        while i < b.count, b[i] == 0x20 { i += 1 }
        var j = i
        while j < b.count, j - i < 3, Bytes.isDigit(b[j]) { j += 1 }
        guard j - i == 1 || j - i == 2, j < b.count else { return false }
        return b[j] == 0x20 || b[j] == UInt8(ascii: "x") || b[j] == UInt8(ascii: "X")
    })
    /// A weight at the end of the name: "0.742 KILOS", "1.24 lb", "500 g" is not one (a pack size).
    static let weightAfterName = Pattern(#"\s(\d{1,3}[.,]\d{1,3})\s*(?:kg|kgs|kilos?|lb|lbs|oz)\.?\s*$"#, mayMatch: { b in
        // the line ends in a unit, then maybe a point and spaces
        var end = b.count
        while end > 0, b[end - 1] == 0x20 { end -= 1 }
        if end > 0, b[end - 1] == UInt8(ascii: ".") { end -= 1 }
        // (Read from the end, lower-cased: "kg", "kgs", "kilo", "kilos", "lb", "lbs", "oz"; no array made a line.)
        return Bytes.says(b, end - 2, "kg") || Bytes.says(b, end - 3, "kgs") || Bytes.says(b, end - 4, "kilo") || Bytes.says(b, end - 5, "kilos")
            || Bytes.says(b, end - 2, "lb") || Bytes.says(b, end - 3, "lbs") || Bytes.says(b, end - 2, "oz")
    })
    /// A quantity before the prices: "Jasmine Tea 2 5.00 10.00", "Buns 1 45.00".
    static let trailingQuantity = Pattern(#"\s(\d{1,3})\s*[xX×]?\s*$"#, mayMatch: { b in
        // a digit last, but for spaces and an "x" or "X"
        var end = b.count
        while end > 0, b[end - 1] == 0x20 { end -= 1 }
        if end > 0, b[end - 1] == UInt8(ascii: "x") || b[end - 1] == UInt8(ascii: "X") { end -= 1 }
        while end > 0, b[end - 1] == 0x20 { end -= 1 }
        return end > 0 && Bytes.isDigit(b[end - 1])
    })
    /// The first character that is not a space is a digit.
    @Sendable static func startsWithDigit(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        b.first { $0 != 0x20 }.map(Bytes.isDigit) ?? false
    }

    /// Where the items end: the first row of the totals block (a subtotal, a strong total, a tax with
    /// its amount, a payment), or the first row that prints the sum of the priced rows above it.
    func itemsEnd(_ lines: [ParseLine]) -> Int {
        var seenPrice = false
        for l in lines {
            let priced = l.amounts.contains { !$0.isPercent }
            defer { if priced { seenPrice = true } }
            guard seenPrice || priced else { continue }
            // (A column heading "Qty Price Subtotal" has no amount of its own.)
            if compiled.isSubtotal(l.words), priced || MoneyFields.pairedValue(l.index, lines, compiled) != nil { return l.index }
            // The words as printed: one slip away, item names look like them ("SUMMER" / "summe", "Tuna" / "tunai").
            if let kw = compiled.anyExact(compiled.total, in: l.words), kw.weight >= 0.8, compiled.any(compiled.totalDistractors, in: l.words) == nil,
               priced || MoneyFields.pairedValue(l.index, lines, compiled) != nil { return l.index }
            // A tax with its amount ends them, included or added ("Inclusive GST @6%: 3.80"); not a heading's number.
            if seenPrice, priced, compiled.anyExact(compiled.tax, in: l.words) != nil,
               compiled.any(compiled.taxExclude, in: l.words).map({ Self.inclusion.contains($0.normalised) }) ?? true { return l.index }
            if seenPrice, priced, compiled.anyExact(compiled.cash, in: l.words) != nil || compiled.anyExact(compiled.change, in: l.words) != nil { return l.index }
            // A card payment ("VISA 20.00", "Master Card 63.80"); not "card" alone ("GREETING CARD").
            // (Whether the line has the word asked first, mostly answered by its word bits: the set of names' card words
            // hashed each word's string, for every priced row.)
            if seenPrice, priced, compiled.cardWords.contains(where: { l.words.has($0) && !Self.cardWordsInNames.contains($0.normalised) }) { return l.index }
        }
        return lines.count
    }

    /// Exclusions of the tax words that say the tax is in the prices: the row is still the tax's.
    static let inclusion: Set<String> = [" incl ", " including ", " inclusive ", " inkl ", " ttc "]
    /// Card words that are also in item names.
    static let cardWordsInNames: Set<String> = [" card ", " cb ", " carte ", " contactless ", " nfc "]

    /// A row that has a price and is never an item: totals, tax, tender, change, loyalty, a header's numbers.
    func isNotAnItem(_ l: ParseLine) -> Bool { isNotAnItem(l, quick: true) }

    /// `isNotAnItem`; `quick`: a row of ASCII (its keyword bits, `KeywordHits`) that holds no keyword of the sets asked
    /// below, as printed or one slip away (the subtotal's two), is judged by its dates, a tax code's rate and a table
    /// number alone, as the whole walk judges it (a speed trick: most rows are items, and each was asked some ten
    /// keyword questions; `quick: false`, for the test that holds the two together).
    func isNotAnItem(_ l: ParseLine, quick: Bool) -> Bool {
        // A payment or total word: the row is that, unless the word is a weak one in a longer name ("CHOCOLATE BAR",
        // "CHICKEN TENDER", "NET BAG"); "Dine-In Total (incl Tax)" is a total ("total incl", 0.9), however long.
        // A word one OCR slip away counts only on a short row ("TOTAI 12.00"), not in a name ("SUMMER WIT").
        let words = Self.wordsWithLetters(l.words)
        if quick, let slots = compiled.notItemSlots, let h = l.words.hits(compiled.subtotal, compiled.keywordIndex),
           h.holdsNone(ofSlots: slots, loose: compiled.subtotal, l.words) {
            return !l.dates.isEmpty || words == 1 && Self.startsWithTaxCodeAndRate(l.text) || Self.startsWithTableNumber(l.text)
        }
        // (The five sets asked one after another, not walked in an array of them made for every row: each set put in
        // it retained its arrays, and the array was allocated and destroyed.)
        if claims(compiled.total, l.words, words: words) || claims(compiled.subtotal, l.words, words: words)
            || claims(compiled.rounding, l.words, words: words) || claims(compiled.cash, l.words, words: words)
            || claims(compiled.change, l.words, words: words) { return true }
        if compiled.isSubtotal(l.words), words <= 3 || compiled.anyExact(compiled.subtotal, in: l.words) != nil { return true }
        if compiled.anyExact(compiled.tax, in: l.words) != nil || words <= 2 && compiled.any(compiled.tax, in: l.words) != nil,
           compiled.any(compiled.taxExclude, in: l.words).map({ Self.inclusion.contains($0.normalised) }) ?? true { return true }
        if compiled.anyExact(compiled.itemSkip, in: l.words) != nil { return true }
        // A charge named by one word ("SERVICE 10% 4.50", "Cover 2.00"); a longer name is a thing sold ("3YR SERVICE
        // PLAN", "labour & service", "PHONE COVER").
        if words == 1, compiled.anyExact(compiled.itemSkipAlone, in: l.words) != nil { return true }
        if !l.dates.isEmpty { return true }
        // A total word and a tax word on one row sum up the receipt, whatever the tax's exclusion says ("Total
        // (Excluding GST): 42.50", "Total 6% goods (excl. GST)", "Totai Amount (Excluding GST)"): no item is named so.
        if compiled.anyExact(compiled.tax, in: l.words) != nil, compiled.any(compiled.total, in: l.words) != nil { return true }
        // A GST code and its rate first on the row, no other word ("SR @ 6% 2.56", its net lost): a tax summary's row.
        // (Not a code in a row's tax column, "2x 2.20 4.40 SR".)
        if words == 1, Self.startsWithTaxCodeAndRate(l.text) { return true }
        // A restaurant's table number first on the row ("Table 231 9:57 PM", "TBL# 12"): never an item, whatever its
        // time or check number reads as; a table sold is named otherwise ("COFFEE TABLE", "STUDY TABLE 120CM OAK").
        if Self.startsWithTableNumber(l.text) { return true }
        return false
    }

    /// The row starts with "table" or "tbl" (any case, OCR's marks before it), then spaces, "#", ":", "." or "no" as
    /// they come, then a digit: "Table 231", "TABLE: 5", "Tbl#12", "Table No. 4", "Table457/2".
    static func startsWithTableNumber(_ text: String) -> Bool {
        Bytes.onPrintable(text) { b -> Bool in
            var i = 0
            while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: ":") || b[i] == UInt8(ascii: "|") { i += 1 }
            guard i < b.count, b[i] | 0x20 == UInt8(ascii: "t") else { return false }
            if Bytes.says(b, i, "table") { i += 5 } else if Bytes.says(b, i, "tbl") { i += 3 } else { return false }
            while i < b.count, tableNumberMarks.contains(b[i]) { i += 1 }
            if Bytes.says(b, i, "no") { i += 2 }
            while i < b.count, tableNumberMarks.contains(b[i]) { i += 1 }
            return i < b.count && Bytes.isDigit(b[i])
        } ?? false
    }
    /// What may stand between "table" and its number: "Table #5", "TABLE: 5", "Table No. 4".
    static let tableNumberMarks = ByteSet(" #:.")

    /// The text starts with a GST code (`leadingTaxCodes`), then "@" or "(" and spaces as they come, then a rate's
    /// digits (a point among them) and "%": "SR @ 6%", "ZR (@ 0%)", "SR 6.00%".
    static func startsWithTaxCodeAndRate(_ text: String) -> Bool {
        var text = text
        return text.withUTF8 { b in
            var i = 0
            while i < b.count, b[i] == 0x20 { i += 1 }
            let start = i
            while i < b.count, Bytes.isLetter(b[i]) { i += 1 }
            // (The run of ASCII letters upper-cased is its bytes less 0x20: compared so with the codes' bytes, not made a
            // string, upper-cased and looked up, some 1,200 instructions a row.)
            let run = UnsafeBufferPointer(rebasing: b[start..<i])
            guard i > start, leadingTaxCodeBytes.contains(where: { $0.count == run.count && zip($0, run).allSatisfy { $0 == $1 & ~0x20 } }) else {
                return false
            }
            while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "@") || b[i] == UInt8(ascii: "(") { i += 1 }
            let digits = i
            while i < b.count, Bytes.isDigit(b[i]) || b[i] == UInt8(ascii: ".") { i += 1 }
            return i > digits && i < b.count && b[i] == UInt8(ascii: "%")
        }
    }

    /// The words of a line with a letter in them (on ASCII and on Latin letters, counted on the words' bytes without
    /// listing them: there a byte not ASCII is one of a Latin letter's two, `WordLine.simpleScalars`).
    static func wordsWithLetters(_ w: WordLine) -> Int {
        guard w.simpleScalars else { return w.words.filter { $0.contains(where: \.isLetterQuick) }.count }
        var n = 0
        for s in w.spans where w.word(s).contains(where: { ($0 >= 0x61 && $0 <= 0x7A) || $0 >= 0x80 }) { n += 1 }
        return n
    }

    /// A payment or total word of `set` on a row of `words` words with letters: as printed and strong (or on a short
    /// row), or one slip away on a short row (`isNotAnItem`).
    func claims(_ set: CompiledRules.KeywordSet, _ w: WordLine, words: Int) -> Bool {
        if let kw = compiled.bestExact(set, in: w), kw.weight >= 0.9 || words <= 2 { return true }
        return words <= 2 && compiled.any(set, in: w) != nil
    }

    func isDiscount(_ l: ParseLine) -> Bool { compiled.anyExact(compiled.itemDiscount, in: l.words) != nil || compiled.any(compiled.discount, in: l.words) != nil }
    func isVoid(_ l: ParseLine) -> Bool { compiled.anyExact(compiled.itemVoid, in: l.words) != nil }

    func lineItems(_ lines: [ParseLine]) -> [LineItem] {
        let end = itemsEnd(lines)
        guard end > 0 else { return [] }
        var items: [LineItem] = []
        // Judged once a row: it scans the row for dates, and rows are asked about more than once.
        let notItem = lines[..<end].map { isNotAnItem($0) }
        let columnNames = self.columnNames(lines[..<end], notItem: notItem)
        /// A row with a name and no price, waiting for a row below with a price and no name.
        var pendingName: ParseLine?
        var running = Amount(0)
        /// The position in `lines` of the last item's row.
        var lastItemRow: Int?
        /// The row below that named the last item ("9551234500017 2 2.50 5.00" over "PENSIL 2B KOTAK"):
        /// it is no name waiting for the next row.
        var usedBelow: Int?
        /// The position in `lines` of the last row taken as a detail of the last item.
        var lastDetailRow: Int?
        for (k, l) in lines[..<end].enumerated() {
            // (The row's own array when none is a percentage, the commonest: no copy made.)
            var prices = l.amounts.notPercentCount == l.amounts.count ? l.amounts : l.amounts.filter { !$0.isPercent }
            // "1.95 lb @ 0.30 / lb" with the row's own amount lost: no price of its own.
            if let last = prices.last, Self.perUnit(last, on: l) { prices = [] }
            // "RYE BREAD 3:49 D": a price with its point read as a colon, last on a named row among the items.
            if prices.isEmpty, !notItem[k], let p = Self.colonPrice(l) { prices = [p] }
            // "S/N: VT55-0098123" right under an item (or under its details or other serials): the unit's serial
            // number, whatever amount its digits read as ("IMEI 356938035643809" on a receipt in whole units).
            if let j = items.indices.last, let r = lastItemRow, r == k - 1 || lastDetailRow == k - 1, let serial = Self.itemSerial(l.text) {
                items[j].serials = (items[j].serials ?? []) + [serial]
                lastDetailRow = k
                pendingName = nil
                continue
            }
            guard let price = prices.last else {
                // "No Green Pepper", "+ Relish" right under an item (or under its other details): the item's, not a name
                // waiting for the next row's price. Unless the next row is that price, without a name of its own
                // ("- PK GREEN 80GRAMS" over "1 X 105.66": the name above its price, its mark a bullet), or the item
                // took it as its name from below.
                // (The row's own bytes asked first: few rows are details.)
                if let j = items.indices.last, let r = lastItemRow, r == k - 1 || lastDetailRow == k - 1, !notItem[k],
                   usedBelow != l.index, let detail = Self.itemDetail(l.text),
                   k + 1 >= end || !Self.isNamelessPriceRow(lines[k + 1]) {
                    items[j].details = (items[j].details ?? []) + [detail]
                    lastDetailRow = k
                    pendingName = nil
                    continue
                }
                pendingName = l.words.letterCount >= 3 && !notItem[k] ? l : nil
                continue
            }
            defer { pendingName = nil }
            // A discount or void printed under an item belongs to it.
            if !items.isEmpty, isVoid(l) {
                let v = price.amount.magnitude
                if let i = items.lastIndex(where: { $0.amount == v && $0.discount == nil }) {
                    items[i].discount = v
                    items[i].evidence.notes.append(.voidedBy(l.text))
                    running = running - v
                }
                continue
            }
            if price.negative || isDiscount(l) {
                let d = price.amount.magnitude
                if !items.isEmpty, d < items[items.count - 1].net || items[items.count - 1].net == d {
                    items[items.count - 1].discount = (items[items.count - 1].discount ?? Amount(0)) + d
                    items[items.count - 1].evidence.notes.append(.discountBelow(d, l.text))
                    running = running - d
                }
                continue
            }
            if notItem[k] { continue }
            // "PRECIO KILO 5.80" under "FILETE LOMO CERDO 0.742 KILOS 4.30": the weighed item's price per unit, not an
            // item; the weight times it is the item's amount.
            if let j = items.indices.last, lastItemRow == k - 1, items[j].unitPrice == nil, let q = items[j].quantity, !Self.isWhole(q),
               prices.count == 1, MoneyFields.same(price.amount * q, items[j].amount) {
                items[j].unitPrice = price.amount
                items[j].evidence.notes += [.quantityTimesUnit(q, price.amount, equals: items[j].amount), .unitPriceBelow(l.text)]
                continue
            }
            guard var item = item(l, price: price, prices: prices) else { continue }
            if letterCount(item.description) < 2 {
                // The name-only row right above, and whether it is the items' column heading (asked once).
                let above = pendingName.flatMap { $0.index == l.index - 1 ? $0 : nil }
                let aboveIsHeading = above.map(Self.isColumnHeading) ?? false
                if let name = columnNames[l.index] {
                    // Names in one column, prices in the next, read one after the other.
                    item.description = itemName(name.text)
                    item.evidence.notes.append(.nameFromColumn(name.text))
                } else if let above, above.index != usedBelow, !aboveIsHeading, case let name = itemName(above.text), letterCount(name) >= 2 {
                    // The name is on the row above ("BANANAS" over "1.23 lb @ 0.59/lb 0.73").
                    item.description = name
                    item.evidence.notes.append(.nameFromLineAbove(above.text))
                } else if let above, above.index == usedBelow || aboveIsHeading,
                          k + 1 < end, case let below = lines[k + 1], below.index == l.index + 1, below.amounts.isEmpty, !notItem[k + 1],
                          below.words.letterCount >= 3, !Self.isColumnHeading(below), case let name = itemName(below.text), letterCount(name) >= 2 {
                    // Right above it a column heading or the name the item before took from below: a row led by its
                    // code and prices, its name printed under it.
                    item.description = name
                    item.evidence.notes.append(.nameFromLineBelow(below.text))
                    usedBelow = below.index
                } else if aboveIsHeading {
                    // The first row under the heading, its name unread: an item still (its price counts in the sums),
                    // named by its code where it printed one, not by the heading; a small whole number first is its quantity.
                    let own = item.description
                    if !(own.count >= 5 && own.utf8.allSatisfy(Bytes.isDigit)) {
                        if item.quantity == nil, (1...2).contains(own.utf8.count), own.utf8.allSatisfy(Bytes.isDigit),
                           let q = Self.quantity(own), q > 0 { item.quantity = q }
                        item.description = ""
                    }
                } else {
                    continue
                }
            }
            // A row printing the sum of the items above it (two at least) is their subtotal, its word misread ("SubTor 48.35").
            if items.count >= 2, running.value > 0, MoneyFields.same(item.amount, running), item.quantity == nil { break }
            running = running + item.amount
            items.append(item)
            lastItemRow = k
        }
        return items
    }

    /// A row without a price that is a choice or change to the dish above it, as printed (spaces collapsed, OCR's marks
    /// at its ends left out): it starts with a mark that says so ("+ Relish", "- -Fries", "> Animal") or with a word that
    /// changes a dish ("No Green Pepper", "Add Cheese", "with Prawn &", "* Extra Hot", "Side Salad"), a word after it.
    /// Nil for anything else: a department's heading ("BAKERY"), a name waiting for its price, a line not ASCII.
    static func itemDetail(_ text: String) -> String? {
        Bytes.onPrintable(text) { b -> String? in
            var i = 0, end = b.count
            // OCR's marks at the ends: ": ", "| ", ". ".
            while i < end, b[i] == 0x20 || b[i] == UInt8(ascii: ":") || b[i] == UInt8(ascii: "|") || b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ",") { i += 1 }
            while end > i, b[end - 1] == 0x20 || b[end - 1] == UInt8(ascii: ":") || b[end - 1] == UInt8(ascii: "|") || b[end - 1] == UInt8(ascii: ",") { end -= 1 }
            guard end - i >= 3, end - i <= 48 else { return nil }
            // The marks first ("- -", "--", "+"), then a letter.
            var j = i, marks = 0
            while j < end, detailMarks.contains(b[j]) || b[j] == 0x20 { if b[j] != 0x20 { marks += 1 }; j += 1 }
            guard j < end, j - i <= 4, Bytes.isLetter(b[j]) else { return nil }
            // A plus, an arrow or a mark doubled says so; one "-" or "*" is as often a bullet before a name
            // ("- EAGLE F4 NUMBERING FOOLSCAP", "*RUNCIT"), or no mark: then a word that changes a dish, and a
            // word of two letters after it ("* Extra 1 Soy Cup", "No Green Pepper").
            let saysSo = marks >= 2 || (marks == 1 && b[i] != UInt8(ascii: "-") && b[i] != UInt8(ascii: "*"))
            if saysSo {
                var letters = 0
                for c in b[j..<end] where Bytes.isLetter(c) { letters += 1 }
                guard letters >= 2 else { return nil }
            } else {
                var w = j
                while w < end, b[w] != 0x20 { w += 1 }
                guard detailWords.contains(where: { $0.utf8CodeUnitCount == w - j && Bytes.says(b, j, $0) }) else { return nil }
                var rest = 0
                for c in b[w..<end] where Bytes.isLetter(c) { rest += 1 }
                guard rest >= 2 else { return nil }
            }
            return collapsingSpaces(String(decoding: UnsafeBufferPointer(rebasing: b[i..<end]), as: UTF8.self), spaces)
        } ?? nil
    }
    static let detailMarks = ByteSet("+-*>~=")

    /// The serial number a row gives, as printed: the row starts with a serial's label ("S/N", "SN", "Serial No.",
    /// "Serial #", "Ser#", "IMEI", any case; a bullet or OCR's mark before it), then the number: 4 to 40 characters
    /// of letters, digits, "-", "/" and "." (two spaces at most inside), at least four of them letters or digits and
    /// one a digit ("S/N: VT55-0098123" gives "VT55-0098123"). Nil for any other row: "SN CRACKERS", "Serial Adapter".
    static func itemSerial(_ text: String) -> String? {
        Bytes.onPrintable(text) { b -> String? in
            var i = 0
            while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "*") || b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: ":") || b[i] == UInt8(ascii: "|") { i += 1 }
            // (Most rows leave here: the label starts with an "s" or an "i".)
            guard i < b.count, b[i] | 0x20 == UInt8(ascii: "s") || b[i] | 0x20 == UInt8(ascii: "i") else { return nil }
            // (A label ends at a separator, or is one: "Ser#1234".)
            guard let label = serialLabels.first(where: { l in
                let n = l.utf8CodeUnitCount
                return n <= b.count - i && Bytes.says(b, i, l)
                    && (i + n == b.count || serialSeparators.contains(b[i + n]) || serialSeparators.contains(l.utf8Start[n - 1]))
            }) else { return nil }
            var j = i + label.utf8CodeUnitCount
            while j < b.count, serialSeparators.contains(b[j]) { j += 1 }
            var end = b.count
            while end > j, b[end - 1] == 0x20 || b[end - 1] == UInt8(ascii: ".") || b[end - 1] == UInt8(ascii: ",") || b[end - 1] == UInt8(ascii: ";") { end -= 1 }
            guard end - j >= 4, end - j <= 40 else { return nil }
            // (A word of four letters or more and no digit is a name's: "SN 2PK COOKIES".)
            var alnum = 0, digits = 0, spaces = 0, wordLetters = 0, wordDigits = 0
            for c in b[j..<end] {
                if Bytes.isDigit(c) { digits += 1; alnum += 1; wordDigits += 1 }
                else if Bytes.isLetter(c) { alnum += 1; wordLetters += 1 }
                else if c == 0x20 {
                    spaces += 1
                    if wordLetters >= 4 && wordDigits == 0 { return nil }
                    wordLetters = 0; wordDigits = 0
                } else if c != UInt8(ascii: "-") && c != UInt8(ascii: "/") && c != UInt8(ascii: ".") { return nil }
            }
            guard alnum >= 4, digits >= 1, spaces <= 2, wordLetters < 4 || wordDigits > 0 else { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: b[j..<end]), as: UTF8.self)
        } ?? nil
    }
    /// The labels of a serial number, lower case, the longer first where one starts another.
    static let serialLabels: [StaticString] = ["serial number", "serial num", "serial no.", "serial no", "serial nr", "serial #", "serial",
                                               "ser. no.", "ser no", "ser#", "s/n", "s.n.", "s/no", "sn#", "sn", "imei no.", "imei no", "imei"]
    /// What may follow a serial's label before the number.
    static let serialSeparators = ByteSet(" :#.=-")
    /// Words that start a change to a dish, lower case (in English, French, German, Spanish, Italian).
    static let detailWords: [StaticString] = ["no", "add", "extra", "xtra", "with", "w/", "w/o", "without", "side", "hold", "less", "light",
                                              "lite", "plus", "sub", "sans", "ohne", "mit", "sin", "con", "senza"]

    /// A row with an amount and no name before it ("1x 7.80 RM7.80", "1 1 2.40 0.00 2.40"): its name is elsewhere.
    static func isNamelessPriceRow(_ l: ParseLine) -> Bool {
        guard let first = l.amounts.first else { return false }
        return letterCount(l.textPrefix(first.position)) < 2
    }

    /// A column heading ("ITEM QTY U/P AMOUNT", "Description Qty Price Amount"): no amount, and two words at least
    /// that head an items table (words split at spaces, points and colons). It names no item.
    static func isColumnHeading(_ l: ParseLine) -> Bool { l.amounts.isEmpty && isColumnHeading(text: l.text) }
    /// Two words of `text` at least head an items table.
    static func isColumnHeading(text: String) -> Bool {
        // (On the line's bytes, no word made: the lower-cased copy and its split words were some 40,000 instructions
        // a receipt on the scans.)
        if let r = Bytes.onPrintable(text, { b -> Bool in
            func separates(_ c: UInt8) -> Bool { c == 0x20 || c == UInt8(ascii: ".") || c == UInt8(ascii: ":") }
            var n = 0, i = 0
            while i < b.count {
                while i < b.count, separates(b[i]) { i += 1 }
                var j = i
                while j < b.count, !separates(b[j]) { j += 1 }
                if j > i, columnWordList.contains(where: { $0.utf8CodeUnitCount == j - i && Bytes.says(b, i, $0) }) {
                    n += 1
                    if n >= 2 { return true }
                }
                i = j
            }
            return false
        }) { return r }
        return columnHeadingWords(text) >= 2
    }
    /// The words of `text` (split as `isColumnHeading` splits) that head an items table: the slow way, any text.
    static func columnHeadingWords(_ text: String) -> Int {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "." || $0 == ":" }).filter { columnWordSet.contains(String($0)) }.count
    }
    static let columnWordSet = Set(columnWordList.map { $0.description })
    static let columnWordList: [StaticString] = ["item", "items", "qty", "quantity", "price", "amount", "amt", "description", "desc",
                                                 "u/p", "unit", "disc", "disc%", "rsp", "total", "rm", "(rm)", "code", "tax"]

    /// A count, not a weight: no fraction.
    static func isWhole(_ q: Decimal) -> Bool {
        var x = q, r = Decimal()
        NSDecimalRound(&r, &x, 0, .plain)
        return r == q
    }

    /// Price row → name row, where OCR read a column of names and then the column of their prices: a run of
    /// rows with a name and no amount followed by a run of rows with an amount and no name, paired from the
    /// last name and price up.
    /// `notItem`: `isNotAnItem` of each row, by its position in `lines`.
    func columnNames(_ lines: ArraySlice<ParseLine>, notItem: [Bool]) -> [Int: ParseLine] {
        func isName(_ i: Int) -> Bool {
            let l = lines[i]
            return l.amounts.isEmpty && l.words.letterCount >= 3 && !notItem[i - lines.startIndex]
        }
        func isPrice(_ l: ParseLine) -> Bool {
            l.amounts.notPercentCount == 1 && l.words.letterCount <= 2
        }
        var out: [Int: ParseLine] = [:]
        var i = lines.startIndex
        while i < lines.endIndex {
            guard isName(i) else { i += 1; continue }
            var names: [ParseLine] = []
            while i < lines.endIndex, isName(i) { names.append(lines[i]); i += 1 }
            var prices: [ParseLine] = []
            while i < lines.endIndex, isPrice(lines[i]) { prices.append(lines[i]); i += 1 }
            // (The names nearest the prices: a heading or the shop's name may stand above them.)
            guard prices.count >= 2, names.count >= prices.count else { continue }
            for (n, p) in zip(names.suffix(prices.count), prices) { out[p.index] = n }
        }
        return out
    }

    /// One priced row as an item: its name (the text before the first amount, cleaned), the quantity and
    /// unit price where printed and backed by the arithmetic, its amount (the last on the row).
    func item(_ l: ParseLine, price last: FoundAmount, prices: [FoundAmount]) -> LineItem? {
        let firstAt = prices.first?.position ?? last.position
        var desc = String(l.textPrefix(firstAt))
        // "1,00 Ensalada Mixta 19,00": a quantity printed as an amount first, the name after it.
        if letterCount(desc) < 2, prices.count >= 2, let lead = prices.first, lead.amount.cents % 100 == 0,
           lead.amount.value >= 1, lead.amount.value <= 99,
           case let between = Self.droppingLeadingAmount(String(l.textPrefix(last.position))),
           letterCount(between) >= 2 {
            return LineItem(description: itemName(between), quantity: lead.amount.value, unitPrice: nil, amount: last.amount,
                            evidence: l.evidence(rule: "item.line", notes: last.repairs))
        }
        var qty: Decimal?
        var unit: Amount?
        var notes: [Note] = []
        let amount = last.amount
        func confirm(_ q: Decimal, _ u: Amount) -> Bool { MoneyFields.same(u * q, amount) }
        if let m = QuantityScanner.timesPrice(l.text),
           let q = m.groups[1].flatMap({ Self.positiveQuantity($0, posix: true) }),
           let u = m.groups[2].flatMap({ Amount(replacingOccurrences(in: $0, of: ",", with: ".")) }) {
            // "2 x 4.80 9.60", "1.23 lb @ 0.59": the unit price and quantity; the name is before them.
            desc = String(l.text[..<m.range.lowerBound])
            if confirm(q, u) || prices.count == 1 {
                qty = q; unit = u
                if confirm(q, u) { notes.append(.quantityTimesUnit(q, u, equals: amount)) }
            }
        } else if prices.count >= 2 {
            // Columns: [qty] name [qty] unit amount, the unit times the quantity the amount.
            let u = prices[prices.count - 2].amount
            let lead = QuantityScanner.leading(desc)
            let trail = QuantityScanner.trailing(desc)
            for (m, leading) in [(trail, false), (lead, true)] {
                guard let m, let q = m.groups[1].flatMap({ Self.positiveQuantity($0) }), confirm(q, u) else { continue }
                qty = q; unit = u
                desc = leading ? String(desc[m.range.upperBound...]) : String(desc[..<m.range.lowerBound])
                notes.append(.quantityTimesUnit(q, u, equals: amount))
                break
            }
        }
        // "Caesar 1 $9.00": one price, a count of one after the name: the quantity column.
        if qty == nil, prices.count == 1, desc.utf8.contains(UInt8(ascii: "1")), case let bare = itemName(desc), let m = QuantityScanner.trailing(bare),
           m.groups[1] == "1", bare[..<m.range.lowerBound].contains(where: \.isLetter) {
            qty = 1; unit = amount
            desc = String(bare[..<m.range.lowerBound])
        }
        if qty == nil, let m = QuantityScanner.prefix(desc), let q = m.groups[1].flatMap({ Self.quantity($0) }) {
            qty = q
            desc = String(desc[m.range.upperBound...])
        } else if qty == nil, let m = QuantityScanner.leading(desc), let q = m.groups[1].flatMap({ Self.positiveQuantity($0, atMost: 20) }),
                  !desc[m.range.upperBound...].hasPrefix(".") {
            // "1 Surf & Turf 8.49": a small number first, then a name, is how many.
            qty = q
            desc = String(desc[m.range.upperBound...])
        } else if qty == nil, let (q, rest) = Self.quantityReadAsTime(desc) {
            qty = q
            desc = rest
        }
        // "FILETE LOMO 0.742 KILOS", "APPLES 1.24 lb": a weight after the name is the quantity.
        if qty == nil, let m = Self.weightAfterName.matches(in: desc).last,
           let q = m.groups[1].flatMap({ Self.positiveQuantity($0, posix: true) }) {
            qty = q
            desc = String(desc[..<m.range.lowerBound])
        }
        let name = itemName(desc)
        return LineItem(description: name, quantity: qty, unitPrice: unit, amount: amount,
                        evidence: l.evidence(rule: "item.line", notes: notes + last.repairs))
    }

    /// `Decimal(string: s)` as the item rules read a quantity (`posix`: of `s` with its commas made points, in the POSIX
    /// locale): a run of one to eighteen ASCII digits made from the integer it spells (the same Decimal, byte for byte),
    /// without Foundation's scan (some 2,800 instructions a quantity); anything else through the string.
    /// `HandScannerTests` holds the two together.
    static func quantity(_ s: String, posix: Bool = false) -> Decimal? {
        if let m = digitsValue(s) { return Decimal(m) }
        return posix ? Decimal(string: replacingOccurrences(in: s, of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX"))
                     : Decimal(string: s)
    }

    /// The integer a run of one to eighteen ASCII digits spells; nil for anything else.
    private static func digitsValue(_ s: String) -> UInt64? {
        let u = s.utf8
        guard !u.isEmpty, u.count <= 18, u.allSatisfy(Bytes.isDigit) else { return nil }
        var m: UInt64 = 0
        for c in u { m = m * 10 + UInt64(c &- 0x30) }
        return m
    }

    /// `quantity(s, posix:)` when it is above 0 (and at most `limit`), else nil: on a run of digits asked of their
    /// integer, not of the Decimal (a Decimal comparison is about 1,100 instructions). `HandScannerTests` holds it to
    /// the comparisons.
    static func positiveQuantity(_ s: String, posix: Bool = false, atMost limit: UInt64? = nil) -> Decimal? {
        if let m = digitsValue(s) { return m > 0 && m <= limit ?? .max ? Decimal(m) : nil }
        guard let q = quantity(s, posix: posix), q > 0, limit.map({ q <= Decimal($0) }) ?? true else { return nil }
        return q
    }

    /// "1:00 Lomo Plancha": a quantity printed "1,00" (whole, two decimals), its comma read as a colon, then
    /// the name; the quantity and the name after it. (No time of day: it stands first on a priced row.)
    static func quantityReadAsTime(_ desc: String) -> (Decimal, String)? {
        let b = Array(desc.utf8)
        var i = 0
        while i < b.count, b[i] == 0x20 { i += 1 }
        var j = i
        while j < b.count, Bytes.isDigit(b[j]) { j += 1 }
        guard j - i == 1 || j - i == 2, j + 4 < b.count, b[j] == UInt8(ascii: ":") || b[j] == UInt8(ascii: ";"),
              b[j + 1] == UInt8(ascii: "0"), b[j + 2] == UInt8(ascii: "0"), b[j + 3] == 0x20 else { return nil }
        let q = b[i..<j].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        var k = j + 3
        while k < b.count, b[k] == 0x20 { k += 1 }
        let rest = String(decoding: b[k...], as: UTF8.self)
        guard q > 0, letterCount(rest) >= 2 else { return nil }
        return (Decimal(q), rest)
    }

    /// "1.95 lb @ 0.30 / lb": a weight, or a price for one unit of weight printed beside it: not what the row costs.
    static func perUnit(_ a: FoundAmount, on l: ParseLine) -> Bool {
        // (Positions count characters: on text that is not ASCII this rule does not look. The bytes are read in
        // place, from the amount on: asked of every priced row among the items.)
        guard l.words.textIsASCII else { return false }
        var text = l.text
        return text.withUTF8 { b in
            guard a.position < b.count else { return false }
            var i = a.position
            // The amount's own characters ("0 .30": a space OCR put before the point), then maybe "/", then the unit.
            func amountByte(_ i: Int) -> Bool {
                let c = b[i]
                if Bytes.isDigit(c) || c == UInt8(ascii: ".") || c == UInt8(ascii: ",") || c == UInt8(ascii: "-") { return true }
                return c == 0x20 && i + 1 < b.count && (b[i + 1] == UInt8(ascii: ".") || b[i + 1] == UInt8(ascii: ","))
            }
            while i < b.count, amountByte(i) { i += 1 }
            while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "/") { i += 1 }
            var j = i
            while j < b.count, Bytes.isAlnum(b[j]) { j += 1 }
            // "lb", OCR's "Ib" and "1b", "kg", "oz".
            return Self.weightUnits.contains { u in u.count == j - i && u.indices.allSatisfy { b[i + $0] | 0x20 == u[$0] } }
        }
    }
    static let weightUnits: [[UInt8]] = ["lb", "lbs", "ib", "ibs", "1b", "kg", "kgs", "oz", "kilo", "kilos"].map { Array($0.utf8) }

    /// The row's price when OCR read its decimal point as a colon: "GLAZED CARROTS 2:75", "TURKEY 240 2:98 TF" (a tax
    /// flag of one or two capitals may follow). Only last on the row, after a word of two letters, one to three
    /// digits before the colon and two after: a time of day inside the items is rarer than this slip.
    static func colonPrice(_ l: ParseLine) -> FoundAmount? {
        let text = l.text
        // (Most rows have no colon with two digits after it: asked on the bytes before anything is made.)
        var u = text.utf8.reversed().makeIterator()
        var digitsAfter = 0, seen = false
        while let c = u.next() {
            if c == UInt8(ascii: ":") { if digitsAfter == 2 { seen = true; break }; digitsAfter = 0 } else if Bytes.isDigit(c) { digitsAfter += 1 } else { digitsAfter = 0 }
        }
        guard seen else { return nil }
        var words = splitOnSpaces(text)
        if let last = words.last, last.count <= 2, last.utf8.allSatisfy({ $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) {
            // "5:11 PM", "5:11 PH": a time of day.
            if last.count == 2, last.hasPrefix("P") || last.hasPrefix("A"), last.hasSuffix("M") || last.hasSuffix("H") { return nil }
            words.removeLast()
        } else if let last = words.last, last.utf8.count <= 2, words.count >= 3, last.utf8.allSatisfy({ !Bytes.isAlnum($0) }) {
            // "SILKA HAND LOTION 3:28 &": a tax flag read as a sign, which a price with its point keeps after it too.
            words.removeLast()
        }
        // ("TIME: 1:12", "Time 11:06": the line's words, not its space-split ones, which keep the colon.)
        if l.words.has(" time ") { return nil }
        guard words.count >= 2, let w = words.last else { return nil }
        // "Jul/ 15/201 A842 12:25", "REG 22-08*2014 21:11": a date OCR broke, and the time beside it.
        if words.dropLast().contains(where: Self.dateFragment) { return nil }
        let b = Array(w.utf8)
        guard let colon = b.firstIndex(of: UInt8(ascii: ":")), (1...3).contains(colon), b.count == colon + 3,
              b.indices.allSatisfy({ $0 == colon || Bytes.isDigit(b[$0]) }),
              words.dropLast().contains(where: { letterCount($0) >= 2 }),
              let a = Amount(String(decoding: b[..<colon], as: UTF8.self) + "." + String(decoding: b[(colon + 1)...], as: UTF8.self)) else { return nil }
        let at = text.distance(from: text.startIndex, to: w.startIndex)
        return FoundAmount(amount: a, position: at, repairs: [.colonForDecimalPoint], negative: false, isPercent: false)
    }

    /// A word that is part of a date: a year ("2014", "22-08*2014") or a month's short name with a digit or a
    /// slash ("Jul/", "15Mar").
    static func dateFragment(_ w: Substring) -> Bool {
        let b = Array(w.utf8)
        var i = 0
        while i < b.count {
            guard Bytes.isDigit(b[i]) else { i += 1; continue }
            var j = i
            while j < b.count, Bytes.isDigit(b[j]) { j += 1 }
            if j - i == 4, (b[i] == UInt8(ascii: "1") && b[i + 1] == UInt8(ascii: "9")) || (b[i] == UInt8(ascii: "2") && b[i + 1] == UInt8(ascii: "0")) { return true }
            i = j
        }
        let letters = b.filter { Bytes.isLetter($0) }.map { $0 | 0x20 }
        guard letters.count == 3, b.contains(where: { Bytes.isDigit($0) || $0 == UInt8(ascii: "/") }) else { return false }
        return monthAbbreviations.contains(letters)
    }
    static let monthAbbreviations: [[UInt8]] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"].map { Array($0.utf8) }

    /// An amount first on a row ("1,00 Ensalada Mixta"), with what stands before it.
    static let leadingAmount = Pattern(#"^\W*\d+[.,]\d{2}"#, caseInsensitive: false)
    // What `itemName` takes away, compiled once (not once a row).
    // (`mayMatch`: what any match needs, on printable ASCII.)
    static let spaces = Pattern(#"\s+"#, caseInsensitive: false)
    static let leadingMarks = Pattern(#"^[^\p{L}\p{N}]+"#, caseInsensitive: false, mayMatch: { $0.first.map { !Bytes.isAlnum($0) } ?? false })
    static let trailingMarks = Pattern(#"[\s@=~:;,_\-—–|*'"‘’“”.(]+$"#, caseInsensitive: false,
                                       mayMatch: { $0.last.map { " @=~:;,_-|*'\".(".utf8.contains($0) } ?? false })
    static let trailingCurrencyWord = Pattern(#"\s+(?:[$£€¥]|RM|Rs\.?|USD|EUR|GBP|MYR|SGD|CAD|AUD|kr)$"#, caseInsensitive: true,
                                              mayMatch: { lastWord($0).map { ["$", "rm", "rs", "rs.", "usd", "eur", "gbp", "myr", "sgd", "cad", "aud", "kr"].contains($0.lowercased()) } ?? false })
    static let trailingCurrencySign = Pattern(#"\s*[$£€¥]$"#, caseInsensitive: false, mayMatch: { $0.last == UInt8(ascii: "$") })
    static let trailingTaxFlag = Pattern(#"\s+(?:[A-Z]|TF|TX|FT|NT|SR|ZR|<[A-Z]>?)$"#, caseInsensitive: false, mayMatch: { b in
        guard let w = lastWord(b) else { return false }
        let u = Array(w.utf8)
        if u.count == 1 { return u[0] >= UInt8(ascii: "A") && u[0] <= UInt8(ascii: "Z") }
        return ["TF", "TX", "FT", "NT", "SR", "ZR"].contains(w) || u.first == UInt8(ascii: "<")
    })
    /// `leadingMarks.replacing(in: s, with: "")`; on printable ASCII by hand (the marks are what is not a letter or
    /// a digit, the match the run of them that starts the text).
    /// (On a line of Latin letters and signs too: a letter is `\p{L}`, a neutral sign neither `\p{L}` nor `\p{N}`.)
    static func droppingLeadingMarks(_ s: String) -> String {
        trimmedSimple(s, leadingMarksBounds) ?? leadingMarks.replacing(in: s, with: "")
    }
    /// `droppingLeadingMarks`'s cut of the bytes `b` (what is kept), as `itemNamePrintable` asks it too.
    static func leadingMarksBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        var i = 0
        while i < b.count {
            if b[i] < 0x80 { if Bytes.isAlnum(b[i]) { break }; i += 1; continue }
            guard let (u, n) = Bytes.scalar(b, at: i), Bytes.latinLower(u) == nil else { break }
            i += n
        }
        return (i, b.count)
    }

    /// `leadingAmount.replacing(in: s, with: "")`; on printable ASCII by hand (the expression is anchored, and each of
    /// its runs is the longest: no digit is a mark (`\W`), and no digit is a point or a comma, so it matches there or
    /// nowhere).
    static func droppingLeadingAmount(_ s: String) -> String {
        trimmedPrintable(s) { b in
            var i = 0
            while i < b.count, !Bytes.isAlnum(b[i]), b[i] != UInt8(ascii: "_") { i += 1 }
            let digits = i
            while i < b.count, Bytes.isDigit(b[i]) { i += 1 }
            guard i > digits, i + 3 <= b.count,
                  b[i] == UInt8(ascii: ".") || b[i] == UInt8(ascii: ","), Bytes.isDigit(b[i + 1]), Bytes.isDigit(b[i + 2]) else { return (0, b.count) }
            return (i + 3, b.count)
        } ?? leadingAmount.replacing(in: s, with: "")
    }

    /// `trailingMarks.replacing(in: s, with: "")`; on printable ASCII by hand (the leftmost match is the run of
    /// marks that ends the text, all of it).
    /// (On a line of Latin letters and signs too: of the marks not ASCII, "—", "–", "“" and "”" may stand there; "‘" and
    /// "’" are no neutral signs.)
    static func droppingTrailingMarks(_ s: String) -> String {
        trimmedSimple(s, trailingMarksBounds) ?? trailingMarks.replacing(in: s, with: "")
    }
    /// `droppingTrailingMarks`'s cut of the bytes `b` (what is kept), as `itemNamePrintable` asks it too.
    static func trailingMarksBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        var end = b.count
        while end > 0 {
            if b[end - 1] < 0x80 { if trailingMarkBytes.contains(b[end - 1]) { end -= 1; continue } else { break } }
            let start = Bytes.scalarStart(b, before: end)
            guard let (u, _) = Bytes.scalar(b, at: start), u == "—" || u == "–" || u == "“" || u == "”" else { break }
            end = start
        }
        return (0, end)
    }
    /// `trailingMarks`' characters that are printable ASCII.
    static let trailingMarkBytes = ByteSet(" @=~:;,_-|*'\".(")

    /// Where the match of `\s+W$` starts in printable ASCII `b`, `W` the text after the last space when `word` takes
    /// it (`b.count`: no match). There `\s` is a space and `$` the end, and `W` holds no space: the leftmost match
    /// is the whole run of spaces before the last word, and that word.
    static func startOfSpacedLastWord(_ b: UnsafeBufferPointer<UInt8>, _ word: (UnsafeBufferPointer<UInt8>) -> Bool) -> Int {
        guard let i = b.lastIndex(of: 0x20), i + 1 < b.count, word(UnsafeBufferPointer(rebasing: b[(i + 1)...])) else { return b.count }
        var j = i
        while j > 0, b[j - 1] == 0x20 { j -= 1 }
        return j
    }

    /// `trailingCurrencyWord.replacing(in: s, with: "")`; on printable ASCII by hand (a speed trick: `mayMatch` made a
    /// string of the last word, and the expression ran on every name it let through): of its signs only "$" is
    /// ASCII, and its words are matched in any case.
    /// (On a line of Latin letters and signs too: no letter there folds to a letter of ASCII, and "£", "¥" and "€" are
    /// their bytes.)
    static func droppingTrailingCurrencyWord(_ s: String) -> String {
        trimmedSimple(s, trailingCurrencyWordBounds) ?? trailingCurrencyWord.replacing(in: s, with: "")
    }
    /// `droppingTrailingCurrencyWord`'s cut of the bytes `b` (what is kept), as `itemNamePrintable` asks it too.
    static func trailingCurrencyWordBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        (0, startOfSpacedLastWord(b) { w in
            switch w.count {
            case 1: return w[0] == UInt8(ascii: "$")
            case 2: return Bytes.says(w, 0, "rm") || Bytes.says(w, 0, "rs") || Bytes.says(w, 0, "kr")
                || w[0] == 0xC2 && (w[1] == 0xA3 || w[1] == 0xA5)
            case 3:
                return w[0] == 0xE2 && w[1] == 0x82 && w[2] == 0xAC
                    || Bytes.says(w, 0, "rs.") || Bytes.says(w, 0, "usd") || Bytes.says(w, 0, "eur") || Bytes.says(w, 0, "gbp")
                    || Bytes.says(w, 0, "myr") || Bytes.says(w, 0, "sgd") || Bytes.says(w, 0, "cad") || Bytes.says(w, 0, "aud")
            default: return false
            }
        })
    }

    /// `trailingCurrencySign.replacing(in: s, with: "")`; on printable ASCII by hand: a "$" that ends the text, and the
    /// run of spaces before it (the leftmost match takes them all).
    /// (On a line of Latin letters and signs too: "£", "¥" and "€" found by their bytes.)
    static func droppingTrailingCurrencySign(_ s: String) -> String {
        trimmedSimple(s, trailingCurrencySignBounds) ?? trailingCurrencySign.replacing(in: s, with: "")
    }
    /// `droppingTrailingCurrencySign`'s cut of the bytes `b` (what is kept), as `itemNamePrintable` asks it too.
    static func trailingCurrencySignBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        let n = b.count
        let sign = b.last == UInt8(ascii: "$") ? 1
            : n >= 2 && b[n - 2] == 0xC2 && (b[n - 1] == 0xA3 || b[n - 1] == 0xA5) ? 2
            : n >= 3 && b[n - 3] == 0xE2 && b[n - 2] == 0x82 && b[n - 1] == 0xAC ? 3 : 0
        guard sign > 0 else { return (0, b.count) }
        var j = b.count - sign
        while j > 0, b[j - 1] == 0x20 { j -= 1 }
        return (0, j)
    }

    /// `trailingTaxFlag.replacing(in: s, with: "")`; on printable ASCII by hand (case matters): a capital, one of the
    /// two-letter flags, or "<", a capital and maybe ">".
    /// (On a line of Latin letters and signs too: a last word of such a character is no capital of ASCII or flag.)
    static func droppingTrailingTaxFlag(_ s: String) -> String {
        trimmedSimple(s, trailingTaxFlagBounds) ?? trailingTaxFlag.replacing(in: s, with: "")
    }
    /// `droppingTrailingTaxFlag`'s cut of the bytes `b` (what is kept), as `itemNamePrintable` asks it too.
    static func trailingTaxFlagBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        (0, startOfSpacedLastWord(b) { w in
            switch w.count {
            case 1: return Bytes.isCapital(w[0])
            case 2:
                if w[0] == UInt8(ascii: "<") { return Bytes.isCapital(w[1]) }
                let pair = UInt16(w[0]) << 8 | UInt16(w[1])
                return taxFlagPairs.contains(pair)
            case 3: return w[0] == UInt8(ascii: "<") && Bytes.isCapital(w[1]) && w[2] == UInt8(ascii: ">")
            default: return false
            }
        })
    }
    /// The name without the GST code a Malaysian till prints before it with a colon ("SR: PENSIL 2B KOTAK",
    /// "ZRL:TEPUNG 1KG"): standard or zero rated, exempt, out of scope. Other prefixes ("KB-ROTI", "T-Kaya Bun",
    /// "FG-100") are the shop's own and kept.
    static func droppingLeadingTaxCode(_ s: String) -> String {
        guard let colon = s.utf8.prefix(5).firstIndex(of: UInt8(ascii: ":")) else { return s }
        let code = s[..<colon].trimmingCharacters(in: .whitespaces)
        guard leadingTaxCodes.contains(code) else { return s }
        let rest = s[s.index(after: colon)...].drop { $0 == " " }
        return rest.filter(\.isLetterQuick).count >= 2 ? String(rest) : s
    }
    static let leadingTaxCodes: Set<String> = ["SR", "ZR", "ZRL", "ZRE", "ES", "OS"]

    /// `droppingLeadingTaxCode` of printable ASCII, as bounds: a colon among the first five bytes, the bytes before it
    /// less the spaces around them one of `leadingTaxCodes`, and two letters at least after it; the spaces after
    /// the colon go too.
    static func leadingTaxCodeBounds(_ b: UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int) {
        guard let colon = b.prefix(5).firstIndex(of: UInt8(ascii: ":")) else { return (0, b.count) }
        var i = 0, j = colon
        while i < j, b[i] == 0x20 { i += 1 }
        while j > i, b[j - 1] == 0x20 { j -= 1 }
        let code = UnsafeBufferPointer(rebasing: b[i..<j])
        guard leadingTaxCodeBytes.contains(where: { $0.elementsEqual(code) }) else { return (0, b.count) }
        var k = colon + 1
        while k < b.count, b[k] == 0x20 { k += 1 }
        var letters = 0
        for c in b[k...] where Bytes.isLetter(c) { letters += 1; if letters >= 2 { return (k, b.count) } }
        return (0, b.count)
    }
    /// `leadingTaxCodes` as bytes (capitals of ASCII all).
    static let leadingTaxCodeBytes: [[UInt8]] = leadingTaxCodes.map { Array($0.utf8) }

    /// `trailingTaxFlag`'s two-letter flags, their two bytes as one number.
    static let taxFlagPairs: Set<UInt16> = Set(["TF", "TX", "FT", "NT", "SR", "ZR"].map { f in f.utf8.reduce(0) { $0 << 8 | UInt16($1) } })

    /// The text after the last space, when a space stands before it (and it is not empty).
    static func lastWord(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        guard let i = b.lastIndex(of: 0x20), i + 1 < b.count else { return nil }
        return String(decoding: UnsafeBufferPointer(rebasing: b[(i + 1)...]), as: UTF8.self)
    }

    /// An item's name as printed, without what OCR and the till put around it: leading marks ("| ", "— ",
    /// "* "), a currency sign or word and a tax flag at the end ("$", "£", "RM", " A", " TF", "<A>").
    func itemName(_ s: String) -> String {
        if let n = Self.itemNamePrintable(s) { return n }
        return itemNameStepByStep(s)
    }

    /// `itemNameStepByStep` of printable ASCII, its steps each a cut of the part of the bytes left (nil for any other
    /// text). There every step's result is printable ASCII again, and each is a cut from the front or the back
    /// (but collapsing the spaces, done first), so the steps' bounds are asked of what is left in turn, and one string
    /// made at the end. (A speed trick: each step walked the name, and most made a string of their own: some 4,700
    /// instructions a priced row.) `HandScannerTests` holds the two together.
    static func itemNamePrintable(_ s: String) -> String? {
        Bytes.onPrintable(s) { b in
            // Each run of spaces one space (`collapsingSpaces`: `\s` is the space here), on a copy only where there is one.
            Bytes.collapsedSpaces(b).map { $0.withUnsafeBufferPointer(nameOfPrintable) } ?? nameOfPrintable(b)
        }
    }

    /// `itemNamePrintable` of printable ASCII with no two spaces in a row.
    private static func nameOfPrintable(_ b: UnsafeBufferPointer<UInt8>) -> String {
        var lo = 0, hi = b.count
        func cut(_ bounds: (UnsafeBufferPointer<UInt8>) -> (start: Int, end: Int)) {
            let (start, end) = bounds(UnsafeBufferPointer(rebasing: b[lo..<hi]))
            (lo, hi) = (lo + start, lo + max(start, end))
        }
        cut(leadingMarksBounds)
        cut(leadingTaxCodeBounds)
        for _ in 0..<3 {
            let before = (lo, hi)
            cut(trailingMarksBounds)
            cut(trailingCurrencyWordBounds)
            cut(trailingCurrencySignBounds)
            cut(trailingTaxFlagBounds)
            // (Each step cuts, never adds: the same text is the same bounds.)
            if before == (lo, hi) { break }
        }
        // (`MoneyFields.trimSpaces`: the space is its one character of printable ASCII.)
        while lo < hi, b[lo] == 0x20 { lo += 1 }
        while hi > lo, b[hi - 1] == 0x20 { hi -= 1 }
        let left = UnsafeBufferPointer(rebasing: b[lo..<hi])
        let name = String(decoding: left, as: UTF8.self)
        // (`withoutItemCodes` gives a name without a run of eight digits back as it is: asked here on the bytes.)
        return Bytes.hasRun(left, 8, Bytes.isDigit) ? withoutItemCodes(name) : name
    }

    /// `itemName` step by step, on any text.
    func itemNameStepByStep(_ s: String) -> String {
        var t = collapsingSpaces(s, Self.spaces)
        t = Self.droppingLeadingMarks(t)
        t = Self.droppingLeadingTaxCode(t)
        for _ in 0..<3 {
            let before = t
            t = Self.droppingTrailingMarks(t)
            t = Self.droppingTrailingCurrencyWord(t)
            t = Self.droppingTrailingCurrencySign(t)
            t = Self.droppingTrailingTaxFlag(t)
            if t == before { break }
        }
        return Self.withoutItemCodes(MoneyFields.trimSpaces(t))  // (Trim: Foundation's trim, without bridging ASCII)
    }

    /// The name without the barcode the till prints beside it: eight digits or more, first ("072145390016 HOSE
    /// CLAMP", "003318274 CHEW TOY") or last ("OAT MILK 4471209953"), a UPC or EAN, not the name.
    /// A shorter code (a PLU, "40112 KALE", "E 2207 FIGS") is printed as part of the name and kept;
    /// so is a code with less than two letters of name beside it.
    static func withoutItemCodes(_ name: String) -> String {
        // (A run of eight digits first, asked on the bytes: most names have none.)
        var run = 0, long = false
        for c in name.utf8 { run = Bytes.isDigit(c) ? run + 1 : 0; if run >= 8 { long = true; break } }
        guard long else { return name }
        var words = splitOnSpaces(name)
        guard words.count >= 2 else { return name }
        func barcode(_ w: Substring) -> Bool { w.utf8.count >= 8 && w.utf8.allSatisfy(Bytes.isDigit) }
        func letters(_ ws: ArraySlice<Substring>) -> Int { ws.reduce(0) { $0 + letterCount($1) } }
        var changed = false
        if barcode(words[0]), letters(words[1...]) >= 2 { words.removeFirst(); changed = true }
        if words.count >= 2, barcode(words[words.count - 1]), letters(words[..<(words.count - 1)]) >= 2 { words.removeLast(); changed = true }
        return changed ? words.joined(separator: " ") : name
    }

    /// The items' amounts (less their discounts) against the subtotal, else the total less the tax added
    /// on top, else the total.
    static func checkedItems(_ items: [LineItem], subtotal: Amount?, tax: Amount?, total: Amount?) -> ([LineItem], Check?) {
        var items = items
        // The total again as the last of several rows ("Totalesesseenet 226.60"): a total whose word OCR garbled. Not the
        // one priced row under free ones ("Choix de sauce Tomate 0,00" over "Pasta Chicken Alfredo 15,20"): it is the sale.
        if items.count >= 2, let t = total, let last = items.last, last.amount == t, t.value == 0 || items.dropLast().contains(where: { $0.net.value > 0 }) {
            items.removeLast()
        }
        guard !items.isEmpty else { return (items, nil) }
        var targets: [ItemsTarget] = []
        if let s = subtotal { targets.append(.subtotal(s)) }
        if let t = total {
            if let x = tax, x.value > 0, x < t, !targets.contains(where: { MoneyFields.same($0.amount, t - x) }) { targets.append(.totalLessTax(total: t, tax: x)) }
            targets.append(.total(t))
        }
        guard let first = targets.first else { return (items, nil) }
        func sum(_ x: [LineItem]) -> Amount { x.reduce(Amount(0)) { $0 + $1.net } }
        if let hit = targets.first(where: { MoneyFields.same($0.amount, sum(items)) }) { return (items, .lineItemsAddUp(count: items.count, to: hit)) }
        // One row (of three or more), or two (of five or more), that alone stand between the items and the sum:
        // rows that are no items (a garbled summary or payment word), the sum exact to the cent without them.
        if items.count >= 3 {
            for target in targets {
                let extra = sum(items) - target.amount
                guard extra.value > 0 else { continue }
                if let i = items.indices.reversed().first(where: { items[$0].net == extra }) {
                    var kept = items
                    kept.remove(at: i)
                    return (kept, .lineItemsAddUp(count: kept.count, to: target))
                }
                guard items.count >= 5 else { continue }
                for i in items.indices.reversed() {
                    for j in items.indices.reversed() where j < i && items[i].net + items[j].net == extra {
                        var kept = items
                        kept.remove(at: i); kept.remove(at: j)
                        return (kept, .lineItemsAddUp(count: kept.count, to: target))
                    }
                }
            }
        }
        return (items, .lineItemsDoNotAddUp(count: items.count, sum: sum(items), target: first))
    }
}
