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

    /// A sum of money above zero: no rate, no minus.
    var isPositiveMoney: Bool { !isPercent && !negative && amount.value > 0 }
}

extension [FoundAmount] {
    /// `filter { !$0.isPercent }.count`, counted in place (the filtered array was made, its amounts copied and
    /// retained, only to be counted).
    var notPercentCount: Int {
        var n = 0
        for a in self where !a.isPercent { n += 1 }
        return n
    }
}

enum AmountScanner {
    // Letters OCR puts where digits were printed.
    static let lookalikes: [Character: Character] = ["O": "0", "o": "0", "D": "0", "Q": "0", "S": "5", "s": "5", "I": "1", "l": "1", "|": "1", "i": "1", "B": "8", "Z": "2", "z": "2", "g": "9"]

    // integer part (plain or with thousands groups), a decimal separator, two decimals.
    static let amount = Pattern(#"(?<![0-9.,/:])(-\s?)?((?:[0-9OoDSIl|B]{1,3}(?:[,.'][0-9OoDSIl|B]{3})+)|[0-9OoDSIl|Bi]{1,9})\s?([.,])\s?([0-9OoSsIl|BZzg]{2})(?![0-9A-Za-z]|[.,/-][0-9])(\s?%)?(-)?"#, caseInsensitive: false)

    /// "-.02" (a negative amount without its leading zero), read as "-0.02".
    static let bareCents = Pattern(#"(?<![0-9])-\s?\.(?=[0-9]{2}(?![0-9]))"#, caseInsensitive: false)
    /// A space OCR put after or before the decimal point: "39. 80", "39 .80".
    static let spaceAfterPoint = Pattern(#"[.,]\s[0-9OoSsIl|BZzg]{2}"#, caseInsensitive: false, mayMatch: { Bytes.has($0, " ") })
    static let spaceBeforePoint = Pattern(#"\s[.,]"#, caseInsensitive: false, mayMatch: { Bytes.has($0, " ") })

    /// `amount`'s matches: by hand on a line of printable ASCII, else by the expression.
    static func amountMatches(_ line: String) -> [(groups: [String?], range: Range<String.Index>)] {
        let found: [(groups: [String?], range: Range<String.Index>)]? = line.utf8.withContiguousStorageIfAvailable { b in
            guard b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return nil }
            let u = line.utf8
            func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
            return AmountMatcher(b).all().map { m in
                let groups: [String?] = [text(m.whole), m.minus.map(text), text(m.integer), text(m.separator), text(m.fraction),
                                         m.percent.map(text), m.trailingMinus.map(text)]
                return (groups, u.index(u.startIndex, offsetBy: m.whole.lowerBound)..<u.index(u.startIndex, offsetBy: m.whole.upperBound))
            }
        } ?? nil
        return found ?? amount.matches(in: line)
    }

    /// ".54", "RM .00", "$.99": an amount under one printed without its leading zero (a tax, a change, a
    /// rounding), read as "0.54": a point at the start of the line or after a space or a currency sign, two
    /// digits after it and no third. (Not after a letter, a digit or another point: "No.12", "1.50", "...12"; nor
    /// after a digit and a space: "39 .80" is 39.80.)
    static func withLeadingZeros(_ line: String) -> String {
        // The points to put a zero before, found without copying the line (most lines have none).
        func points(_ u: UnsafeBufferPointer<UInt8>) -> [Int] {
            var at: [Int] = []
            for i in u.indices where u[i] == UInt8(ascii: ".") && i + 2 < u.count {
                if i > 0, u[i - 1] != UInt8(ascii: " "), u[i - 1] != UInt8(ascii: "$"), u[i - 1] != UInt8(ascii: "\t") { continue }
                // "39 .80": a space OCR put before the point of an amount (read as one, `spaceBeforePoint`).
                if i > 1, u[i - 1] == UInt8(ascii: " ") || u[i - 1] == UInt8(ascii: "\t"), Bytes.isDigit(u[i - 2]) { continue }
                guard Bytes.isDigit(u[i + 1]), Bytes.isDigit(u[i + 2]) else { continue }
                if i + 3 < u.count, Bytes.isDigit(u[i + 3]) || u[i + 3] == UInt8(ascii: ".") || u[i + 3] == UInt8(ascii: ",") { continue }
                at.append(i)
            }
            return at
        }
        var line = line
        return inserting(UInt8(ascii: "0"), before: line.withUTF8(points), in: line)
    }

    /// `currencyWords`: lower-case words that may stand right before an amount ("rm" in "RM11.70").
    /// `byBytes` false: the matches read from the expression's groups on every line (what `printableAmounts` stands for,
    /// and `HandScannerTests` holds it to).
    static func scan(_ line: String, currencyWords: Set<String> = ["rm", "eur", "usd", "myr", "gbp", "chf", "sgd"], byBytes: Bool = true) -> [FoundAmount] {
        var out: [FoundAmount] = []
        // What is asked of the line's bytes below, in one walk (nil: the string's bytes are not at hand).
        let signs = line.utf8.withContiguousStorageIfAvailable(LineSigns.init)
        // "-.02": a negative amount printed without its leading zero (rounding lines).
        let ascii = signs?.ascii ?? line.utf8.allSatisfy { $0 < 0x80 }
        // A line whose only characters not ASCII are signs ("£12.50": `Bytes.printableWithNeutralSigns`): each of them a
        // character of its own that no other joins, so its bytes or scalars searched are its characters searched.
        // So too a line of Latin letters and such signs ("Rückgeld 4,68 €": `Bytes.printableWithLatinLetters`): each letter
        // one character, in none of the expression's classes (`printableAmounts` keeps the letters' places for the glue).
        let signsOnly = !ascii && line.utf8.withContiguousStorageIfAvailable { Bytes.kinds($0).signsOrLetters } == true
        // (On ASCII, a byte search is `contains`; Foundation's, on anything else.)
        let hasMinusPoint = ascii || signsOnly ? signs?.minusPoint ?? bytesContain(Array(line.utf8), "-.")
                                               : line.contains("-.")
        // Every amount has its decimal point or comma: a line of printable ASCII without either has none (the
        // hand matcher would try each start in vain). `bareCents` puts "0." where "-." was, and `withLeadingZeros`
        // a "0" before a point, so the signs of the line as given hold for it too (printable, a point or comma, a "$").
        let noAmounts = signs.map { ($0.printable || signsOnly) && !$0.separator } ?? false
        let bare = hasMinusPoint ? bareCents.replacing(in: line, with: "-0.") : line
        let line = noAmounts || signs?.barePoint == false ? bare : Self.withLeadingZeros(bare)
        // On printable ASCII the matches read as the hand matcher gives them, as byte places (`printableAmounts`).
        // (A line that is not printable ASCII is read so too when its only other characters are signs: `printableAmounts`.)
        let printed = noAmounts || signs?.printable != true && !signsOnly || !byBytes ? nil
            : Self.printableAmounts(line, currencyWords: currencyWords)
        if let printed { out = printed }
        // Character offsets counted on from the previous match (matches come in order): one walk of the line.
        var last = line.startIndex, offset = 0
        for m in noAmounts || printed != nil ? [] : amountMatches(line) {
            // Glued to a word: only a currency word may stand there ("RM11.70", not "X51.50").
            if m.range.lowerBound > line.startIndex, line[line.index(before: m.range.lowerBound)].isLetterQuick {
                let word = line[..<m.range.lowerBound].reversed().prefix { $0.isLetterQuick }
                guard mayGlue(String(word.reversed()).lowercased(), currencyWords) else { continue }
            }
            guard let intRaw = m.groups[2], let sep = m.groups[3], let fracRaw = m.groups[4],
                  let (a, repairs) = Self.read(integer: intRaw, separator: sep, fraction: fracRaw, spaced: { String(line[m.range]) }) else { continue }
            offset += line.distance(from: last, to: m.range.lowerBound)
            last = m.range.lowerBound
            out.append(FoundAmount(amount: a, position: offset, repairs: repairs,
                                   negative: m.groups[1] != nil || m.groups[6] != nil, isPercent: m.groups[5] != nil))
        }
        // "$43 70": after a currency sign, a space OCR read for the decimal point (faint on photos).
        // Only there: without the sign, "2 50" is a quantity and a price, or a code.
        if ascii ? signs?.dollar ?? line.utf8.contains(UInt8(ascii: "$"))
                 : signsOnly ? line.unicodeScalars.contains(where: Self.isSpacedAmountSign) : line.contains(where: { "$£€¥".contains($0) }) {
            for m in spacedMatches(line, signsOrLetters: signsOnly) {
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

    /// One of the signs "$43 70" is read after: "$", "£", "€", "¥" (`"$£€¥".unicodeScalars.contains`, without the
    /// walk of the four a scalar of the line: a line of signs asked it of every scalar).
    @inline(__always) static func isSpacedAmountSign(_ u: Unicode.Scalar) -> Bool {
        switch u {
        case "$", "\u{00A3}", "\u{20AC}", "\u{00A5}": return true
        default: return false
        }
    }

    /// Whether the word `w` (lower case) glued before an amount may stand there: a currency word ("RM11.70", not
    /// "X51.50"), or one with a letter misread ("RN11.15", "RH4.72": same length, same first letter).
    static func mayGlue(_ w: String, _ currencyWords: Set<String>) -> Bool {
        currencyWords.contains(w) || (2...3).contains(w.count) && currencyWords.contains { c in
            c.count == w.count && c.first == w.first && EditDistance.withinOne(Array(c.utf8), Array(w.utf8))
        }
    }

    /// A match's amount from its integer part, separator and fraction as printed, with the repairs that read it
    /// (letters read as digits; a space around the point, asked of `spaced()`, the match's text, or nil when it
    /// holds no space); nil when it is no amount.
    static func read(integer intRaw: String, separator sep: String, fraction fracRaw: String,
                     spaced: () -> String?) -> (Amount, [Note])? {
        var repairs: [Note] = []
        // (Digits as printed, the commonest: nothing to repair, said on bytes.)
        let plainInt = intRaw.utf8.allSatisfy(Bytes.isDigit), plainFrac = fracRaw.utf8.allSatisfy(Bytes.isDigit)
        let (intDigits, intFixed) = plainInt ? (intRaw, 0) : fix(intRaw)
        let (fracDigits, fracFixed) = plainFrac ? (fracRaw, 0) : fix(fracRaw)
        // The integer part must hold a real digit; at most two letters repaired in all.
        guard plainInt || intRaw.contains(where: \.isNumber), intFixed + fracFixed <= 2 else { return nil }
        if intFixed + fracFixed > 0 { repairs.append(.lettersReadAsDigits("\(intRaw)\(sep)\(fracRaw)")) }
        if let whole = spaced(), spaceAfterPoint.hasMatch(in: whole) || spaceBeforePoint.hasMatch(in: whole) {
            repairs.append(.spaceAroundDecimalPoint)
        }
        // Thousands separators: whatever is not the decimal separator.
        var integer = plainInt ? intDigits : intDigits.filter(\.isNumber)
        if integer.count > 1, integer.first == "0" { integer = String(integer.drop { $0 == "0" }); if integer.isEmpty { integer = "0" } }
        guard let a = amount(integer: integer, fraction: fracDigits) else { return nil }
        let grouped = !plainInt && intDigits.contains { !$0.isNumber }
        // "1.234" style groups use the other separator than the decimal one.
        if grouped, intDigits.contains(Character(sep)) { return nil }
        return (a, repairs)
    }

    /// `scan`'s amounts of a line of printable ASCII (nil for any other), read from `AmountMatcher`'s matches as byte
    /// places, by the steps `scan` takes on the expression's groups: there a character is a byte (a match's place in
    /// characters is its place in bytes), a letter is A-Z or a-z and a number 0-9, and the space-around-the-point
    /// expressions, which need a space, are asked only of a match that holds one. (A speed trick: the groups made
    /// as strings, in an array for each match, and the string walks of each match were most of the scan.)
    ///
    /// A line whose only characters not ASCII are signs the expression cannot match (`Bytes.printableWithNeutralSigns`:
    /// "£12.50", "€ 9,80") is read as the line with "#" in each sign's place: the expression takes such a sign as it
    /// takes "#" (in none of its classes, no letter, digit or space), a match holds none, and each sign is one
    /// character, so a place in the stand-in's bytes is a place in the line's characters.
    static func printableAmounts(_ line: String, currencyWords: Set<String>) -> [FoundAmount]? {
        let r = line.utf8.withContiguousStorageIfAvailable { b -> [FoundAmount]? in
            if b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { return amounts(b, currencyWords) }
            if Bytes.printableWithNeutralSigns(b) { return Bytes.standIn(b).withUnsafeBufferPointer { amounts($0, currencyWords) } }
            // A line of Latin letters ("Rückgeld 4,68 €"): each letter stands as "#" too, as the expression takes it (in none
            // of its classes; it names no letter class but ASCII's), and its places are kept for the glue (below).
            guard Bytes.printableWithLatinLetters(b) else { return nil }
            var stand: [UInt8] = [], latin: [Bool] = []
            stand.reserveCapacity(b.count)
            latin.reserveCapacity(b.count)
            var i = 0
            while i < b.count {
                if b[i] < 0x80 { stand.append(b[i]); latin.append(false); i += 1; continue }
                let (u, n) = Bytes.scalar(b, at: i)!
                stand.append(UInt8(ascii: "#"))
                latin.append(Bytes.latinLower(u) != nil)
                i += n
            }
            return stand.withUnsafeBufferPointer { amounts($0, currencyWords, latin: latin) }
        }
        return r ?? nil
    }

    /// `printableAmounts` of the printable ASCII bytes `b`; `latin`, the places in `b` that stand for a Latin letter
    /// (a letter before an amount, as `scan` reads the line: the word glued to it holds it, and no such word may glue
    /// when every currency word is ASCII: a letter not ASCII is two bytes, and `mayGlue`'s one deletion leaves one of
    /// them). Nil where that would have to be asked of currency words not ASCII (the rules' may hold some): the caller
    /// then asks the expression. (Asked only there, not of every line: most lines glue no letter to an amount.)
    private static func amounts(_ b: UnsafeBufferPointer<UInt8>, _ currencyWords: Set<String>, latin: [Bool]? = nil) -> [FoundAmount]? {
        func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
        func isLatin(_ i: Int) -> Bool { latin?[i] ?? false }
        var out: [FoundAmount] = []
        for m in AmountMatcher(b).all() {
            let start = m.whole.lowerBound
            // Glued to a word: only a currency word may stand there ("RM11.70", not "X51.50").
            if start > 0, Bytes.isLetter(b[start - 1]) || isLatin(start - 1) {
                var k = start
                var sawLatin = false
                while k > 0, Bytes.isLetter(b[k - 1]) || isLatin(k - 1) { if isLatin(k - 1) { sawLatin = true }; k -= 1 }
                if sawLatin {
                    guard currencyWords.allSatisfy({ $0.utf8.allSatisfy { $0 < 0x80 } }) else { return nil }
                    continue
                }
                guard mayGlue(text(k..<start).lowercased(), currencyWords) else { continue }
            }
            let a: Amount, repairs: [Note]
            if let p = plainAmount(b, m) {
                (a, repairs) = (p, [])
            } else {
                // (The space-around-the-point expressions, which need a space, asked only of a match holding one.)
                guard let r = Self.read(integer: text(m.integer), separator: text(m.separator), fraction: text(m.fraction),
                                        spaced: { b[m.whole].contains(0x20) ? text(m.whole) : nil }) else { continue }
                (a, repairs) = r
            }
            out.append(FoundAmount(amount: a, position: start, repairs: repairs,
                                   negative: m.minus != nil || m.trailingMinus != nil, isPercent: m.percent != nil))
        }
        return out
    }

    /// What `scan` asks of a line's bytes: all ASCII, all printable ASCII, a "." or ",", a "$", a "-" then a ".".
    struct LineSigns {
        var ascii = true, printable = true, separator = false, dollar = false, minusPoint = false
        /// A point at the line's start or after a space, a tab or a "$": where `withLeadingZeros` may put a zero.
        var barePoint = false
        init(_ b: UnsafeBufferPointer<UInt8>) {
            var previous: UInt8 = 0
            for c in b {
                if c >= 0x80 { ascii = false }
                if c < 0x20 || c > 0x7E { printable = false }
                if c == UInt8(ascii: ".") || c == UInt8(ascii: ",") { separator = true }
                if c == UInt8(ascii: "$") { dollar = true }
                if previous == UInt8(ascii: "-"), c == UInt8(ascii: ".") { minusPoint = true }
                if c == UInt8(ascii: "."), previous == 0 || previous == UInt8(ascii: " ") || previous == UInt8(ascii: "\t") || previous == UInt8(ascii: "$") {
                    barePoint = true
                }
                previous = c
            }
        }
    }

    /// Amounts without cents, grouped in thousands: "24,000", "134.999", "Rp 1.250.000", "-5,000". One to three digits,
    /// then groups of three after one separator (the same each time), not after a digit, a point, a comma, a slash
    /// or a colon, and not followed by a digit or by a separator and a digit (a time "21:30", a date "01.09.2017", a
    /// two-decimal amount "1,250.00" are none). Glued to a word only when the word is a currency's ("Rp24,000").
    /// Only asked on a receipt that prices in whole units: elsewhere "1,000" may be a quantity or a code.
    static func wholeAmounts(_ line: String, currencyWords: Set<String>) -> [FoundAmount] {
        let c = Array(line)
        var out: [FoundAmount] = []
        // (Which characters are ASCII digits, asked once each: `isASCII && isNumber`, an ASCII character's value 0-9, was
        // asked again and again of each, most of the cost of such a line.)
        let digit = c.map { $0.asciiValue.map(Bytes.isDigit) ?? false }
        func isDigit(_ i: Int) -> Bool { i >= 0 && i < c.count && digit[i] }
        var i = 0
        while i < c.count {
            // (Nor glued by a hyphen to digits before it: "…8-901.000" ends a tax number.)
            guard isDigit(i), i == 0 || !(isDigit(i - 1) || ".,/:".contains(c[i - 1])),
                  i < 2 || c[i - 1] != "-" || !isDigit(i - 2) else { i += 1; continue }
            var j = i
            while isDigit(j), j - i < 4 { j += 1 }
            let lead = j - i
            guard lead <= 3 else { while isDigit(j) { j += 1 }; i = j; continue }
            var separator: Character? = nil, groups = 0
            while j < c.count, c[j] == "," || c[j] == ".", separator == nil || c[j] == separator,
                  isDigit(j + 1), isDigit(j + 2), isDigit(j + 3), !isDigit(j + 4) {
                separator = c[j]; groups += 1; j += 4
            }
            // The line's end, or anything but a digit, or a separator and a digit.
            let ends = groups > 0 && !(j < c.count && (c[j] == "," || c[j] == ".") && isDigit(j + 1))
            guard ends else { i = max(j, i + 1); continue }
            if i > 0, c[i - 1].isLetter {
                let word = String(c[..<i].reversed().prefix { $0.isLetter }.reversed()).lowercased()
                guard currencyWords.contains(word) else { i = j; continue }
            }
            let digits = String(c[i..<j].filter { $0.isNumber })
            // "-5,000" (a discount); not the hyphen of "0761-47,000".
            var negative = false
            if i > 0, c[i - 1] == "-", i == 1 || !isDigit(i - 2) { negative = true }
            else if i > 1, c[i - 1] == " ", c[i - 2] == "-", i == 2 || c[i - 3] == " " { negative = true }
            let percent = j < c.count && c[j] == "%"
            if let a = amount(integer: digits, fraction: "00") {
                out.append(FoundAmount(amount: a, position: i - (negative && c[i - 1] == "-" ? 1 : 0), repairs: [.wholeUnits],
                                       negative: negative, isPercent: percent))
            }
            i = j
        }
        return out
    }

    /// What `read` gives for the match `m` of the bytes `b` (its amount, with no repairs) when the match holds no
    /// space and its integer part and fraction are digits as printed, the commonest: the value read from the bytes
    /// (leading zeros dropped as `read` drops them, the Decimal `amount(integer:fraction:)` makes), with no strings
    /// made; nil for any other match (asked of `read`). A speed trick: the match's three strings and `read`'s walks
    /// of them were about 3,000 instructions an amount. (`HandScannerTests` holds the two together.)
    static func plainAmount(_ b: UnsafeBufferPointer<UInt8>, _ m: AmountMatcher.Match) -> Amount? {
        let int = m.integer, frac = m.fraction
        guard !int.isEmpty, !frac.isEmpty else { return nil }
        for k in m.whole where b[k] == 0x20 { return nil }
        for k in int where !Bytes.isDigit(b[k]) { return nil }
        for k in frac where !Bytes.isDigit(b[k]) { return nil }
        var first = int.lowerBound
        while first < int.upperBound - 1, b[first] == 0x30 { first += 1 }
        guard int.upperBound - first + frac.count <= 18 else { return nil }
        var v: UInt64 = 0
        for k in first..<int.upperBound { v = v * 10 + UInt64(b[k] &- 0x30) }
        for k in frac { v = v * 10 + UInt64(b[k] &- 0x30) }
        guard v != 0 else { return frac.count == 2 ? zeroCents : nil }
        return Amount(significand: v, fractionDigits: frac.count)
    }

    /// `Amount("0.00")`, made once: a zero is made through the string (see `amount(integer:fraction:)`), and
    /// "0.00" is common (rounding, discounts).
    static let zeroCents = Amount("0.00")

    /// `Amount("\(integer).\(fraction)")`: for ASCII digits (at most 18 in all, not zero) the same Decimal made
    /// from the integer they spell (`Decimal(string:)` compacts its result, as `Decimal(UInt64)` does), without
    /// Foundation's parse, its locale and its trims; anything else through the string.
    static func amount(integer: String, fraction: String) -> Amount? {
        let iu = integer.utf8, fu = fraction.utf8
        guard !iu.isEmpty, iu.count + fu.count <= 18, iu.allSatisfy(Bytes.isDigit), fu.allSatisfy(Bytes.isDigit) else {
            return Amount("\(integer).\(fraction)")
        }
        var m: UInt64 = 0
        for c in iu { m = m * 10 + UInt64(c &- 0x30) }
        for c in fu { m = m * 10 + UInt64(c &- 0x30) }
        guard m != 0 else { return integer == "0" && fraction == "00" ? zeroCents : Amount("\(integer).\(fraction)") }
        return Amount(significand: m, fractionDigits: fu.count)
    }

    /// A currency sign, up to four digits, one space, two digits, and no more digits, decimals or percent.
    static let spaced = Pattern(#"[$£€¥]\s?([0-9]{1,4}) ([0-9]{2})(?![0-9%]|[.,][0-9])"#, caseInsensitive: false, mayMatch: spacedMayMatch)

    /// `spaced.matches(in: line)`, ruled out by `spacedMayMatch` on the stand-in of a line of Latin letters and signs
    /// (`signsOrLetters`: `Bytes.kinds`), where "$", "£", "€" and "¥" are "$", any other sign "#" and a Latin letter "z"
    /// (in none of its classes, as the signs and letters they stand for): a byte a character, each match of the line's
    /// one of the stand-in's. (A speed trick: with a "€" on the line, as most lines of an EU receipt with a price have,
    /// the expression ran, its signs not ASCII keeping it off `Pattern`'s stand-ins: some 13,000 instructions a line.)
    static func spacedMatches(_ line: String, signsOrLetters: Bool) -> [(groups: [String?], range: Range<String.Index>)] {
        if signsOrLetters, line.utf8.withContiguousStorageIfAvailable({ b in
            Bytes.standIn(b) { u in
                Bytes.latinLower(u) != nil ? UInt8(ascii: "z") : u == "£" || u == "€" || u == "¥" ? UInt8(ascii: "$") : UInt8(ascii: "#")
            }.withUnsafeBufferPointer(spacedMayMatch)
        }) == false { return [] }
        return spaced.matches(in: line)
    }

    /// What every match of `spaced` needs in printable ASCII (where its sign is "$" and `\s` a space): a "$", maybe a
    /// space, a run of one to four digits (the run whole: a space must follow the digits `[0-9]{1,4}` took), a space
    /// and two digits. (Asked of every line with a "$" on it: the expression cost some 6,000 instructions a line.)
    @Sendable static func spacedMayMatch(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let n = b.count
        for i in b.indices where b[i] == UInt8(ascii: "$") {
            var p = i + 1
            if p < n, b[p] == 0x20 { p += 1 }
            var q = p
            while q < n, Bytes.isDigit(b[q]) { q += 1 }
            if (1...4).contains(q - p), q + 2 < n, b[q] == 0x20, Bytes.isDigit(b[q + 1]), Bytes.isDigit(b[q + 2]) { return true }
        }
        return false
    }

    private static func fix(_ s: String) -> (String, Int) {
        var n = 0
        let fixed = String(s.map { ch -> Character in
            if let d = lookalikes[ch] { n += 1; return d }
            return ch
        })
        return (fixed, n)
    }
}

/// `AmountScanner.amount` by hand, on printable ASCII (where `\s` is the space), giving the matches
/// `NSRegularExpression` gives, in the same order, with the same groups:
///
///     (?<![0-9.,/:])                                  not after a digit, a point, a comma, a slash, a colon
///     (-\s?)?                                         1: a minus
///     ((?:[A]{1,3}(?:[,.'][A]{3})+)|[A i]{1,9})        2: the integer part, grouped in thousands or plain
///     \s?([.,])\s?                                    3: the decimal separator
///     ([C]{2})                                        4: two decimals
///     (?![0-9A-Za-z]|[.,/-][0-9])                     not followed by a letter, a digit, or a separator and a digit
///     (\s?%)?(-)?                                     5: a percent sign, 6: a minus after
///
/// with A = [0-9OoDSIl|B] (digits and the letters OCR reads for them) and C = [0-9OoSsIl|BZzg]. Each start
/// is tried left to right and each choice in the expression's backtracking order (greedy counts from the
/// most down); the search goes on after a match's end.
struct AmountMatcher {
    struct Match {
        var whole: Range<Int>
        var minus: Range<Int>?
        var integer: Range<Int>
        var separator: Range<Int>
        var fraction: Range<Int>
        var percent: Range<Int>?
        var trailingMinus: Range<Int>?
    }

    let b: UnsafeBufferPointer<UInt8>

    /// The classes as sets of bytes (two masks each: asked of a byte with a shift, not an array read through a global).
    static let classA = ByteSet("0123456789OoDSIl|B")
    static let classAi = ByteSet("0123456789OoDSIl|Bi")
    static let classC = ByteSet("0123456789OoSsIl|BZzg")
    /// What the first separator of a match may be: the decimal one, or a thousands one of a grouped integer part.
    static let separators = ByteSet(".,'")
    /// The farthest a match's first separator lies from its start: a minus and a space, nine characters of a
    /// plain integer part and a space before the decimal separator (a grouped part's first separator comes
    /// sooner: a minus, a space and three characters).
    static let separatorReach = 12
    /// What a match holds before its first separator: a minus, spaces, and the integer part's characters.
    static let leading = ByteSet("0123456789OoDSIl|Bi- ")
    let a: ByteSet, ai: ByteSet, cc: ByteSet

    init(_ b: UnsafeBufferPointer<UInt8>) {
        self.b = b
        a = Self.classA; ai = Self.classAi; cc = Self.classC
    }

    func at(_ i: Int) -> UInt8? { i >= 0 && i < b.count ? b[i] : nil }
    func isA(_ i: Int) -> Bool { i >= 0 && i < b.count && a.contains(b[i]) }
    func isAi(_ i: Int) -> Bool { i >= 0 && i < b.count && ai.contains(b[i]) }
    func isC(_ i: Int) -> Bool { i >= 0 && i < b.count && cc.contains(b[i]) }
    func isDigit(_ i: Int) -> Bool { i >= 0 && i < b.count && Bytes.isDigit(b[i]) }
    func isSpace(_ i: Int) -> Bool { i >= 0 && i < b.count && b[i] == 0x20 }

    func all() -> [Match] {
        var out: [Match] = []
        var s = 0
        // (A speed trick: every match holds a point, a comma or an apostrophe within `separatorReach` of its start,
        // and before the first of them only a minus, spaces and the integer part's characters (`leading`): the starts
        // before the next separator that are farther, or have another byte between them and it, are passed over
        // without being tried.)
        let separators = Self.separators, leading = Self.leading
        var next = -1  // the first separator at or after `s` (b.count: none)
        while s < b.count {
            if next < s {
                next = s
                while next < b.count, !separators.contains(b[next]) { next += 1 }
                if next == b.count { break }
                var first = next
                while first > s, next - first < Self.separatorReach, leading.contains(b[first - 1]) { first -= 1 }
                s = first
            }
            if let m = match(at: s) {
                out.append(m)
                s = max(m.whole.upperBound, s + 1)
            } else {
                s += 1
            }
        }
        return out
    }

    /// The match starting at `s`, if any.
    func match(at s: Int) -> Match? {
        // A match starts with a minus or the integer part's first character.
        guard let c = at(s), c == UInt8(ascii: "-") || ai.contains(c) else { return nil }
        // (?<![0-9.,/:])
        if let p = at(s - 1), Bytes.isDigit(p) || p == UInt8(ascii: ".") || p == UInt8(ascii: ",") || p == UInt8(ascii: "/") || p == UInt8(ascii: ":") {
            return nil
        }
        // (-\s?)? : "- ", then "-", then none.
        if c == UInt8(ascii: "-") {
            if isSpace(s + 1), var found = integerPart(at: s + 2) {
                found.whole = s..<found.whole.upperBound
                found.minus = s..<(s + 2)
                return found
            }
            if var found = integerPart(at: s + 1) {
                found.whole = s..<found.whole.upperBound
                found.minus = s..<(s + 1)
                return found
            }
        }
        return integerPart(at: s)
    }

    /// Group 2 from `q` and the rest of the expression after it.
    func integerPart(at q: Int) -> Match? {
        // [A]{1,3}(?:[,.'][A]{3})+ : the leading digits, most first; then as many groups as there are, fewest last.
        var lead = 0
        while lead < 3, isA(q + lead) { lead += 1 }
        if lead > 0 {
            for k in stride(from: lead, through: 1, by: -1) {
                var groups = 0
                var p = q + k
                while let c = at(p), c == UInt8(ascii: ",") || c == UInt8(ascii: ".") || c == UInt8(ascii: "'"),
                      isA(p + 1), isA(p + 2), isA(p + 3) {
                    groups += 1; p += 4
                }
                for g in stride(from: groups, through: 1, by: -1) {
                    if let m = rest(integer: q..<(q + k + 4 * g)) { return m }
                }
            }
        }
        // [0-9OoDSIl|Bi]{1,9}, most first.
        var run = 0
        while run < 9, isAi(q + run) { run += 1 }
        for k in stride(from: run, through: 1, by: -1) {
            if let m = rest(integer: q..<(q + k)) { return m }
        }
        return nil
    }

    /// `\s?([.,])\s?([C]{2})`, the lookahead and the optional ends, after the integer part.
    func rest(integer: Range<Int>) -> Match? {
        let r = integer.upperBound
        // \s? then \s?: with the space first, then without (as the expression backtracks).
        for t in stride(from: isSpace(r) ? r + 1 : r, through: r, by: -1) {
            guard let sep = at(t), sep == UInt8(ascii: ".") || sep == UInt8(ascii: ",") else { continue }
            for u in stride(from: isSpace(t + 1) ? t + 2 : t + 1, through: t + 1, by: -1) {
                guard isC(u), isC(u + 1) else { continue }
                let v = u + 2
                // (?![0-9A-Za-z]|[.,/-][0-9])
                if let c = at(v), Bytes.isAlnum(c) { continue }
                if let c = at(v), ".,/-".utf8.contains(c), isDigit(v + 1) { continue }
                // (\s?%)? then (-)?
                var w = v
                var percent: Range<Int>?
                if isSpace(v), at(v + 1) == UInt8(ascii: "%") { percent = v..<(v + 2); w = v + 2 }
                else if at(v) == UInt8(ascii: "%") { percent = v..<(v + 1); w = v + 1 }
                var trailing: Range<Int>?
                if at(w) == UInt8(ascii: "-") { trailing = w..<(w + 1); w += 1 }
                return Match(whole: integer.lowerBound..<w, minus: nil, integer: integer, separator: t..<(t + 1), fraction: u..<(u + 2),
                             percent: percent, trailingMinus: trailing)
            }
        }
        return nil
    }
}
