import Foundation
import ReceiptModel

// The receipt number: the token with a digit after a keyword ("Invoice No: 000039121").

extension ReceiptParser {
    static let idToken = Pattern(#"[:#.\s]*([A-Z0-9][A-Z0-9\-/]{2,24})"#)

    func receiptNumber(_ lines: [ParseLine]) -> Field<String>? {
        let set = compiled.receiptNumberSet
        for l in lines {
            // (A keyword the line's signs rule out is not asked: `may` is false only where `contains` is. The
            // signs are asked before the keyword is taken out of the list: taking each element whole retained and
            // released its keyword, for every keyword on every line.)
            let w = l.words
            for i in compiled.receiptNumberKeywords.indices where w.may(set.signs[i], loosely: false) {
                let (kw, weight) = compiled.receiptNumberKeywords[i]
                guard w.contains(kw) else { continue }
                // The token after the keyword, with a digit in it.
                guard let r = rangeIgnoringCase(of: kw.raw, in: l.text) ?? rangeIgnoringCase(of: replacingOccurrences(in: kw.raw, of: " ", with: ""), in: l.text) else { continue }
                let after = String(l.text[r.upperBound...])
                for m in Self.idToken.matches(in: after.uppercased()) {
                    guard let tok = m.groups[1], tok.contains(where: \.isNumber) else { continue }
                    return Field(tok, confidence: 0.5 + 0.3 * weight, evidence: l.evidence(rule: "receipt-number.keyword", notes: [.afterKeyword(kw.raw)]))
                }
            }
        }
        return nil
    }
}
