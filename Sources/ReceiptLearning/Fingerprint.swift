import Foundation
import ReceiptModel

/// What identifies the shop a receipt came from, read from its page: registration, tax and phone
/// numbers (strong keys: each names one shop), the header's address lines, and the header's text
/// (its first lines, compared by character trigrams, so OCR slips count little).
public struct Fingerprint: Sendable, Hashable {
    /// Registration, tax and phone numbers, then address lines; each once.
    public var keys: [ShopKey]
    /// The header's first lines, normalised (`ShopName.key` of each, joined by a space).
    public var header: String

    public init(keys: [ShopKey], header: String) { self.keys = keys; self.header = header }

    /// Every key, the header among them (as the store keeps them).
    public var allKeys: [ShopKey] { keys + (header.isEmpty ? [] : [ShopKey(.header, header)]) }

    /// The strong keys (registration, tax, phone).
    public var strongKeys: [ShopKey] { keys.filter(\.kind.isStrong) }

    /// How many of the page's first lines (with three letters or more) make the header.
    public static let headerLines = 6
    /// How far down the page address lines are looked for.
    static let addressLines = 12

    /// The fingerprint of a page as OCR read it.
    public static func of(_ page: OCRPage) -> Fingerprint {
        var keys: [ShopKey] = []
        func add(_ k: ShopKey) { if !keys.contains(k) { keys.append(k) } }
        let texts = page.lines.map(\.text)
        for t in texts { NumberReader.keys(in: t).forEach(add) }
        let worded = texts.filter { $0.filter(\.isLetter).count >= 3 }
        for t in worded.prefix(addressLines) where AddressLine.holds(t) { add(ShopKey(.address, ShopName.key(t))) }
        let header = worded.prefix(headerLines).map(ShopName.key).filter { !$0.isEmpty }.joined(separator: " ")
        // Strong keys first, in a fixed order, so evidence and the store list them alike.
        let order = ShopKeyKind.allCases
        keys.sort { order.firstIndex(of: $0.kind)! < order.firstIndex(of: $1.kind)! }
        return Fingerprint(keys: keys, header: header)
    }
}

/// Registration, tax and phone numbers on one line of text.
enum NumberReader {
    /// Words that say a tax number follows ("GST ID", "VAT No.", "ABN", "EIN", "USt-IdNr.").
    static let taxWords: Set<String> = ["GST", "SST", "VAT", "ABN", "EIN", "TIN", "GSTIN", "UST", "USTID", "USTIDNR", "TVA", "BTW", "MWST", "NIF", "CIF", "HST", "QST", "PST"]
    /// Word pairs and words that say a company registration number follows.
    static let registrationPhrases = ["CO REG", "CO RFG", "COREG", "CO NO", "COMPANY NO", "COMPANY REG", "REG NO", "REGISTRATION",
                                      "ROC", "SSM", "BUSINESS REG", "CRN", "KVK", "HRB", "SIRET", "SIREN"]
    static let phoneWords: Set<String> = ["TEL", "TELEPHONE", "PHONE", "PH", "FAX", "HP", "MOBILE", "TELEFON", "TELNO", "TELFAX"]

    static func keys(in text: String) -> [ShopKey] {
        let upper = text.uppercased()
        let chars = Array(upper)
        let words = upper.split { !$0.isLetter }.map(String.init)
        var out: [ShopKey] = []
        // A tax word names the line's number; "TAX ID" / "TAX NO" / "TAX REG" as well.
        let taxLine = words.contains { taxWords.contains($0) }
            || zip(words, words.dropFirst()).contains { $0 == "TAX" && ["ID", "NO", "REG", "NUMBER"].contains($1) }
        if taxLine {
            for run in Runs.digits(chars, separators: [" ", "-"]) where run.digits.count >= 8 && !run.hasDecimalPoint {
                out.append(ShopKey(.tax, run.prefix + run.digits))
            }
            return out
        }
        let joined = " " + words.joined(separator: " ") + " "
        let registrationLine = registrationPhrases.contains { joined.contains(" \($0) ") }
        let phoneLine = words.contains { phoneWords.contains($0) }
        for run in Runs.digits(chars, separators: [" "]) where (5...12).contains(run.digits.count) && !run.hasDecimalPoint {
            // "(684215-T)", "(472958 V)", "003917724-M", or any number after "Co. Reg." / "Company No"; on a
            // phone line only in brackets or after its keyword ("TEL: 07-556 239l" ends in a misread 1, not a check letter).
            let closed = run.checkLetter != nil && (run.bracketed || (!phoneLine && (run.endsLine || run.hyphenLetter)))
            if registrationLine || closed {
                out.append(ShopKey(.registration, String(run.digits.drop { $0 == "0" }) + (run.checkLetter.map(String.init) ?? "")))
            }
        }
        if phoneLine {
            // After each phone word, the numbers of seven digits or more ("TEL: 03-6718 4492 FAX: 03-6718 4493").
            for run in Runs.digits(chars, separators: [" ", "-", "(", ")", "+", "."]) where (7...15).contains(run.digits.count) && !run.hasDecimalPoint {
                out.append(ShopKey(.phone, String(run.digits.suffix(9))))
            }
        }
        return out
    }
}

/// Runs of digits in a line, with what stands around them.
enum Runs {
    struct Run {
        var digits: String
        /// Capital letters glued before the digits ("GB" of "GB123456789", "W" of "W10-1808-…").
        var prefix: String
        /// The letter after the digits ("T" of "684215-T", "684215 T"), when one stands alone there.
        var checkLetter: Character?
        var hyphenLetter: Bool
        var bracketed: Bool
        var endsLine: Bool
        /// Two digits after a '.' or ',' inside the run: an amount, not a number.
        var hasDecimalPoint: Bool
    }

    /// Letters OCR reads for a digit inside a run of digits.
    static let lookAlikes: [Character: Character] = ["O": "0", "Q": "0", "D": "0", "I": "1", "L": "1", "|": "1", "S": "5", "B": "8"]

    static func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }

    static func digits(_ chars: [Character], separators: Set<Character>) -> [Run] {
        var out: [Run] = []
        var i = 0
        while i < chars.count {
            guard isDigit(chars[i]) else { i += 1; continue }
            let start = i
            var digits = ""
            var decimal = false
            var j = i
            while j < chars.count {
                let c = chars[j]
                if isDigit(c) { digits.append(c); j += 1; continue }
                // A look-alike between digits: "0O1" is "001".
                if let d = lookAlikes[c], j + 1 < chars.count, isDigit(chars[j + 1]), j > start, isDigit(chars[j - 1]) { digits.append(d); j += 1; continue }
                if (c == "." || c == ","), j + 2 < chars.count, isDigit(chars[j + 1]), isDigit(chars[j + 2]),
                   j + 3 >= chars.count || !isDigit(chars[j + 3]) { decimal = true; break }
                // A separator counts only with a digit right after it.
                if separators.contains(c), j + 1 < chars.count, isDigit(chars[j + 1]) || (separators.contains(chars[j + 1]) && j + 2 < chars.count && isDigit(chars[j + 2])) {
                    j += 1; continue
                }
                break
            }
            var p = start
            var prefix = ""
            while p > 0, chars[p - 1].isLetter, chars[p - 1].isUppercase, prefix.count < 3 { p -= 1; prefix.insert(chars[p], at: prefix.startIndex) }
            if p > 0, chars[p - 1].isLetter { prefix = "" }  // the end of a word, not a prefix
            // What follows: "-X", " X", "X)" as a check letter.
            var k = j, hyphen = false
            if k < chars.count, chars[k] == "-" { hyphen = true; k += 1 }
            while k < chars.count, chars[k] == " ", k - j < 2 { k += 1 }
            var letter: Character?
            if k < chars.count, chars[k].isLetter, chars[k].isUppercase, k + 1 >= chars.count || !chars[k + 1].isLetter { letter = chars[k]; k += 1 }
            let before = chars[..<start].last { $0 != " " }
            let after = chars[min(k, chars.count)...].first { $0 != " " }
            out.append(Run(digits: digits, prefix: prefix, checkLetter: letter, hyphenLetter: hyphen && letter != nil,
                           bracketed: before.map { "([{".contains($0) } ?? false && after.map { ")]}".contains($0) } ?? false,
                           endsLine: after == nil || after.map { !$0.isLetter && !$0.isNumber } ?? true, hasDecimalPoint: decimal))
            i = max(j, start + 1)
        }
        return out
    }
}

/// Whether a header line is an address: a postcode-like number of five digits, or an address word.
enum AddressLine {
    static let words: Set<String> = ["JALAN", "JLN", "LORONG", "TAMAN", "LOT", "ROAD", "RD", "STREET", "ST", "AVENUE", "AVE", "BLVD", "LANE",
                                     "DRIVE", "HIGHWAY", "FLOOR", "LEVEL", "PLAZA", "MALL", "STRASSE", "STRAßE", "STR", "RUE", "VIA", "CALLE",
                                     "SEKSYEN", "PERSIARAN", "LEBUH", "BANDAR", "KAWASAN", "SUITE", "UNIT"]

    static func holds(_ text: String) -> Bool {
        let upper = text.uppercased()
        let words = upper.split { !$0.isLetter }
        guard words.count >= 2 else { return false }
        if words.contains(where: { Self.words.contains(String($0)) }) { return true }
        return upper.split { !$0.isNumber }.contains { $0.count == 5 } && !upper.contains(":")
    }
}
