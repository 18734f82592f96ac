import Foundation
import ReceiptModel
import ReceiptSupport

/// An amount found in a line of text.
struct FoundAmount: Hashable {
    var amount: Amount
    /// Offset of the match in the line (characters), for "rightmost amount" decisions.
    var position: Int
    /// OCR repairs applied (`.lettersReadAsDigits`, `.spaceAroundDecimalPoint`); empty when read as printed.
    var repairs: [Note]
    var negative: Bool
    /// Followed by '%': a rate, not money.
    var isPercent: Bool
}

enum AmountScanner {
    // Letters OCR puts where digits were printed.
    static let lookalikes: [Character: Character] = ["O": "0", "o": "0", "D": "0", "Q": "0", "S": "5", "s": "5", "I": "1", "l": "1", "|": "1", "i": "1", "B": "8", "Z": "2", "z": "2", "g": "9"]

    // integer part (plain or with thousands groups), a decimal separator, two decimals.
    static let amount = Pattern(#"(?<![0-9.,/:])(-\s?)?((?:[0-9OoDSIl|B]{1,3}(?:[,.'][0-9OoDSIl|B]{3})+)|[0-9OoDSIl|Bi]{1,9})\s?([.,])\s?([0-9OoSsIl|BZzg]{2})(?![0-9A-Za-z]|[.,/-][0-9])(\s?%)?(-)?"#, caseInsensitive: false)

    /// "-.02" (a negative amount without its leading zero), read as "-0.02".
    static let bareCents = Pattern(#"(?<![0-9])-\s?\.(?=[0-9]{2}(?![0-9]))"#, caseInsensitive: false)
    /// A space OCR put after or before the decimal point: "39. 80", "39 .80".
    static let spaceAfterPoint = Pattern(#"[.,]\s[0-9OoSsIl|BZzg]{2}"#, caseInsensitive: false)
    static let spaceBeforePoint = Pattern(#"\s[.,]"#, caseInsensitive: false)

    /// `currencyWords`: lower-case words that may stand right before an amount ("rm" in "RM10.60").
    static func scan(_ line: String, currencyWords: Set<String> = ["rm", "eur", "usd", "myr", "gbp", "chf", "sgd"]) -> [FoundAmount] {
        var out: [FoundAmount] = []
        // "-.02": a negative amount printed without its leading zero (rounding lines).
        let line = line.contains("-.") ? bareCents.replacing(in: line, with: "-0.") : line
        // Character offsets counted on from the previous match (matches come in order): one walk of the line.
        var last = line.startIndex, offset = 0
        for m in amount.matches(in: line) {
            // Glued to a word: only a currency word may stand there ("RM10.60", not "X51.50").
            if m.range.lowerBound > line.startIndex, line[line.index(before: m.range.lowerBound)].isLetter {
                let word = line[..<m.range.lowerBound].reversed().prefix { $0.isLetter }
                let w = String(word.reversed()).lowercased()
                // Or a currency word with one letter misread ("RN10.05", "RH4.72"): same length, same first letter.
                let nearly = (2...3).contains(w.count) && currencyWords.contains { c in
                    c.count == w.count && c.first == w.first && EditDistance.withinOne(Array(c.utf8), Array(w.utf8))
                }
                guard currencyWords.contains(w) || nearly else { continue }
            }
            guard let intRaw = m.groups[2], let sep = m.groups[3], let fracRaw = m.groups[4] else { continue }
            var repairs: [Note] = []
            let (intDigits, intFixed) = fix(intRaw)
            let (fracDigits, fracFixed) = fix(fracRaw)
            // The integer part must hold a real digit; at most two letters repaired in all.
            guard intRaw.contains(where: \.isNumber), intFixed + fracFixed <= 2 else { continue }
            if intFixed + fracFixed > 0 { repairs.append(.lettersReadAsDigits("\(intRaw)\(sep)\(fracRaw)")) }
            let whole = String(line[m.range])
            if spaceAfterPoint.hasMatch(in: whole) || spaceBeforePoint.hasMatch(in: whole) {
                repairs.append(.spaceAroundDecimalPoint)
            }
            // Thousands separators: whatever is not the decimal separator.
            var integer = intDigits.filter(\.isNumber)
            if integer.count > 1, integer.first == "0" { integer = String(integer.drop { $0 == "0" }); if integer.isEmpty { integer = "0" } }
            guard let a = Amount("\(integer).\(fracDigits)") else { continue }
            let grouped = intDigits.contains { !$0.isNumber }
            // "1.234" style groups use the other separator than the decimal one.
            if grouped, intDigits.contains(Character(sep)) { continue }
            offset += line.distance(from: last, to: m.range.lowerBound)
            last = m.range.lowerBound
            out.append(FoundAmount(amount: a, position: offset, repairs: repairs,
                                   negative: m.groups[1] != nil || m.groups[6] != nil, isPercent: m.groups[5] != nil))
        }
        // "$43 70": after a currency sign, a space OCR read for the decimal point (faint on photos).
        // Only there: without the sign, "2 50" is a quantity and a price, or a code.
        if line.contains(where: { "$£€¥".contains($0) }) {
            for m in spaced.matches(in: line) {
                guard let i = m.groups[1], let f = m.groups[2], let a = Amount("\(i).\(f)") else { continue }
                let at = line.distance(from: line.startIndex, to: m.range.lowerBound)
                // Not where an amount was read already.
                guard !out.contains(where: { abs($0.position - at) <= 2 }) else { continue }
                out.append(FoundAmount(amount: a, position: at, repairs: [.spaceForDecimalPoint], negative: false, isPercent: false))
            }
            out.sort { $0.position < $1.position }
        }
        return out
    }

    /// A currency sign, up to four digits, one space, two digits, and no more digits, decimals or percent.
    static let spaced = Pattern(#"[$£€¥]\s?([0-9]{1,4}) ([0-9]{2})(?![0-9%]|[.,][0-9])"#, caseInsensitive: false)

    private static func fix(_ s: String) -> (String, Int) {
        var n = 0
        let fixed = String(s.map { ch -> Character in
            if let d = lookalikes[ch] { n += 1; return d }
            return ch
        })
        return (fixed, n)
    }
}
