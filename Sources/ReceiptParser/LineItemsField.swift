import Foundation
import ReceiptModel

// Line items as a receipt prints them: the priced rows above the totals block, each a name, the quantity
// and unit price where printed, and an amount; a name printed on its own row above its price joined to it;
// a discount or a void printed under an item attached to it; totals, tax, tender, change and loyalty rows
// never taken; their sum checked against the subtotal (or the total) once those are settled
// (`itemsCheck`).

extension ReceiptParser {
    static let quantityPrefix = Pattern(#"^\s*(\d{1,3})\s*[xX×@*]\s+"#)
    static let quantityTimesPrice = Pattern(#"(?<![\d.,])(\d{1,3}(?:[.,]\d{1,3})?)\s*(?:[xX×@*]|(?:lb|kg|KG|LB|Ib|kilos?|KILOS?)\s*@)\s*(?:RM|\$|€|£)?\s*(\d+[.,]\d{2})"#)
    /// A quantity first on the row: "2 Coffee", "1 x Tea" (not "2%", "3.EGG ROLL", a code "9988").
    static let leadingQuantity = Pattern(#"^\s*(\d{1,2})(?:\s*[xX×]\s*|\s+)(?=\S)"#)
    /// A quantity before the prices: "Oolong Tea 2 5.00 10.00", "Buns 1 45.00".
    static let trailingQuantity = Pattern(#"\s(\d{1,3})\s*[xX×]?\s*$"#)

    /// Where the items end: the first row of the totals block (a subtotal, a strong total, a tax with
    /// its amount, a payment), or the first row that prints the sum of the priced rows above it.
    func itemsEnd(_ lines: [ParseLine], money: MoneyFields) -> Int {
        var seenPrice = false
        for l in lines {
            let priced = l.amounts.contains { !$0.isPercent }
            defer { if priced { seenPrice = true } }
            guard seenPrice || priced else { continue }
            // (A column heading "Qty Price Subtotal" has no amount of its own.)
            if compiled.isSubtotal(l.words), priced || MoneyFields.pairedValue(l.index, lines, compiled) != nil { return l.index }
            if let kw = compiled.best(compiled.total, in: l.words), kw.weight >= 0.8, compiled.any(compiled.totalDistractors, in: l.words) == nil,
               priced || MoneyFields.pairedValue(l.index, lines, compiled) != nil { return l.index }
            if seenPrice, priced, compiled.best(compiled.tax, in: l.words) != nil, compiled.any(compiled.taxExclude, in: l.words) == nil { return l.index }
            if seenPrice, priced, compiled.any(compiled.cash, in: l.words) != nil || compiled.any(compiled.change, in: l.words) != nil { return l.index }
        }
        return lines.count
    }

    /// A row that has a price and is never an item: totals, tax, tender, change, loyalty, a header's numbers.
    func isNotAnItem(_ l: ParseLine) -> Bool {
        // A payment or total word: the row is that, unless the word is a weak one in a longer name ("CHOCOLATE BAR",
        // "CHICKEN TENDER", "NET BAG").
        let words = l.words.words.filter { $0.contains(where: \.isLetter) }.count
        for set in [compiled.total, compiled.subtotal, compiled.rounding, compiled.cash, compiled.change] {
            if let kw = compiled.best(set, in: l.words), kw.weight >= 0.95 || words <= 2 { return true }
        }
        if compiled.isSubtotal(l.words) { return true }
        if compiled.any(compiled.tax, in: l.words) != nil, compiled.any(compiled.taxExclude, in: l.words) == nil { return true }
        if compiled.anyExact(compiled.itemSkip, in: l.words) != nil { return true }
        if !DateScanner.scan(l.text, months: compiled.months).isEmpty { return true }
        return false
    }

    func isDiscount(_ l: ParseLine) -> Bool { compiled.anyExact(compiled.itemDiscount, in: l.words) != nil || compiled.any(compiled.discount, in: l.words) != nil }
    func isVoid(_ l: ParseLine) -> Bool { compiled.anyExact(compiled.itemVoid, in: l.words) != nil }

    func lineItems(_ lines: [ParseLine], money: MoneyFields) -> [LineItem] {
        let end = itemsEnd(lines, money: money)
        guard end > 0 else { return [] }
        var items: [LineItem] = []
        /// A row with a name and no price, waiting for a row below with a price and no name.
        var pendingName: ParseLine?
        var running = Amount(0)
        for l in lines[..<end] {
            let prices = l.amounts.filter { !$0.isPercent }
            guard let price = prices.last else {
                pendingName = l.words.letterCount >= 3 && compiled.anyExact(compiled.itemSkip, in: l.words) == nil && !isNotAnItem(l) ? l : nil
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
            if isNotAnItem(l) { continue }
            guard var item = item(l, price: price, prices: prices) else { continue }
            if item.description.filter(\.isLetter).count < 2 {
                // The name is on the row above ("BANANAS" over "1.23 lb @ 0.59/lb 0.73").
                guard let above = pendingName, above.index == l.index - 1 else { continue }
                let name = itemName(above.text)
                guard name.filter(\.isLetter).count >= 2 else { continue }
                item.description = name
                item.evidence.notes.append(.nameFromLineAbove(above.text))
            }
            // A row printing the sum of the items above it (two at least) is their subtotal, its word misread ("SubTor 50.45").
            if items.count >= 2, running.value > 0, MoneyFields.same(item.amount, running), item.quantity == nil { break }
            running = running + item.amount
            items.append(item)
        }
        return items
    }

    /// One priced row as an item: its name (the text before the first amount, cleaned), the quantity and
    /// unit price where printed and backed by the arithmetic, its amount (the last on the row).
    func item(_ l: ParseLine, price last: FoundAmount, prices: [FoundAmount]) -> LineItem? {
        let firstAt = prices.first?.position ?? last.position
        var desc = String(l.text.prefix(firstAt))
        var qty: Decimal?
        var unit: Amount?
        var notes: [Note] = []
        let amount = last.amount
        func confirm(_ q: Decimal, _ u: Amount) -> Bool { MoneyFields.same(u * q, amount) }
        if let m = Self.quantityTimesPrice.matches(in: l.text).first,
           let q = m.groups[1].flatMap({ Decimal(string: $0.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX")) }),
           let u = m.groups[2].flatMap({ Amount($0.replacingOccurrences(of: ",", with: ".")) }), q > 0 {
            // "2 x 4.80 9.60", "1.23 lb @ 0.59": the unit price and quantity; the name is before them.
            desc = String(l.text[..<m.range.lowerBound])
            if confirm(q, u) || prices.count == 1 {
                qty = q; unit = u
                if confirm(q, u) { notes.append(.quantityTimesUnit(q, u, equals: amount)) }
            }
        } else if prices.count >= 2 {
            // Columns: [qty] name [qty] unit amount, the unit times the quantity the amount.
            let u = prices[prices.count - 2].amount
            let lead = Self.leadingQuantity.matches(in: desc).first
            let trail = Self.trailingQuantity.matches(in: desc).last
            for (m, leading) in [(trail, false), (lead, true)] {
                guard let m, let q = m.groups[1].flatMap({ Decimal(string: $0) }), q > 0, confirm(q, u) else { continue }
                qty = q; unit = u
                desc = leading ? String(desc[m.range.upperBound...]) : String(desc[..<m.range.lowerBound])
                notes.append(.quantityTimesUnit(q, u, equals: amount))
                break
            }
        }
        if qty == nil, let m = Self.quantityPrefix.matches(in: desc).first, let q = m.groups[1].flatMap({ Decimal(string: $0) }) {
            qty = q
            desc = String(desc[m.range.upperBound...])
        } else if qty == nil, let m = Self.leadingQuantity.matches(in: desc).first, let q = m.groups[1].flatMap({ Decimal(string: $0) }),
                  q > 0, q <= 20, !desc[m.range.upperBound...].hasPrefix(".") {
            // "1 Black & Blue 7.39": a small number first, then a name, is how many.
            qty = q
            desc = String(desc[m.range.upperBound...])
        }
        let name = itemName(desc)
        return LineItem(description: name, quantity: qty, unitPrice: unit, amount: amount,
                        evidence: l.evidence(rule: "item.line", notes: notes + last.repairs))
    }

    /// An item's name as printed, without what OCR and the till put around it: leading marks ("| ", "— ",
    /// "* "), a currency sign or word and a tax flag at the end ("$", "£", "RM", " A", " TF", "<A>").
    func itemName(_ s: String) -> String {
        var t = s.replacingOccurrences(of: #"\s+"#, with: " ", options: .regularExpression)
        t = t.replacingOccurrences(of: #"^[^\p{L}\p{N}]+"#, with: "", options: .regularExpression)
        for _ in 0..<3 {
            let before = t
            t = t.replacingOccurrences(of: #"[\s@=~:;,_\-—–|*'"‘’“”.]+$"#, with: "", options: .regularExpression)
            t = t.replacingOccurrences(of: #"\s+(?:[$£€¥]|RM|Rs\.?|USD|EUR|GBP|MYR|SGD|CAD|AUD|kr)$"#, with: "", options: [.regularExpression, .caseInsensitive])
            t = t.replacingOccurrences(of: #"\s*[$£€¥]$"#, with: "", options: .regularExpression)
            t = t.replacingOccurrences(of: #"\s+(?:[A-Z]|TF|TX|FT|NT|SR|ZR|<[A-Z]>?)$"#, with: "", options: .regularExpression)
            if t == before { break }
        }
        return t.trimmingCharacters(in: .whitespaces)
    }

    /// The items' amounts (less their discounts) against the subtotal, else the total less the tax added
    /// on top, else the total. A row whose amount alone stands between them and the sum, and which is a
    /// summary amount read as an item (the subtotal, tax or total again), or the last row, is dropped.
    static func checkedItems(_ items: [LineItem], subtotal: Amount?, tax: Amount?, total: Amount?) -> ([LineItem], Check?) {
        var items = items
        // The total again as the last of several rows ("Totalesesseenet 226.60"): a total whose word OCR garbled.
        if items.count >= 2, let t = total, let last = items.last, last.amount == t { items.removeLast() }
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
        if items.count >= 3 {
            let summary = [subtotal, tax, total].compactMap { $0 }
            for target in targets {
                for i in items.indices.reversed() where MoneyFields.same(sum(items) - items[i].net, target.amount)
                    && (i == items.count - 1 || summary.contains(items[i].amount)) {
                    var kept = items
                    kept.remove(at: i)
                    return (kept, .lineItemsAddUp(count: kept.count, to: target))
                }
            }
        }
        return (items, .lineItemsDoNotAddUp(count: items.count, sum: sum(items), target: first))
    }
}
