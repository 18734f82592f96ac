import Foundation
import ReceiptModel

// The receipt number: the token with a digit after a keyword ("Invoice No: 000052817").

extension ReceiptParser {
    static let idToken = Pattern(#"[:#.\s]*([A-Z0-9][A-Z0-9\-/]{2,24})"#)

    /// The first of `idToken`'s matches in `s` whose token (group 1) holds a digit: on printable ASCII found by hand
    /// (`idTokenMatches`), else by the expression.
    static func firstIdToken(_ s: String) -> String? {
        if let found = Bytes.onPrintable(s, { b in
            idTokenMatches(b).first { b[$0.token].contains(where: Bytes.isDigit) }
                .map { String(decoding: UnsafeBufferPointer(rebasing: b[$0.token]), as: UTF8.self) }
        }) {
            return found
        }
        for m in idToken.matches(in: s) {
            guard let tok = m.groups[1], tok.contains(where: \.isNumber) else { continue }
            return tok
        }
        return nil
    }

    static let idTokenLead = ByteSet(":#. ")

    /// `idToken`'s matches in printable ASCII `b`, left to right (a speed trick: the expression cost some 12,000
    /// instructions a line). Its steps: from each place, any of ":#. ", then a letter or digit and two to 24 more of
    /// letters, digits, "-" and "/" (each run greedy, and what it takes cannot start what follows; case-insensitive);
    /// the next match searched from the end of the last. `HandScannerTests` holds it to the expression.
    static func idTokenMatches(_ b: UnsafeBufferPointer<UInt8>) -> [(whole: Range<Int>, token: Range<Int>)] {
        let n = b.count
        var out: [(whole: Range<Int>, token: Range<Int>)] = []
        var p = 0
        while p < n {
            var k = p
            while k < n, idTokenLead.contains(b[k]) { k += 1 }
            if k < n, Bytes.isAlnum(b[k]) {
                var j = k + 1
                while j < n, j - k - 1 < 24, Bytes.isAlnum(b[j]) || b[j] == UInt8(ascii: "-") || b[j] == UInt8(ascii: "/") { j += 1 }
                if j - k - 1 >= 2 {
                    out.append((p..<j, k..<j))
                    p = j
                    continue
                }
            }
            p += 1
        }
        return out
    }

    /// `byIndex` false: every keyword asked of every line (for the test that holds the line's bits to that).
    func receiptNumber(_ lines: [ParseLine], byIndex: Bool = true) -> Field<String>? {
        let set = compiled.receiptNumberSet
        // Keyword i on line l (the line `contains` it): the token after it, with a digit in it.
        func number(_ i: Int, _ l: ParseLine) -> Field<String>? {
            let (kw, weight) = compiled.receiptNumberKeywords[i]
            guard let r = rangeIgnoringCase(of: kw.raw, in: l.text) ?? rangeIgnoringCase(of: replacingOccurrences(in: kw.raw, of: " ", with: ""), in: l.text),
                  let tok = Self.firstIdToken(String(l.text[r.upperBound...]).uppercased()) else { return nil }
            return Field(tok, confidence: 0.5 + 0.3 * weight, evidence: l.evidence(rule: "receipt-number.keyword", notes: [.afterKeyword(kw.raw)]))
        }
        for l in lines {
            let w = l.words
            // The keywords on the line as printed or one slip away (`contains`), in order, read from its bits where it
            // has them (a speed trick: each keyword's signs were asked of every line, some 600 instructions a line).
            if byIndex, let h = w.hits(set, compiled.keywordIndex) {
                var found: Field<String>?
                h.forEachBit(of: h.exact(set), or: h.slipped(set, w, loosely: false), set) { i in
                    found = number(i, l)
                    return found == nil
                }
                if let found { return found }
                continue
            }
            // (A keyword the line's signs rule out is not asked: `may` is false only where `contains` is. The
            // signs are asked before the keyword is taken out of the list: taking each element whole retained and
            // released its keyword, for every keyword on every line.)
            for i in compiled.receiptNumberKeywords.indices where w.may(set.signs[i], loosely: false) {
                guard w.contains(compiled.receiptNumberKeywords[i].0) else { continue }
                if let f = number(i, l) { return f }
            }
        }
        return nil
    }
}
