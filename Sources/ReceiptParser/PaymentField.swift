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

    func payment(_ lines: [ParseLine]) -> (Field<String>?, Field<String>?) {
        var method: Field<String>?
        var last4: Field<String>?
        // `method`'s value, kept beside it (asking the field copied it for every line).
        var methodValue: String?
        for l in lines {
            if last4 == nil, let m = Self.cardDigits.matches(in: l.text).first, let d = m.groups[1] {
                last4 = Field(d, confidence: 0.85, evidence: l.evidence(rule: "card.masked-number"))
            }
            if methodValue == nil || methodValue == "cash" {
                // (`any`: the first word of the list the line `contains`, the others refused by their signs.)
                let w = l.words
                if let card = compiled.any(compiled.cardWords, in: w) {
                    method = Field("card", confidence: 0.8, evidence: l.evidence(rule: "payment.card-word", notes: [.quoted(card.normalised.trimmingCharacters(in: .whitespaces))]))
                    methodValue = "card"
                } else if methodValue == nil, !l.amounts.isEmpty, let cash = compiled.any(compiled.cashWords, in: w) {
                    method = Field("cash", confidence: 0.7, evidence: l.evidence(rule: "payment.cash-word", notes: [.quoted(cash.normalised.trimmingCharacters(in: .whitespaces))]))
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
