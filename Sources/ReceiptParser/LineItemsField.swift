import Foundation
import ReceiptModel

// Line items: the priced lines above the totals block, with a quantity when one is printed.

extension ReceiptParser {
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
            desc = compiled.vendorText.clean(desc)
            guard desc.filter(\.isLetter).count >= 2 else { continue }
            let amount = last.negative ? Amount(0) - last.amount : last.amount
            items.append(LineItem(description: desc, quantity: qty, unitPrice: unit, amount: amount,
                                  evidence: l.evidence(rule: "item.line")))
        }
        return items
    }
}
