import Foundation
import ReceiptModel

// How it was paid: a card word ("VISA", "girocard"), a masked card number ("****5068"), else a
// cash word on a line with an amount.

extension ReceiptParser {
    /// (`mayMatch`: four digits in a row, after two masking marks, "ending" or "last 4".)
    static let cardDigits = Pattern(#"(?:[*xX#•]{2,}[\s*xX#•\-]*|ending (?:in )?|last 4[:\s]*)(\d{4})(?!\d)"#, mayMatch: { b in
        guard Bytes.hasRun(b, 4, Bytes.isDigit) else { return false }
        if Bytes.hasRun(b, 2, { ReceiptParser.cardMasks.contains($0) }) { return true }
        let lower = b.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        return bytesContain(lower, "ending") || bytesContain(lower, "last 4")
    })

    static let cardMasks = ByteSet("*xX#")
    static let cardMaskRun = ByteSet(" *xX#-")

    /// The first `cardDigits` match's digits (its group 1) in `s`: found by hand on printable ASCII, else by the expression.
    /// A line whose only characters not ASCII are signs ("£12.50 •••• 1234": `Bytes.printableWithNeutralSigns`) and Latin
    /// letters ("Kartenzahlung •••• 1234 Ä") is read by hand too, on a stand-in: "•" as "#" (the expression's marks take
    /// both alike), any other sign as "%" (which it takes as it takes such a sign: in none of its classes, no digit, space
    /// or letter), a Latin letter as "z". The digits are the line's own.
    static func cardLast4(_ s: String) -> String? {
        if let found = Bytes.onPrintable(s, { b in cardDigitsFirst(b).map { String(decoding: UnsafeBufferPointer(rebasing: b[$0]), as: UTF8.self) } }) {
            return found
        }
        if let found = cardLast4OnStandIn(s) { return found }
        return cardDigits.matches(in: s).first?.groups[1] ?? nil
    }

    /// `cardLast4` of a line whose only characters not ASCII are signs and Latin letters, on its stand-in (nil: any
    /// other line). A Latin letter (`Bytes.latinLower`) is "z" there: a letter the expression takes as it takes such a
    /// letter (a letter of none of its literals, "x", "ending", "in", "last", and no "ss" a "ß" could fold to).
    @inline(never) static func cardLast4OnStandIn(_ s: String) -> String?? {
        s.utf8.withContiguousStorageIfAvailable { b -> String?? in
            guard Bytes.kinds(b).signsOrLetters else { return .none }
            let standIn = Bytes.standIn(b) { u in
                Bytes.latinLower(u) != nil ? UInt8(ascii: "z") : u == "\u{2022}" ? UInt8(ascii: "#") : UInt8(ascii: "%")
            }
            return .some(standIn.withUnsafeBufferPointer { sb in cardDigitsFirst(sb).map { String(decoding: UnsafeBufferPointer(rebasing: sb[$0]), as: UTF8.self) } })
        } ?? nil
    }

    /// Where the digits of `cardDigits`' first match are in printable ASCII `b` (a speed trick: the expression ran on
    /// every line with four digits in a row and two masking marks or "ending"/"last 4"). The expression's steps: the
    /// leftmost place where an alternative, in order, is followed by four digits and no fifth: two masking marks or
    /// more and any marks, spaces and dashes after them; "ending " and maybe "in "; "last 4" and any colons and spaces
    /// (case-insensitive; each run greedy, and nothing it takes could start the digits, so no other step matches).
    /// `HandScannerTests` holds it to the expression.
    static func cardDigitsFirst(_ b: UnsafeBufferPointer<UInt8>) -> Range<Int>? {
        let n = b.count
        guard Bytes.hasRun(b, 4, Bytes.isDigit) else { return nil }
        func four(_ k: Int) -> Range<Int>? {
            guard k + 4 <= n, Bytes.isDigit(b[k]), Bytes.isDigit(b[k + 1]), Bytes.isDigit(b[k + 2]), Bytes.isDigit(b[k + 3]),
                  k + 4 == n || !Bytes.isDigit(b[k + 4]) else { return nil }
            return k..<(k + 4)
        }
        func says(_ k: Int, _ word: StaticString) -> Bool { Bytes.says(b, k, word) }
        // (Each place asked by its first byte: a masking mark, "e" or "l" in either case. Any other byte starts no
        // alternative, and a place was asked all three, most of the cost on a line with a phone number or a year.)
        for p in 0..<n {
            let x = b[p]
            if cardMasks.contains(x) {
                var k = p + 1
                while k < n, cardMasks.contains(b[k]) { k += 1 }
                if k - p >= 2 {
                    while k < n, cardMaskRun.contains(b[k]) { k += 1 }
                    if let r = four(k) { return r }
                }
                continue
            }
            let lower = x | 0x20
            if lower == UInt8(ascii: "e"), says(p, "ending ") {
                if says(p + 7, "in "), let r = four(p + 10) { return r }
                if let r = four(p + 7) { return r }
            } else if lower == UInt8(ascii: "l"), says(p, "last 4") {
                var k = p + 6
                while k < n, b[k] == UInt8(ascii: ":") || b[k] == 0x20 { k += 1 }
                if let r = four(k) { return r }
            }
        }
        return nil
    }

    func payment(_ lines: [ParseLine]) -> (Field<String>?, Field<String>?) {
        var method: Field<String>?
        var last4: Field<String>?
        // `method`'s value, kept beside it, and whether `last4` is found (asking the fields copied them for every line).
        var methodValue: String?
        var haveLast4 = false
        for l in lines {
            if !haveLast4, let d = Self.cardLast4(l.text) {
                last4 = Field(d, confidence: 0.85, evidence: l.evidence(rule: "card.masked-number"))
                haveLast4 = true
            }
            if methodValue == nil || methodValue == "cash" {
                // (`any`: the first word of the list the line `contains`, the others refused by their signs.)
                let w = l.words
                if let card = compiled.any(compiled.cardWords, in: w) {
                    method = Field("card", confidence: 0.8, evidence: l.evidence(rule: "payment.card-word", notes: [.quoted(MoneyFields.trimSpaces(card.normalised))]))
                    methodValue = "card"
                } else if methodValue == nil, !l.amounts.isEmpty, let cash = compiled.any(compiled.cashWords, in: w) {
                    method = Field("cash", confidence: 0.7, evidence: l.evidence(rule: "payment.cash-word", notes: [.quoted(MoneyFields.trimSpaces(cash.normalised))]))
                    methodValue = "cash"
                }
            }
        }
        if last4 != nil, method == nil || method?.value == "cash" {
            method = Field("card", confidence: 0.7, evidence: last4!.evidence)
        }
        return (method, last4)
    }
}
