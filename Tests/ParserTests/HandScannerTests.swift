import Foundation
import Testing
import ReceiptModel
import ReceiptSupport
@testable import ReceiptParser

/// The parser's fast paths against what they stand for, on many generated lines: the hand-written
/// amount matcher against its regular expression, every `Pattern.mayMatch` against its expression
/// (it may never refuse a line the expression matches), the date scanner's signs against scanning
/// every pattern, WordLine's ASCII path, `Trim` and `withinTwo`.
@Suite("Parser fast paths agree with what they replace")
struct HandScannerTests {
    struct Lines: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state
        }
        /// A line of up to `max` characters drawn from `alphabet`, in runs that look like receipt text.
        mutating func line(_ alphabet: [Character], max: Int = 24) -> String {
            String((0..<Int.random(in: 0...max, using: &self)).map { _ in alphabet.randomElement(using: &self)! })
        }
        /// A keyword as OCR may slip it: one or two letters read as a look-alike, cut, added, or a space dropped.
        mutating func slipped(_ k: String) -> String {
            var a = Array(k)
            guard a.count > 2 else { return k }
            for _ in 0..<Int.random(in: 1...2, using: &self) {
                let at = Int.random(in: 0..<a.count, using: &self)
                switch Int.random(in: 0...3, using: &self) {
                case 0: a[at] = Array("1l0OIi5S8B ")[Int.random(in: 0..<11, using: &self)]
                case 1: if a.count > 3 { a.remove(at: at) }
                case 2: a.insert(Array("aeiltx")[Int.random(in: 0..<6, using: &self)], at: at)
                default: if a[at] == " " { a.remove(at: at) }
                }
            }
            return String(a)
        }
        /// `s` with one character drawn from `alphabet` put in at a place drawn at random (the lines with signs not ASCII).
        mutating func insertOne(of alphabet: [Character], into s: inout String) {
            let c = alphabet.randomElement(using: &self)!
            s.insert(c, at: s.index(s.startIndex, offsetBy: Int.random(in: 0...s.count, using: &self)))
        }
        /// Line `k` of a test of signs not ASCII: up to `max` characters of `alphabet`, then one to three of `pieces`, each
        /// with up to `tail` characters of text after it; one of `signs` put in, and on every fifth line one of `others`.
        mutating func lineWithSigns(_ k: Int, _ alphabet: [Character], max: Int, pieces: [String], tail: Int, signs: [Character], others: [Character]) -> String {
            var s = line(alphabet, max: max)
            for _ in 0..<Int.random(in: 1...3, using: &self) { s += pieces.randomElement(using: &self)! + line(HandScannerTests.textAlphabet, max: tail) }
            insertOne(of: signs, into: &s)
            if k % 5 == 0 { insertOne(of: others, into: &s) }
            return s
        }
    }

    /// `isNotAnItem`'s quick answer for a row that holds none of its sets' keywords, against asking them all, on rows
    /// of the sets' keywords as printed, with one or two letters slipped, cut or run together, amid names, prices,
    /// dates, tax codes and table numbers, in both cases, with letters not ASCII on some.
    @Test func notAnItemQuickAsEveryQuestion() {
        let parser = ReceiptParser()
        let c = parser.compiled
        let keywords = [c.total, c.subtotal, c.rounding, c.cash, c.change, c.tax, c.itemSkip, c.itemSkipAlone, c.taxExclude]
            .flatMap { $0.keywords.map(\.raw) }
        #expect(keywords.count > 100)
        let names = ["CHICKEN", "rice", "Surf", "TEA", "Bar", "chocolate", "net", "bag", "wit", "summer", "Ensalada", "Mixta", "2B", "KOTAK"]
        let others = ["12.50", "3 x 4.80", "9.60", "25/03/2019", "2019-03-25", "SR @ 6%", "Table 12", "TBL# 4", "6%", "@", "-", ":", "(", ")",
                      "RM", "$", "€", "Rückgeld", "é"]
        var g = Lines(state: 0x4E6F_7449)
        var quickRows = 0, notItems = 0
        for k in 0..<20_000 {
            var parts: [String] = []
            for _ in 0..<Int.random(in: 1...4, using: &g) {
                switch Int.random(in: 0...9, using: &g) {
                case 0...1: parts.append(keywords.randomElement(using: &g)!)
                case 2...3: parts.append(g.slipped(keywords.randomElement(using: &g)!))
                case 4...6: parts.append(names.randomElement(using: &g)!)
                default: parts.append(others.randomElement(using: &g)!)
                }
            }
            var text = parts.joined(separator: k % 7 == 0 ? "" : " ")
            if k % 3 == 0 { text = text.uppercased() }
            let line = ParseLine(index: 0, line: OCRLine(text: text), rules: c)
            let quick = parser.isNotAnItem(line, quick: true), full = parser.isNotAnItem(line, quick: false)
            #expect(quick == full, "\(text)")
            if quick { notItems += 1 }
            if let h = line.words.hits(c.subtotal, c.keywordIndex), h.holdsNone(ofSlots: c.notItemSlots!, loose: c.subtotal, line.words) { quickRows += 1 }
        }
        // (Both kinds of row, and both answers, among them.)
        #expect(quickRows > 3_000 && quickRows < 17_000)
        #expect(notItems > 3_000 && notItems < 17_000)
    }

    /// The money fields' lines with the lines that hold none of their sets passed over (`MoneyFields.init`'s quiet lines),
    /// against every line asked each set: generated receipts of the sets' keywords and their distractors as printed and
    /// slipped, amid names, amounts, rates and dates, labels over their values, in both cases, some lines not ASCII.
    @Test func moneyQuietLinesAsEveryQuestion() {
        let c = ReceiptParser().compiled
        let sets = [c.subtotal, c.tax, c.rounding, c.discount, c.cash, c.change, c.total, c.taxExclude, c.totalDistractors, c.totalTables]
        let keywords = sets.flatMap { $0.keywords.map(\.raw) }
        #expect(keywords.count > 150)
        let names = ["CHICKEN", "rice", "TEA", "Bar", "net", "bag", "summer", "Ensalada", "KOTAK", "Rückgeld", "café"]
        let others = ["12.50", "3 x 4.80", "9.60", "0.02", "-0.03", "100.00", "25/03/2019", "SR @ 6%", "6%", "RM", "$", "€", ":", "-", "(", ")"]
        var g = Lines(state: 0x4D6F_6E65)
        func found(_ f: MoneyFields.Found?) -> String {
            f.map { "\($0.amount) \($0.keyword.raw) \($0.line.index) \($0.score) \($0.notes)" } ?? "-"
        }
        func summary(_ m: MoneyFields) -> String {
            [m.subtotalLines.map(found).joined(separator: "; "), m.taxLines.map(found).joined(separator: "; "),
             m.rateSingles.map { "\($0.line.index) \($0.rate) \($0.amount)" }.joined(separator: "; "),
             found(m.roundingFound), "\(m.roundingLine ?? -1)", found(m.discountFound), found(m.cashFound), found(m.changeFound),
             "\(m.charges.map { "\($0)" } ?? "-")", m.totalCandidates.map(found).joined(separator: "; "), "\(m.taxTableLine ?? -1)",
             "\(m.taxLinesBefore)", "\(m.warnings)"].joined(separator: " | ")
        }
        var quietLines = 0, allLines = 0, withTotal = 0
        for k in 0..<3_000 {
            var text: [String] = []
            for _ in 0..<Int.random(in: 3...14, using: &g) {
                var parts: [String] = []
                for _ in 0..<Int.random(in: 1...3, using: &g) {
                    switch Int.random(in: 0...9, using: &g) {
                    case 0...1: parts.append(keywords.randomElement(using: &g)!)
                    case 2: parts.append(g.slipped(keywords.randomElement(using: &g)!))
                    case 3...5: parts.append(names.randomElement(using: &g)!)
                    default: parts.append(others.randomElement(using: &g)!)
                    }
                }
                var line = parts.joined(separator: " ")
                if k % 3 == 0 { line = line.uppercased() }
                text.append(line)
            }
            let lines = text.enumerated().map { ParseLine(index: $0.offset, line: OCRLine(text: $0.element), rules: c) }
            let quick = MoneyFields(lines: lines, rules: c), full = MoneyFields(lines: lines, rules: c, quick: false)
            #expect(summary(quick) == summary(full), "\(text)")
            if !full.totalCandidates.isEmpty { withTotal += 1 }
            for l in lines {
                allLines += 1
                if let h = l.words.hits(c.subtotal, c.keywordIndex), h.holdsNone(ofSlots: c.moneySlots!, loose: c.subtotal, l.words) { quietLines += 1 }
            }
        }
        // (Lines of both kinds, and receipts with a total and without, among them.)
        #expect(quietLines > allLines / 5 && quietLines < allLines * 4 / 5)
        #expect(withTotal > 500 && withTotal < 2_500)
    }

    /// A line asked by two parsers' rules in turn (the built-in ones, and those with a total word added, whose
    /// indexes lay their bits out apart) answers each by its own rules: the bits a line keeps are made again for the
    /// other index, never read through it.
    @Test func aLineAskedByTwoRulesAnswersEach() throws {
        let builtIn = ReceiptParser().compiled
        let added = CompiledRules(try ParserRules.builtIn(extendedWith: Data(#"{"total": {"keywords": {"kokku": 0.95}}}"#.utf8), file: "test"))
        for text in ["KOKKU 2.10", "Kokku sularaha 5.00", "TOTAL 9.60", "Subtotal 4.00 KOKKU"] {
            let w = WordLine(text)
            for _ in 0..<2 {
                #expect(builtIn.best(builtIn.total, in: w)?.raw == builtIn.best(builtIn.total, in: WordLine(text))?.raw, "\(text)")
                #expect(added.best(added.total, in: w)?.raw == added.best(added.total, in: WordLine(text))?.raw, "\(text)")
                #expect(builtIn.anyIndex(builtIn.subtotal, in: w) == builtIn.anyIndex(builtIn.subtotal, in: WordLine(text)), "\(text)")
                #expect(added.anyIndex(added.subtotal, in: w) == added.anyIndex(added.subtotal, in: WordLine(text)), "\(text)")
            }
        }
        #expect(added.best(added.total, in: WordLine("KOKKU 2.10"))?.raw == "kokku")
        #expect(builtIn.best(builtIn.total, in: WordLine("KOKKU 2.10")) == nil)
    }

    /// An item's name cut on its bytes where it is printable ASCII (`itemNamePrintable`) as the steps cut it one string
    /// after another: names among runs of spaces, marks before and after, tax codes with colons, currency words and signs,
    /// tax flags, barcodes, in both cases; some with a character not ASCII (the steps alone then).
    @Test func itemNamesOnBytesAsStepByStep() {
        let parser = ReceiptParser()
        let pieces = ["SR:", "ZRL:", " ZR :", "ZRE :", "OS  :", "OS: ", "ES:", "XX:", "SR", ":", " RM", " rm", " Rs.", " USD", " eur", " kr", " $", "$", " A", " TF",
                      " tx", " <B>", " <C", " NT", "072145390016", "4471209953", " 40112", "-", "--", "|", "*", "@", "=", "~", ";", ",", "_",
                      "'", "\"", ".", "(", ")", "  ", "   ", " ", "CHICKEN", "Rice", "2B", "KOTAK", "a", "B", "Surf & Turf", "x2", "1.50"]
        var g = Lines(state: 0x4974_656D)
        var onBytes = 0
        for k in 0..<30_000 {
            var s = (0..<Int.random(in: 0...7, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            if k % 4 == 0 { s = s.uppercased() }
            if k % 9 == 0 { g.insertOne(of: ["é", "€", "—", "\t"], into: &s) }
            if ReceiptParser.itemNamePrintable(s) != nil { onBytes += 1 }
            #expect(parser.itemName(s) == parser.itemNameStepByStep(s), "\(s)")
        }
        #expect(onBytes > 20_000 && onBytes < 29_000)
    }

    /// A quantity read from its digits as Foundation reads the string: the same Decimal byte for byte (and so the same
    /// text in the JSON), or nil alike; runs of digits up to twenty long, with leading zeros, points, commas, signs.
    @Test func quantitiesAsFoundationReadsThem() {
        func raw(_ d: Decimal?) -> [UInt8]? { d.map { var d = $0; return withUnsafeBytes(of: &d) { Array($0) } } }
        var g = Lines(state: 0x5174_7920)
        var onDigits = 0, smallOnes = 0, largeOnes = 0
        for k in 0..<20_000 {
            var s = String((0..<Int.random(in: 0...(k % 3 == 0 ? 20 : 4), using: &g)).map { _ in "0123456789".randomElement(using: &g)! })
            if k % 5 == 0 { g.insertOne(of: [".", ",", "-", "+", " ", "x", "½"], into: &s) }
            if !s.isEmpty, s.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), s.utf8.count <= 18 { onDigits += 1 }
            let posix = Decimal(string: s.replacingOccurrences(of: ",", with: "."), locale: Locale(identifier: "en_US_POSIX"))
            #expect(raw(ReceiptParser.quantity(s)) == raw(Decimal(string: s)), "\(s)")
            #expect(raw(ReceiptParser.quantity(s, posix: true)) == raw(posix), "\(s)")
            #expect(ReceiptParser.quantity(s)?.description == Decimal(string: s)?.description, "\(s)")
            // Above 0, and at most 20, as Decimal's comparisons say.
            for p in [false, true] {
                let q = ReceiptParser.quantity(s, posix: p)
                #expect(raw(ReceiptParser.positiveQuantity(s, posix: p)) == raw(q.flatMap { $0 > 0 ? $0 : nil }), "\(s)")
                let small = q.flatMap { $0 > 0 && $0 <= 20 ? $0 : nil }
                #expect(raw(ReceiptParser.positiveQuantity(s, posix: p, atMost: 20)) == raw(small), "\(s)")
                if small != nil { smallOnes += 1 }
                if small == nil, q.map({ $0 > 0 }) == true { largeOnes += 1 }
            }
        }
        #expect(onDigits > 10_000 && smallOnes > 1_000 && largeOnes > 1_000)
    }

    /// A vendor line's label before a colon dropped with the colon found on the bytes of ASCII, as among the characters:
    /// lines with colons here and there, CR LF, tabs, a colon with a combining mark on it, letters not ASCII.
    @Test func vendorLabelsDroppedOnBytesAsByCharacters() {
        let vt = ReceiptParser().compiled.vendorText
        let alphabet = Self.textAlphabet + Array(":::  \r\n\t")
        var g = Lines(state: 0x4C61_6265)
        var colons = 0
        for k in 0..<10_000 {
            var s = g.line(alphabet, max: 30)
            if k % 6 == 0 { g.insertOne(of: ["é", "\u{301}", "Ä", "€", "\r\n"], into: &s) }
            if s.contains(":") { colons += 1 }
            #expect(vt.dropLabel(s) == vt.dropLabel(s, byBytes: false), "\(s)")
        }
        #expect(colons > 3_000)
    }

    /// A row's text cut after `n` characters on its bytes where it is printable ASCII, as `prefix` cuts it: lines with
    /// signs, letters not ASCII, combining marks, a CR LF (one character of two bytes), tabs; `n` from 0 past the end.
    @Test func textPrefixAsPrefix() {
        let rules = CompiledRules(.builtIn)
        let alphabet = Self.textAlphabet + Array("é€\u{301}\t\r\n\r\n")
        var g = Lines(state: 0x5072_6566)
        var bytesPath = 0
        for _ in 0..<20_000 {
            let s = g.line(alphabet, max: 20)
            let l = ParseLine(index: 0, line: OCRLine(words: [OCRWord(text: s, confidence: 1)]), rules: rules, scanAmounts: false)
            if l.text.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) { bytesPath += 1 }
            for n in 0...(l.text.count + 2) { #expect(l.textPrefix(n) == l.text.prefix(n), "\(s) \(n)") }
        }
        #expect(bytesPath > 3_000)
    }

    @Test func spacedAmountSignsAsTheFourSigns() {
        // Every scalar of the Basic Multilingual Plane's first part and the currency block.
        for v in Array(0..<0x3000) + Array(0xFE00..<0x10000) {
            guard let u = Unicode.Scalar(v) else { continue }
            #expect(AmountScanner.isSpacedAmountSign(u) == "$£€¥".unicodeScalars.contains(u), "U+\(String(v, radix: 16))")
        }
    }

    static let amountAlphabet = Array("0123456789012345678901234567890123456789OoDSIl|BiZzgs.,.,.,' -%/:$RMrmaxX")
    static let textAlphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz     .,:;-/()[]{}#*=_~'\"`$&@|!%<>")

    @Test func amountMatcherGivesTheExpressionsMatches() {
        var g = Lines(state: 7)
        for _ in 0..<20_000 {
            let s = g.line(Self.amountAlphabet)
            let hand = AmountScanner.amountMatches(s)
            let regex = AmountScanner.amount.matches(in: s)
            #expect(hand.map(\.range) == regex.map(\.range) && hand.map(\.groups) == regex.map(\.groups), "\(s)")
        }
    }

    /// `scan` on printable ASCII reading the matches as byte places (`printableAmounts`) gives what it gives from the
    /// matches' groups as strings.
    @Test func scanOnBytesIsScanOnGroups() {
        var g = Lines(state: 53)
        let pieces = ["RM11.70", "RN11.15", "X51.50", "rm 3.00", "-.02", " .54", "$.99", "39. 80", "39 .80", "1,234.50", "1.234,50", "O.5O", "l2.3O",
                      "6%", "12.50-", "- 4.00", "5 %", "0012.00", "$43 70", "I0,00", "12.5OB"]
        for _ in 0..<20_000 {
            var s = g.line(Self.amountAlphabet, max: 10)
            for _ in 0..<Int.random(in: 0...3, using: &g) { s += pieces.randomElement(using: &g)! + g.line(Self.textAlphabet, max: 5) }
            #expect(AmountScanner.scan(s) == AmountScanner.scan(s, byBytes: false), "\(s)")
        }
    }

    /// A line whose only characters not ASCII are signs ("£12.50", "€ 9,80", "Total·3.00") has its amounts read from a
    /// stand-in of printable ASCII: the same amounts, at the same places in characters, as the expression's groups give
    /// on the line itself; a line with a letter, digit, space or mark not ASCII beside them still goes to the expression.
    @Test func scanWithSignsNotASCIIIsScanOnGroups() {
        var g = Lines(state: 59)
        let signs = Array("£€¥฿·×®«»№–¦¢§•…🇬🇧🇪🇺")
        let others = Array("éÄ\u{301}’°\u{00A0}½٣")
        let pieces = ["£11.70", "€ 9,80", "RM11.70", "X51.50", "-.02", " .54", "£.99", "$.99", "€39. 80", "39 .80", "1,234.50£", "1.234,50 €",
                      "O.5O", "6%", "12.50-", "- 4.00", "£43 70", "€ 43 70", "¥1200 50", "I0,00", "12.5OB", "×2 3.00", "·12.00"]
        var standIns = 0
        for k in 0..<20_000 {
            let s = g.lineWithSigns(k, Self.amountAlphabet, max: 10, pieces: pieces, tail: 5, signs: signs, others: others)
            if AmountScanner.printableAmounts(s, currencyWords: ["rm"]) != nil {
                standIns += 1
                // What `scan` asks of such a line's bytes or scalars, not its characters: the same answers.
                #expect(s.contains("-.") == bytesContain(Array(s.utf8), "-."), "\(s)")
                #expect(s.contains(where: { "$£€¥".contains($0) }) == s.unicodeScalars.contains(where: { "$£€¥".unicodeScalars.contains($0) }), "\(s)")
                if !s.contains(where: { $0 == "." || $0 == "," }) { #expect(AmountScanner.amountMatches(s).isEmpty, "\(s)") }
            }
            #expect(AmountScanner.scan(s) == AmountScanner.scan(s, byBytes: false), "\(s)")
        }
        #expect(standIns > 12_000)
    }

    /// A match of digits as printed with no space read from its bytes (`plainAmount`) is what `read` makes of its
    /// strings: the same amount, held alike (its Decimal's digits and exponent, its known cents), and no repairs.
    @Test func plainAmountIsRead() {
        var g = Lines(state: 91)
        let pieces = ["0.00", "00.00", "000.50", "0012.00", "7.05", "12.5", "999999999.99", "123456789.12", "1,234.50", "10.60", "0.01",
                      "-3.00", "5.00%", "40.00-", "0,50", "100,00", "O.5O", "39. 80"]
        var asked = 0
        for _ in 0..<20_000 {
            var s = g.line(Self.amountAlphabet, max: 8)
            for _ in 0..<Int.random(in: 1...3, using: &g) { s += " " + pieces.randomElement(using: &g)! + g.line(Self.amountAlphabet, max: 4) }
            s.utf8.withContiguousStorageIfAvailable { b in
                guard b.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { return }
                func text(_ r: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: b[r]), as: UTF8.self) }
                for m in AmountMatcher(b).all() {
                    guard let p = AmountScanner.plainAmount(b, m) else { continue }
                    asked += 1
                    let r = AmountScanner.read(integer: text(m.integer), separator: text(m.separator), fraction: text(m.fraction),
                                               spaced: { b[m.whole].contains(0x20) ? text(m.whole) : nil })
                    #expect(r != nil && r!.0 == p && r!.1.isEmpty && r!.0.knownCents == p.knownCents
                            && withUnsafeBytes(of: r!.0.value, Array.init) == withUnsafeBytes(of: p.value, Array.init)
                            && r!.0.value.description == p.value.description, "\(s)")
                }
            }
        }
        #expect(asked > 10_000)
    }

    /// Every pattern with a `mayMatch`: where it says no, the expression finds nothing.
    /// Every expression with a `mayMatch` the parser runs, by name.
    static func patternsWithPretests(_ rules: CompiledRules) -> [(String, Pattern)] {
        [
            ("registrationAtEnd", VendorText.registrationAtEnd), ("branchCodeAtEnd", VendorText.branchCodeAtEnd),
            ("bareNumberAtEnd", VendorText.bareNumberAtEnd), ("ruleToEnd", VendorText.ruleToEnd),
            ("leadingDots", VendorText.leadingDots), ("leadingScrap", VendorText.leadingScrap), ("numberLabel", VendorText.numberLabel),
            ("misreadSdnBhd", VendorText.misreadSdnBhd), ("scrapsAfterForm", rules.vendorText.scrapsAfterForm),
            ("numberAfterForm", rules.vendorText.numberAfterForm), ("cityStatePostcode", CompiledRules.cityStatePostcode),
            ("ukPostcode", CompiledRules.ukPostcode), ("leadingMarks", ReceiptParser.leadingMarks),
            ("trailingMarks", ReceiptParser.trailingMarks), ("trailingCurrencyWord", ReceiptParser.trailingCurrencyWord),
            ("trailingCurrencySign", ReceiptParser.trailingCurrencySign), ("trailingTaxFlag", ReceiptParser.trailingTaxFlag),
            ("time", TimeScanner.time), ("oneDecimalAtEnd", MoneyFields.oneDecimalAtEnd),
            ("registrationNumber", ReceiptParser.registrationNumber), ("registrationOnLine", ReceiptParser.registrationOnLine),
            ("cardDigits", ReceiptParser.cardDigits), ("spaceAfterPoint", AmountScanner.spaceAfterPoint),
            ("spaceBeforePoint", AmountScanner.spaceBeforePoint), ("quantityPrefix", ReceiptParser.quantityPrefix),
            ("quantityTimesPrice", ReceiptParser.quantityTimesPrice), ("leadingQuantity", ReceiptParser.leadingQuantity),
            ("weightAfterName", ReceiptParser.weightAfterName), ("trailingQuantity", ReceiptParser.trailingQuantity),
            ("spaced", AmountScanner.spaced),
        ]
    }

    @Test func mayMatchNeverRefusesAMatch() {
        let rules = CompiledRules(.builtIn)
        let patterns = Self.patternsWithPretests(rules)
        // Pieces that make the expressions match now and then: forms, postcodes, card masks, currency words.
        let pieces = ["SDN BHD", "Sdn. Bhd.", "ENTERPRISE", "TRADING", "(12345-X)", "[KJ1]", " 1234567-W", "Austin, TX 78701", "Denver CO",
                      "LONDON W1D 4HS", "****1234", "ending in 5678", "last 4: 9012", " RM", " $", " TF", " A", "<A>", "12:30 PM", "12.5",
                      " ab 1", "---", "..", "#12 ", "Co. Reg. 12345-X", "12. 50", "12 .50", "SON 8HD", "  ",
                      "2 x 4.80", "3X 1.20", "1.24 lb @ 0.59", "2 * RM 3.50", " 0.742 KILOS", " 1,5 kg. ", " 12 oz", " 2 ", " 3 x ", "1 x Tea", "12 Coffee",
                      "  7x Tea", "123 Tea", "05 ", " 4X", "(Co. Reg. 12345-X)", "[co no: 123-4 ]", "(1234567-W) ", " AB12345", " ABCD12345", " 1234-A", "(B12-3)", "[12345678901]",
                      "$43 70", "$ 43 70", "$1234 56", "$ 1234 56", "$12345 67", "$1 2", "$ 1 23", "$12 345", "$$12 50", "$12  50", "$12 50%"]
        var g = Lines(state: 11)
        for _ in 0..<20_000 {
            var s = g.line(Self.textAlphabet, max: 16)
            if Bool.random(using: &g) { s += pieces.randomElement(using: &g)! + g.line(Self.textAlphabet, max: 6) }
            if Bool.random(using: &g) { s = pieces.randomElement(using: &g)! + s }
            for (name, p) in patterns where !p.worthRunning(s) {
                #expect(p.regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) == nil, "\(name) refused \"\(s)\"")
            }
        }
    }

    /// `spaced` ruled out on the stand-in of a line of Latin letters and signs (`AmountScanner.spacedMatches`) only where
    /// the expression finds nothing: the same matches as the expression's, on lines with "€", "£", "¥" before digits.
    @Test func spacedAmountsOnLatinLinesAsTheExpression() {
        let pieces = ["€43 70", "€ 43 70", "£1234 56", "¥ 12 50", "€12345 67", "€1 2", "€12 345", "€€12 50", "£12  50", "€12 50%", "$12 50",
                      "€12 50,5", "Rückgeld", "é", "ß", "•", "–", "€", "12 50", "  ", "x", "0", "%", ".", ","]
        var g = Lines(state: 109)
        var latin = 0, found = 0
        for _ in 0..<20_000 {
            let s = (0..<Int.random(in: 1...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let signsOrLetters = s.utf8.withContiguousStorageIfAvailable { b in !b.allSatisfy { $0 < 0x80 } && Bytes.kinds(b).signsOrLetters } == true
            guard signsOrLetters else { continue }
            latin += 1
            let hand = AmountScanner.spacedMatches(s, signsOrLetters: true), regex = AmountScanner.spaced.regex.matches(in: s, range: NSRange(s.startIndex..., in: s))
            found += regex.count
            #expect(hand.map { NSRange($0.range, in: s) } == regex.map(\.range), "\(s)")
        }
        #expect(latin > 10_000 && found > 1_000, "\(latin) \(found)")
    }

    @Test func dateSignsSkipOnlyWhatCannotMatch() {
        let rules = CompiledRules(.builtIn)
        let alphabet = Array("0123456789012345678901234567890123456789/-.,: '`\"OoQlI|SsBZzt?ADGJanFebMarAprMayJunJulAugSepOctNovDecTotaltotalRM thst")
        let pieces = ["25/12/2018", "2018-03-04", "12 Mar 2018", "Mar 4, 2018", "Jun18'16", "25032018 13:11", "Date: 08122018", "MayOi'19",
                      "27dpr' 13", "GS Jan 2017 12:41", "O1/12/2018 10:22", "Septernber 3 2019", "20180304", "12thMarch2018"]
        var g = Lines(state: 13)
        func key(_ d: [RawDate]) -> [String] { d.map { "\($0.first) \($0.second) \($0.year) \($0.shape) \($0.afterLetter) \($0.text) \($0.rule) \($0.repaired ?? "")" } }
        for _ in 0..<20_000 {
            var s = g.line(alphabet, max: 20)
            if Bool.random(using: &g) { s += " " + pieces.randomElement(using: &g)! + g.line(alphabet, max: 6) }
            let fast = DateScanner.scan(s, months: rules.months, monthWords: rules.monthWords)
            let all = DateScanner.scan(s, months: rules.months, everyPattern: true)
            #expect(key(fast) == key(all), "\(s)")
        }
    }

    /// A line with currency signs and other symbols that are not ASCII ("£12.50 25/12/2018"), letters ("12 Déc. 2018") or
    /// the dates' own marks ("Jun18’16", "27Dec´16") has its date signs read from a stand-in: they skip only what cannot
    /// match, whatever stands beside them. Digits, spaces and marks that are not ASCII still have every pattern tried.
    @Test func dateSignsOnLinesWithSignsNotASCII() {
        let rules = CompiledRules(.builtIn)
        let alphabet = Array("0123456789012345678901234567890123456789/-.,: '`\"OoQlI|SsBZzt?ADGJanFebMarAprMayJunJulAugSepOctNovDecTotalRM thst£€฿·×®«»№–¦🇬🇧")
        let others: [Character] = ["é", "ä", "’", "‘", "´", "°", "\u{00A0}", "٣", "Ⓐ", "ſ", "K", "e\u{301}", "ß", "Ö", "ǅ", "ª", "ー", "日", "Ⅻ", "🇬🇧"]
        let pieces = ["25/12/2018", "2018-03-04", "12 Mar 2018", "Mar 4, 2018", "Jun18'16", "Jun18’16", "25032018 13:11", "Date: 08122018",
                      "MayOi'19", "MAR3S1°14", "27dpr' 13", "GS Jan 2017 12:41", "O1/12/2018 10:22", "12 Déc. 2018", "4. März 2018", "£25/12/2018",
                      "25/12/2018€", "€12.50 12Mar18", "Ⓐdate 08122018", "25\u{00A0}/12/2018", "12-févr-2018", "20180304", "12thMarch2018",
                      "27Dec´16", "12’2018", "25/Féb/2017", "1ſt Mar 2018", "TARIKH 08122018", "Mäy 4 ’18", "4 Juin‘18", "12 ° 2018", "éJan 12 2018"]
        var g = Lines(state: 29)
        func key(_ d: [RawDate]) -> [String] { d.map { "\($0.first) \($0.second) \($0.year) \($0.shape) \($0.afterLetter) \($0.text) \($0.rule) \($0.repaired ?? "")" } }
        var neutral = 0, standIns = 0
        for _ in 0..<20_000 {
            var s = g.line(alphabet, max: 20)
            if Bool.random(using: &g) { s += " " + pieces.randomElement(using: &g)! + g.line(alphabet, max: 6) }
            if Int.random(in: 0..<4, using: &g) == 0 { g.insertOne(of: others, into: &s) }
            if s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns) == true { neutral += 1 }
            if s.utf8.withContiguousStorageIfAvailable({ b in !b.allSatisfy { $0 < 0x80 } && DateScanner.Signs.standIn(b) != nil }) == true { standIns += 1 }
            let fast = DateScanner.scan(s, months: rules.months, monthWords: rules.monthWords)
            let all = DateScanner.scan(s, months: rules.months, everyPattern: true)
            #expect(key(fast) == key(all), "\(s)")
        }
        // (Most of the lines are of the kind this holds: the test asks what it says.)
        #expect(neutral > 5_000, "\(neutral)")
        #expect(standIns > 8_000, "\(standIns)")
    }

    /// Lines with letters or date marks not ASCII are no longer asked every pattern: a line without two digits none, and
    /// a line whose only run of letters with one not ASCII is too short for a month no month-name pattern.
    @Test func linesWithLettersNotASCIISkipWhatCannotMatch() {
        let rules = CompiledRules(.builtIn)
        func signs(_ s: String) -> DateScanner.Signs { DateScanner.Signs(s, monthWords: rules.monthWords) }
        #expect(signs("Vielen Dank für Ihren Einkauf").digits < 2)
        #expect(signs("Trader Joe’s").digits < 2)
        let sauté = signs("1 Sautéed Kang Kung 35.00"), noMonth = signs("Ré 35.00 ab")
        #expect(sauté.digits >= 2 && sauté.monthWord && !sauté.numericChain && !sauté.ymdChain && !sauté.digits8)
        #expect(!noMonth.monthWord)
        #expect(signs("27Dec´16 17:58").yearMark && signs("12’2018").separatorThenYear && !signs("12‘2018").separatorThenYear)
        #expect(signs("12\u{00A0}/12/2018").monthWord && signs("Cafe\u{301} 12 2018").monthWord)
    }

    @Test func neutralSignsAreOnlySignsNoDateReads() {
        func neutral(_ s: String) -> Bool { s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns)! }
        for s in ["£12.50", "Total € 9,80", "฿ 120", "1 × Tea · 2.00", "No № 12", "12–14", "®", "«No»"] { #expect(neutral(s), "\(s)") }
        for s in ["12.50", "", "café 12", "12’18", "12°14", "12´18", "12\u{00A0}50", "٣٠", "Ⓐ", "€\u{0301}", "Kelvin K", "tab\t€", "€\u{7F}", "«Café»", "🇬🇧 12.50"] {
            #expect(!neutral(s), "\(s)")
        }
    }

    /// WordLine as it was made before its ASCII path.
    static func paddedAsBefore(_ text: String) -> String {
        var out = ""
        var lastSpace = true
        for ch in text.lowercased() {
            if ch.isLetter || ch.isNumber { out.append(ch); lastSpace = false } else if !lastSpace { out.append(" "); lastSpace = true }
        }
        return " " + out.trimmingCharacters(in: .whitespaces) + " "
    }

    @Test func wordLineOnASCIIIsTheSame() {
        var g = Lines(state: 17)
        for _ in 0..<5_000 {
            let s = g.line(Self.textAlphabet)
            let w = WordLine(s), before = Self.paddedAsBefore(s)
            #expect(w.padded == before && w.letterCount == before.filter(\.isLetter).count && w.digitCount == before.filter(\.isNumber).count, "\(s)")
        }
        #expect(WordLine("").padded == Self.paddedAsBefore("") && WordLine("-- --").padded == "  ")
    }

    /// WordLine's words as places in its bytes (`spans`, with their byte masks and the line's word bits)
    /// against `padded.split(separator: " ")`, on ASCII and on lines with other characters.
    @Test func wordLineSpansAreTheSplitWords() {
        var g = Lines(state: 19)
        let other = Array("éÄß€£ \u{301}ñ")
        for k in 0..<5_000 {
            var s = g.line(Self.textAlphabet)
            if k % 3 == 0, !s.isEmpty { s.insert(other.randomElement(using: &g)!, at: s.index(s.startIndex, offsetBy: Int.random(in: 0..<s.count, using: &g))) }
            let w = WordLine(s)
            let split = w.padded.split(separator: " ")
            #expect(w.words == split && w.spans.count == split.count, "\(s)")
            #expect(w.wordBytes == split.map { Array($0.utf8) }, "\(s)")
            #expect(w.spans.map(\.mask) == split.map { WordLine.byteMask(Array($0.utf8)) }, "\(s)")
            #expect(w.wordMask == split.reduce(0) { $0 | WordLine.bit(Array($1.utf8)) }, "\(s)")
            #expect(w.lineByteMask == split.reduce(0) { $0 | WordLine.byteMask(Array($1.utf8)) }, "\(s)")
        }
    }

    /// A line whose only characters not ASCII are signs (`Bytes.printableWithNeutralSigns`: "£12.50") has its words
    /// made on the ASCII path: the same padded line, counts and words as the general path made, `isASCII` (of
    /// `padded`) true and `textIsASCII` false; a line with a letter, number or space not ASCII keeps both false.
    @Test func wordLineWithSignsNotASCIIIsTheSame() {
        var g = Lines(state: 31)
        let signs = Array("£€฿·×®«»№–¦¢¥§¶†•…‰‹›🇬🇧🇪🇺")
        let others = Array("éÄß\u{301}ñ’°\u{00A0}½①Ⓐ")
        var fast = 0
        for k in 0..<5_000 {
            var s = g.line(Self.textAlphabet)
            for _ in 0..<Int.random(in: 1...3, using: &g) {
                g.insertOne(of: signs, into: &s)
            }
            if k % 4 == 0 { g.insertOne(of: others, into: &s) }
            let w = WordLine(s), before = Self.paddedAsBefore(s)
            let onlySigns = !s.unicodeScalars.contains { !$0.isASCII && !signs.contains(Character($0)) }
            #expect(w.padded == before && w.letterCount == before.filter(\.isLetter).count && w.digitCount == before.filter(\.isNumber).count, "\(s)")
            #expect(w.isASCII == onlySigns && !w.textIsASCII, "\(s)")
            let split = before.split(separator: " ")
            #expect(w.wordBytes == split.map { Array($0.utf8) } && w.spans.map(\.mask) == split.map { WordLine.byteMask(Array($0.utf8)) }, "\(s)")
            #expect(w.wordMask == split.reduce(0) { $0 | WordLine.bit(Array($1.utf8)) }, "\(s)")
            if w.isASCII { fast += 1 }
        }
        #expect(fast > 3_000)
    }

    /// Lines of a European receipt: Latin letters ("Rückgeld", "Crème", "Año") and signs ("€", "–") not ASCII among ASCII.
    /// The lines of SampleReceipts/text (the project's German, French, Spanish and British receipts as true text), then
    /// generated ones, a fifth with one character more that takes a line off the fast paths (a combining mark, "İ", "ſ",
    /// a space, a number or a date mark not ASCII).
    static func latinLines() -> [String] {
        let dir = FrozenOCRTests.root.appendingPathComponent("SampleReceipts/text/box")
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
        var out: [String] = files.flatMap { f in
            ((try? String(contentsOfFile: dir.appendingPathComponent(f).path, encoding: .utf8)) ?? "").split(separator: "\n").map {
                String($0.split(separator: ",", maxSplits: 8, omittingEmptySubsequences: false).last ?? "")
            }
        }
        var g = Lines(state: 53)
        let letters = Array("äöüÄÖÜßéèêëàâçÉÈÀÇîïôœŒùûÿñÑáíóúÁÍÓÚåøæÅØÆłŁšŠžŽčČđĐőűȘșțȚ")
        let signs = Array("€£–—•·×®«»№")
        let others = Array("\u{301}\u{0130}\u{017F}\u{0131}\u{00A0}½٣’°ǅ")
        // (Forms, skip words read with a slip or two, and "ß" that upper-cases to two letters.)
        let pieces = [" GmbH", " GmbH & Co. KG", " OHG", " S.L.", " Ltd", " SARL", " Sdn Bhd", " ENTERPRISE", " ENTERPR1SE", " TRADING",
                      " TEL", " TOTAL", " T0TAL", " R3CEIPT", " RECEIPT", " CASHIER", " Straße", " STRASSE", " MÜLLER", " Çafé", " Kaßenbon", " KASSENB0N"]
        for k in 0..<10_000 {
            var s = g.line(Self.textAlphabet, max: 20)
            if k % 3 == 0 { s += pieces.randomElement(using: &g)! }
            for _ in 0..<Int.random(in: 1...4, using: &g) { g.insertOne(of: letters, into: &s) }
            if k % 2 == 0 { g.insertOne(of: signs, into: &s) }
            if k % 5 == 0 { g.insertOne(of: others, into: &s) }
            out.append(s)
        }
        return out
    }

    /// On a line of Latin letters and neutral signs, the line lower-cased on its bytes (`Bytes.latinLowered`) is
    /// `lowercased()`, its `WordLine` (made on its bytes) is the general path's, and its currencies (the number beside a
    /// sign read on the bytes) are the character path's; any other line is left to the general paths.
    @Test func linesOfLatinLettersAreTheGeneralPaths() throws {
        let rules = CompiledRules(.builtIn)
        let lines = Self.latinLines()
        #expect(lines.count > 11_000)
        var latin = 0, withEuro = 0
        for s in lines {
            let isLatin = s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithLatinLetters) == true
            let signs = s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns) == true
            let ascii = s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            let lowered = try #require(s.utf8.withContiguousStorageIfAvailable(Bytes.latinLowered))
            if isLatin || signs || ascii { #expect(lowered == Array(s.lowercased().utf8), "\(s)") } else { #expect(lowered == nil, "\(s)") }
            // (A Latin letter is one: a line with one is no line of signs.)
            #expect(!(isLatin && signs), "\(s)")
            let w = WordLine(s), before = Self.paddedAsBefore(s)
            #expect(w.padded == before && w.letterCount == before.filter(\.isLetter).count && w.digitCount == before.filter(\.isNumber).count, "\(s)")
            let split = before.split(separator: " ")
            #expect(w.wordBytes == split.map { Array($0.utf8) } && w.spans.map(\.mask) == split.map { WordLine.byteMask(Array($0.utf8)) }, "\(s)")
            #expect(w.wordMask == split.reduce(0) { $0 | WordLine.bit(Array($1.utf8)) } && !w.isASCII == !(ascii || signs), "\(s)")
            let l = ParseLine(index: 0, line: OCRLine(text: s), rules: rules, scanAmounts: false)
            #expect(rules.characterCurrencies(in: l.text, words: l.words) == rules.characterCurrencies(in: l.text, words: l.words, byBytes: false), "\(s)")
            // A legal form ending the line, the first form on it, and a skip word misread, as the characters say.
            #expect(w.simpleScalars == (ascii || signs || isLatin), "\(s)")
            for k in rules.legalForms.keywords where w.endsWith(k) != w.padded.hasSuffix(k.normalised) { Issue.record("endsWith \(k.raw): \(s)") }
            let first = rules.legalForms.keywords.first { w.padded.hasSuffix($0.normalised) || w.contains($0) && $0.length >= 6 }
            #expect(rules.firstLegalForm(ending: w) === first, "\(s)")
            let upper = w.words.filter { $0.count >= 5 }.map { Array($0.uppercased()) }
            let misread = rules.misreadSkipTargets.contains { t in
                upper.contains { u in
                    let differ = zip(u, t).filter { $0 != $1 }
                    return u.count == t.count && differ.count <= 2 && differ.allSatisfy { CompiledRules.confusable($0, $1) }
                }
            }
            #expect(rules.misreadSkipWord(w) == misread, "\(s)")
            // What an item's name sheds at its ends, as the expressions shed it (the line as it is, and with marks, signs
            // and flags at its ends).
            for t in [s, "•– " + s, s + " €", s + " £", s + " ¥", s + " ¥ ", s + "  EUR", s + " —“", s + " A", s + " TF"] {
                func expression(_ p: Pattern) -> String { p.regex.stringByReplacingMatches(in: t, range: NSRange(t.startIndex..., in: t), withTemplate: "") }
                #expect(ReceiptParser.droppingLeadingMarks(t) == expression(ReceiptParser.leadingMarks), "\(t)")
                #expect(ReceiptParser.droppingTrailingMarks(t) == expression(ReceiptParser.trailingMarks), "\(t)")
                #expect(ReceiptParser.droppingTrailingCurrencyWord(t) == expression(ReceiptParser.trailingCurrencyWord), "\(t)")
                #expect(ReceiptParser.droppingTrailingCurrencySign(t) == expression(ReceiptParser.trailingCurrencySign), "\(t)")
                #expect(ReceiptParser.droppingTrailingTaxFlag(t) == expression(ReceiptParser.trailingTaxFlag), "\(t)")
            }
            // Its amounts, read on the stand-in by hand as the expression reads the line (and glued to a word with a Latin
            // letter: never a currency word).
            for t in [s, s + " 12,50", "ü12,50 " + s, s + " Rü12.50", s + " üRM3.00", s + " RM3.00", s + " -.50 ß", s + " € 43 70"] {
                #expect(AmountScanner.scan(t) == AmountScanner.scan(t, byBytes: false), "\(t)")
            }
            if isLatin { latin += 1 }
            if isLatin && s.contains("€") { withEuro += 1 }
        }
        #expect(latin > 8_000 && withEuro > 500)
        // The table: letters in, what is no plain letter of two bytes out.
        for c in "äÖßéÇœñÑÿ" { #expect(Bytes.latinLower(c.unicodeScalars.first!) == String(c).lowercased().unicodeScalars.first!) }
        for u in ["\u{0130}", "\u{0131}", "\u{017F}", "×", "÷", "ª"].map({ $0.unicodeScalars.first! }) { #expect(Bytes.latinLower(u) == nil, "\(u)") }
    }

    /// On a line of Latin letters and neutral signs, an expression's `mayMatch` is asked of the line's stand-in
    /// (`Bytes.pretestStandIn`) where `Pattern.standInsSafe` allows it: it never refuses a line the expression matches.
    /// The lines of SampleReceipts/text and generated ones, with pieces that make the expressions match now and then.
    @Test func pretestsOnStandInsNeverRefuseAMatch() {
        let rules = CompiledRules(.builtIn)
        let patterns = Self.patternsWithPretests(rules)
        let pieces = ["GmbH", "GmbH & Co. KG", "S.à r.l.", "SARL", "S.L.", "(12345-X)", "[KJ1]", " 1234567-W", "—————", "–––", "ab ",
                      "12:30 Uhr", "14h05", "2 x 1,29 €", "0,754 kg x 3,99 €/kg", "3 @ £1.20", "**** 1234", "•••• 5678", "12,50 €", "€ 3,99",
                      "£12.50", "$43 70", "Straße 5", "Süßwaren", "SS", "ß", "Crème Brûlée", "Año 2025", "27.11.2025", "27 déc. 2025",
                      " A", " B", "<A>", "..", "#12 ", "Co. Reg. 12345-X", "SON 8HD", "ENTERPRISE", "  "]
        let letters = Array("äöüÄÖÜßéèàçÉœñÑáóøåšž")
        var g = Lines(state: 59)
        var lines = Self.latinLines()
        for k in 0..<20_000 {
            var s = g.line(Self.textAlphabet, max: 14)
            if Bool.random(using: &g) { s += pieces.randomElement(using: &g)! + g.line(Self.textAlphabet, max: 6) }
            if Bool.random(using: &g) { s = pieces.randomElement(using: &g)! + s }
            if k % 3 != 0 { g.insertOne(of: letters, into: &s) }
            lines.append(s)
        }
        var asked = 0
        // (And asked through one `Pattern.Pretests` kept across the lines, a line now and then asked again, or
        // asked as a copy of itself, or after a line that differs from it by a letter: the same answers.)
        let pretests = Pattern.Pretests()
        var previous = ""
        for (j, s) in lines.enumerated() {
            let standIn = s.utf8.withContiguousStorageIfAvailable(Bytes.pretestStandIn) ?? nil
            // (Every fourth line: the test's time is its expressions'.)
            for (k, (_, p)) in patterns.enumerated() where j % 4 == 0 {
                let asked = k % 3 == 0 ? previous : k % 3 == 1 ? String(decoding: Array(s.utf8), as: UTF8.self) : s
                #expect(p.worthRunning(asked, pretests) == p.worthRunning(asked), "\(asked)")
            }
            previous = s.isEmpty ? "x" : String(s.dropLast()) + (s.last == "a" ? "ä" : "a")
            for (name, p) in patterns where !p.worthRunning(s) {
                if standIn != nil { asked += 1 }
                #expect(p.regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) == nil, "\(name) refused \"\(s)\"")
            }
        }
        #expect(asked > 100_000)
        // What the stand-ins are, and which expressions may be asked of them.
        #expect(Bytes.pretestStandIn(Array("Süß — 4,68 €".utf8).withUnsafeBufferPointer { $0 })?.bytes == Array("Sqq * 4,68 #".utf8))
        for (p, safe) in [(#"(?<![0-9.,/:])(\d+)"#, true), (#"(?<![A-Za-z])(\d+)"#, false), (#"[^a-z]x"#, false), (#"\p{L}x"#, false),
                          (#"(?>\w+)x"#, false), (#"\s*[-=_~*—–]{3,}.*$"#, true), (#"[£€]\d"#, false), (#"\bgmbh\b"#, true), (#"(?!\d*#)x"#, false)] {
            #expect(Pattern.standInsSafe(p, caseInsensitive: true).safe == safe, "\(p)")
        }
        #expect(!Pattern.standInsSafe("strasse", caseInsensitive: true).sharpS && Pattern.standInsSafe("strasse", caseInsensitive: false).sharpS)
    }

    /// `OCRLine.text` (its words' bytes copied into one string) against `joined(separator: " ")`.
    @Test func lineTextIsTheJoinedWords() {
        var g = Lines(state: 23)
        let alphabet = Self.textAlphabet + Array("éÄß€£ñ")
        for _ in 0..<5_000 {
            let words = (0..<Int.random(in: 0...6, using: &g)).map { _ in OCRWord(text: g.line(alphabet, max: 30), confidence: 0.5) }
            let line = OCRLine(words: words)
            #expect(line.text == words.map(\.text).joined(separator: " ") && line.text.utf8.elementsEqual(words.map(\.text).joined(separator: " ").utf8))
        }
    }

    /// The month words' tables by length against the dictionaries they were looked up in, on runs of letters
    /// made from the month names themselves (as printed, a letter changed, added or dropped, upper case).
    @Test func monthWordsByLengthAreTheDictionaries() {
        let rules = CompiledRules(.builtIn)
        let words = rules.monthWords
        let names = rules.months.keys.sorted()
        var g = Lines(state: 29)
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var named = 0
        for k in 0..<20_000 {
            var run = Array(names.randomElement(using: &g)!.utf8.filter { $0 < 0x80 })
            switch k % 5 {
            case 1 where !run.isEmpty: run[Int.random(in: 0..<run.count, using: &g)] = letters.randomElement(using: &g)!.asciiValue!
            case 2: run.insert(letters.randomElement(using: &g)!.asciiValue!, at: Int.random(in: 0...run.count, using: &g))
            case 3 where !run.isEmpty: run.remove(at: Int.random(in: 0..<run.count, using: &g))
            case 4: run = (0..<Int.random(in: 3...10, using: &g)).map { _ in letters.randomElement(using: &g)!.asciiValue! }
            default: break
            }
            if k % 2 == 0 { run = run.map { Bytes.isLetter($0) ? $0 & ~0x20 : $0 } }
            run = run.filter(Bytes.isLetter)
            guard run.count >= 3 else { continue }
            let fast = run.withUnsafeBufferPointer { words.names($0) }
            #expect(fast == run.withUnsafeBufferPointer { words.namesByDictionaries($0) }, "\(String(decoding: run, as: UTF8.self))")
            if fast { named += 1 }
        }
        #expect(named > 1_000)
    }

    /// `AmountScanner.LineSigns` against what it stands for, and the amount expression finding nothing on a
    /// printable line without a point or comma (where `scan` no longer runs the matcher).
    @Test func amountLineSignsAreWhatScanAsked() {
        var g = Lines(state: 53)
        let alphabet = Self.amountAlphabet + Array("€£\u{7}é")
        for k in 0..<20_000 {
            var s = g.line(alphabet, max: 30)
            if k % 2 == 0 { s.removeAll { $0 == "." || $0 == "," } }
            let signs = s.utf8.withContiguousStorageIfAvailable(AmountScanner.LineSigns.init)!
            let b = Array(s.utf8)
            #expect(signs.ascii == b.allSatisfy { $0 < 0x80 } && signs.printable == b.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
                    && signs.separator == (b.contains(0x2E) || b.contains(0x2C)) && signs.dollar == b.contains(0x24)
                    && signs.minusPoint == bytesContain(b, "-."), "\(s)")
            if signs.printable, !signs.separator { #expect(AmountScanner.amount.matches(in: s).isEmpty, "\(s)") }
        }
    }

    /// The payment words and receipt-number keywords asked through their sets' signs: `any` is the first word of
    /// the list a line `contains`, and every keyword a line `contains` passes `may`.
    @Test func paymentAndNumberWordsAskedByTheirSigns() {
        let rules = CompiledRules(.builtIn)
        let sets = [rules.cardWords, rules.cashWords, rules.receiptNumberSet]
        let words = sets.flatMap { $0.map { $0.normalised.trimmingCharacters(in: .whitespaces) } }
            + ["visa", "vlsa", "mastercrad", "cash", "cahs", "invoice", "lnvoice", "receipt", "no", "bill", "12.50", "rm", "total"]
        var g = Lines(state: 59)
        for _ in 0..<3_000 {
            let line = (0..<Int.random(in: 1...4, using: &g)).map { _ in words.randomElement(using: &g)! }.joined(separator: " ")
            let w = WordLine(line)
            for set in sets {
                #expect(rules.any(set, in: w) === set.keywords.first(where: { w.contains($0) }), "\(line)")
                for i in set.indices where w.contains(set.keywords[i]) { #expect(w.may(set.signs[i], loosely: false), "\(line)") }
            }
        }
    }

    /// `Pattern.replacing(in:with:pretests:)` with `Pretests(printable:)` (the printable walk left to the caller) gives what `replacing(in:with:)`
    /// gives, on the expressions `VendorText.clean` asks it of, for printable lines (and any line when told it is not).
    @Test func replacingOnKnownPrintableTextIsTheSame() {
        let rules = CompiledRules(.builtIn)
        let patterns = [VendorText.registrationAtEnd, VendorText.branchCodeAtEnd, VendorText.bareNumberAtEnd, VendorText.ruleToEnd,
                        VendorText.leadingDots, VendorText.leadingScrap, rules.vendorText.scrapsAfterForm, rules.vendorText.numberAfterForm]
        let pieces = ["SDN BHD", "Sdn. Bhd. 12", "(12345-X)", "[KJ1]", " 1234567-W", "ENTERPRISE ab", "TRADING CO. 1", "---:-rm", "..NAME", "ri FOOD",
                      " GmbH x 2", " berhad 9"]
        var g = Lines(state: 61)
        for k in 0..<10_000 {
            var s = g.line(Self.textAlphabet, max: 16)
            if Bool.random(using: &g) { s += pieces.randomElement(using: &g)! }
            if Bool.random(using: &g) { s = pieces.randomElement(using: &g)! + " " + s }
            if k % 7 == 0 { s += "é" }
            let printable = s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            for p in patterns {
                #expect(p.replacing(in: s, with: "", pretests: Pattern.Pretests(printable: printable)) == p.replacing(in: s, with: ""), "\(s)")
                #expect(p.replacing(in: s, with: "", pretests: Pattern.Pretests()) == p.replacing(in: s, with: ""), "\(s)")
            }
        }
    }

    /// `CompiledRules.best` (its slips asked without `has` again) against its definition: the first of the best-ranked
    /// keywords on the line as printed, else the first of the best-ranked that `contains` finds.
    @Test func bestIsTheFirstOfTheBest() {
        let rules = CompiledRules(.builtIn)
        let sets = [rules.total, rules.subtotal, rules.tax, rules.rounding, rules.cash, rules.change, rules.discount]
        let words = ["sub", "total", "subtotal", "sutotal", "subtota1", "rubtota", "sub tot", "tota", "totai", "cash", "casn", "change", "chanqe",
                     "rounding", "roundlng", "adj", "tax", "gst", "amount", "due", "discount", "dlscount", "12.50", "rm", "grand", "nett"]
        var g = Lines(state: 67)
        for _ in 0..<3_000 {
            let line = (0..<Int.random(in: 1...4, using: &g)).map { _ in words.randomElement(using: &g)! }.joined(separator: " ")
            let w = WordLine(line)
            for set in sets {
                for loosely in [false, true] {
                    let want = set.keywords.filter { w.has($0) }.max(by: CompiledRules.ranksBelow)
                        ?? set.keywords.filter { w.contains($0, loosely: loosely) }.max(by: CompiledRules.ranksBelow)
                    #expect(rules.best(set, in: w, loosely: loosely) === want, "\(line)")
                }
            }
        }
    }

    /// The keyword index (`KeywordHits`: a line's words looked up once for every set of the rules) against the walks of
    /// each set's keywords it stands for (the same set made apart from the rules, `slot` -1): `any`, `best`, `firstExact`,
    /// `anyExact` and `bestExact` of every set, asked in a different order on each line (the bits kept from the first
    /// ask answer the next), on lines of the keywords as printed, slipped once or twice, run together, among other text.
    /// Rules with a keyword of symbols alone (no words) and one not ASCII; a second index asking the same lines. And
    /// `isMoneyLabel`, the sets' bits asked at once, as each set asked in turn.
    @Test func keywordIndexGivesTheWalks() {
        var extended = ParserRules.builtIn
        extended.payment.card.append("--")
        extended.total.keywords["totalé"] = 0.9
        extended.subtotal.keywords["zwischentotal"] = 0.8
        let rules = CompiledRules(extended), other = CompiledRules(.builtIn)
        let sets = [rules.total, rules.totalDistractors, rules.totalTables, rules.subtotal, rules.tax, rules.taxExclude, rules.rounding,
                    rules.discount, rules.cash, rules.change, rules.changeExclude, rules.cashExclude, rules.dateKeywords,
                    rules.dateDistractors, rules.legalForms, rules.vendorSkip, rules.addressWords, rules.cardWords, rules.cashWords,
                    rules.receiptNumberSet, rules.itemSkip, rules.itemDiscount, rules.itemVoid]
        #expect(Set(sets.map(\.slot)).count == sets.count && sets.allSatisfy { $0.slot >= 0 })
        let apart = sets.map { CompiledRules.KeywordSet($0.keywords) }
        let words = sets.flatMap { $0.map { $0.normalised.trimmingCharacters(in: .whitespaces) } }.filter { !$0.isEmpty }
        var g = Lines(state: 71)
        var moneyLabels = 0
        func slip(_ w: String) -> String {
            var c = Array(w)
            guard !c.isEmpty else { return w }
            let i = Int.random(in: 0..<c.count, using: &g)
            switch Int.random(in: 0..<4, using: &g) {
            case 0: c[i] = "oil1a".randomElement(using: &g)!
            case 1: c.remove(at: i)
            case 2: c.insert("xl0".randomElement(using: &g)!, at: i)
            default: c.append("es".randomElement(using: &g)!)
            }
            return String(c)
        }
        for n in 0..<2_500 {
            var pieces: [String] = []
            for _ in 0..<Int.random(in: 0...4, using: &g) {
                var w = words.randomElement(using: &g)!
                for _ in 0..<Int.random(in: 0...2, using: &g) { w = slip(w) }
                if Bool.random(using: &g) { w = w.uppercased() }
                pieces.append(w)
            }
            if n % 3 == 0 { pieces.append(g.line(Self.textAlphabet, max: 10)) }
            if n % 11 == 0 { pieces.append("café") }
            pieces.shuffle(using: &g)
            let line = pieces.joined(separator: ["", " ", " ", ": ", "-", "  "].randomElement(using: &g)!)
            let w = WordLine(line)
            if n % 5 == 0 { _ = other.any(other.total, in: w) }
            for j in sets.indices.shuffled(using: &g) {
                let set = sets[j], walk = apart[j]
                for loosely in [false, true].shuffled(using: &g) {
                    #expect(rules.any(set, in: w, loosely: loosely) === rules.any(walk, in: w, loosely: loosely), "\(line) / \(j)")
                    #expect(rules.best(set, in: w, loosely: loosely) === rules.best(walk, in: w, loosely: loosely), "\(line) / \(j)")
                }
                #expect(rules.firstExact(set, in: w) == rules.firstExact(walk, in: w), "\(line) / \(j)")
                #expect(rules.anyExact(set, in: w) === rules.anyExact(walk, in: w), "\(line) / \(j)")
                #expect(rules.bestExact(set, in: w) === rules.bestExact(walk, in: w), "\(line) / \(j)")
            }
            // A money label read from the line's bits, the sets at once, as asked of each set in turn.
            #expect(rules.isMoneyLabel(w) == rules.isMoneyLabel(w, byBits: false), "\(line)")
            if rules.isMoneyLabel(w) { moneyLabels += 1 }
        }
        #expect(moneyLabels > 500)
    }

    /// `TimeScanner.matches` on a line whose only characters not ASCII are signs (matched by hand on a stand-in): the
    /// expression's matches, hours to meridiem, at the same places in the line; and with letters, digits and spaces
    /// not ASCII beside them (the expression itself).
    @Test func timesWithSignsNotASCIIAreTheExpressions() {
        var g = Lines(state: 47)
        let pieces = ["12:30", "1:05", "23:59:59", "9 : 45", "24:00", "10:3O", " PM", "pm", "P.M.", "a.m", " : AM", "P. M", ".5", ",",
                      ":", " ", "0", "1", "2", "5", "12", "x", "m", ".", "/", "£", "€", "·", "×", "£12:30", "12:30€", "«", "»", "🇬🇧", "12:30🇪🇺"]
        let others = ["é", "’", "\u{00A0}", "٣", "\u{301}"]
        var signsOnly = 0
        for k in 0..<30_000 {
            var s = (0..<Int.random(in: 1...8, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            if k % 5 == 0 { s += others.randomElement(using: &g)! + pieces.randomElement(using: &g)! }
            if s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns) == true { signsOnly += 1 }
            let want = TimeScanner.time.matches(in: s).map { m in
                "\(m.groups[1].flatMap { Int($0) } ?? -1) \(m.groups[2].flatMap { Int($0) } ?? -1) \(m.groups[3].flatMap { Int($0) } ?? -1) \(m.groups[4]?.lowercased() ?? "-") \(s.distance(from: s.startIndex, to: m.range.lowerBound)) \(s.distance(from: s.startIndex, to: m.range.upperBound)) \(s[m.range])"
            }
            let got = TimeScanner.matches(s).map { m in
                "\(m.hour) \(m.minute) \(m.second ?? -1) \(m.meridiem ?? "-") \(s.distance(from: s.startIndex, to: m.range.lowerBound)) \(s.distance(from: s.startIndex, to: m.range.upperBound)) \(s[m.range])"
            }
            #expect(got == want, "\(s)")
        }
        #expect(signsOnly > 10_000)
    }

    @Test func timeScannerGivesTheExpressionsMatches() {
        var g = Lines(state: 41)
        let pieces = ["12:30", "1:05", "23:59:59", "9 : 45", "24:00", "10:3O", " PM", "pm", "P.M.", "a.m", " : AM", "P. M", ".5", ",",
                      ":", " ", "0", "1", "2", "3", "5", "9", "12", "x", "A", "m", ".", "/"]
        for _ in 0..<30_000 {
            let s = (0..<Int.random(in: 1...7, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let hand = s.utf8.withContiguousStorageIfAvailable { TimeScanner.handMatches($0) } ?? []
            let regex = TimeScanner.time.matches(in: s)
            let want = regex.map { m in
                "\(m.groups[1].flatMap { Int($0) } ?? -1) \(m.groups[2].flatMap { Int($0) } ?? -1) \(m.groups[3].flatMap { Int($0) } ?? -1) \(m.groups[4] ?? "-") \(s.utf8.distance(from: s.startIndex, to: m.range.lowerBound)) \(s.utf8.distance(from: s.startIndex, to: m.range.upperBound))"
            }
            let got = hand.map { m in
                "\(m.hour) \(m.minute) \(m.second ?? -1) \(m.meridiem.map { String(UnicodeScalar($0)) } ?? "-") \(m.start) \(m.end)"
            }
            #expect(got == want, "\(s)")
        }
    }

    /// The byte replacement against Foundation's, overlapping occurrences among them ("aaa", "aa"), and text
    /// that is not printable ASCII (handed to Foundation).
    @Test func replacingOccurrencesIsFoundations() {
        var g = Lines(state: 43)
        let targets = [" ", ",", "aa", "a a", " sdn bhd ", "ab", "é", " "]
        for _ in 0..<20_000 {
            let s = g.line(Array("aab ,. sdnbhé"), max: 14)
            let t = targets.randomElement(using: &g)!
            for r in ["", ".", " ", "-", "xyz"] {
                #expect(replacingOccurrences(in: s, of: t, with: r) == s.replacingOccurrences(of: t, with: r), "\(s) / \(t) / \(r)")
            }
        }
    }

    @Test func splitOnSpacesIsSplit() {
        var g = Lines(state: 47)
        for _ in 0..<20_000 {
            let s = g.line(Array("ab  c.\r\n\u{301}é\t"), max: 12)
            #expect(splitOnSpaces(s) == s.split(separator: " "), "\(s)")
        }
    }

    /// A number beside a currency sign looks like money on its bytes as on its characters (`looksLikeMoney`).
    @Test func moneyShapeOnBytesAsOnCharacters() {
        var g = Lines(state: 113)
        var money = 0
        for _ in 0..<30_000 {
            let s = g.line(Array("0123456789012.,.,"), max: 14)
            let bytes = ArraySlice(Array(s.utf8))
            if CompiledRules.looksLikeMoney(s) { money += 1 }
            #expect(CompiledRules.looksLikeMoney(bytes: bytes) == CompiledRules.looksLikeMoney(s), "\(s)")
        }
        #expect(money > 1_000, "\(money)")
    }

    @Test func textSearchesAreFoundations() {
        var g = Lines(state: 53)
        let needles = ["", " ", "ab", "AB", "a b", "Inv No", "inv#", "no", " tip ", "é", "b\u{301}"]
        for _ in 0..<20_000 {
            let s = g.line(Array("abAB nNoOiI#v.tp\u{301}é"), max: 14)
            let n = needles.randomElement(using: &g)!
            #expect(textContains(s, n) == s.contains(n), "\(s) / \(n)")
            #expect(rangeIgnoringCase(of: n, in: s) == s.range(of: n, options: .caseInsensitive), "\(s) / \(n)")
        }
        // Latin letters (searched on bytes) beside their bases, marks, ligatures and signs with equivalents ("\u{037E}"
        // for ";", searched by characters); and a line's words (`WordLine.holds`) as its padded text.
        let latinNeedles = ["e", "é", "cafe", "café", "strasse", "straße", "ss", "ae", "æ", "ij", "ĳ", "dž", "ǆ", " ü ", "u", "ü", ";", "\u{037E}",
                            "e\u{301}", "ö b", " ß", "fi", "ﬁ"]
        var onBytes = 0
        for _ in 0..<20_000 {
            let s = g.line(Array("abe efu s;  ") + ["é", "ü", "ß", "æ", "ĳ", "ǆ", "ö", "\u{037E}", "e\u{301}", "ﬁ", "€"], max: 12)
            let n = latinNeedles.randomElement(using: &g)!
            if Bytes.printableOrLatinLetters(s) && Bytes.printableOrLatinLetters(n) { onBytes += 1 }
            #expect(textContains(s, n) == s.contains(n), "\(s) / \(n)")
            let w = WordLine(s)
            #expect(w.holds(text: n) == w.padded.contains(n), "\(s) / \(n)")
        }
        #expect(onBytes > 3_000, "\(onBytes)")
    }

    @Test func wordAfterATimeIsTheExpressions() {
        var g = Lines(state: 31)
        for _ in 0..<20_000 {
            let s = g.line(Array("  \"'.|4PpMmAaFfHx1 -:"), max: 8)
            guard let hand = TimeScanner.wordAfter(s[...]) else { continue }
            #expect(hand == TimeScanner.meridiemAfter.matches(in: s).first.map { $0.groups[1] } ?? nil, "\(s)")
        }
    }

    /// `WordLine.contains(keyword, loosely:)` as it was before its masks: the words as printed, one slip away
    /// (five letters or more), two (eight or more, loosely; also two neighbours run together).
    @Test func keywordsMatchAsBeforeTheMasks() {
        let rules = CompiledRules(.builtIn)
        let sets = [rules.total, rules.subtotal, rules.tax, rules.vendorSkip, rules.legalForms, rules.totalDistractors, rules.rounding,
                    rules.discount, rules.cash, rules.change, rules.dateKeywords, rules.taxExclude]
        let words = ["sub", "total", "subtotal", "sutotal", "subtota1", "rubtota", "sub tot", "tota", "totai", "cash", "change", "invoice",
                     "lnvoice", "tax", "gst", "sdn", "bhd", "berhad", "enterprlse", "zwischensumme", "amount", "due", "12.50", "rm",
                     "grand total", "rounding", "discount", "date", "tarikh", "balance", "net total", "total tax", "sales tax", "tendered"]
        var g = Lines(state: 37)
        func before(_ w: WordLine, _ k: CompiledRules.Keyword, _ loosely: Bool) -> Bool {
            if w.has(k.normalised) { return true }
            let n = k.core.count
            guard n >= 5, !k.core.contains(32) else { return false }
            if w.wordBytes.contains(where: { abs($0.count - n) <= 1 && EditDistance.withinOne($0, k.core) }) { return true }
            guard loosely, n >= WordLine.twoSlipsFrom else { return false }
            func near(_ x: [UInt8]) -> Bool { abs(x.count - n) <= 2 && EditDistance.levenshtein(x, k.core, limit: 3) <= 2 }
            return w.wordBytes.contains(where: near) || zip(w.wordBytes, w.wordBytes.dropFirst()).contains { near($0 + $1) }
        }
        for _ in 0..<3_000 {
            let line = (0..<Int.random(in: 1...4, using: &g)).map { _ in words.randomElement(using: &g)! }.joined(separator: " ")
            let w = WordLine(line)
            for set in sets {
                for (i, k) in set.enumerated() {
                    for loosely in [false, true] {
                        let found = w.contains(k, loosely: loosely)
                        #expect(found == before(w, k, loosely), "\(line) / \(k.raw)")
                        // The set's signs never refuse a keyword the line holds.
                        #expect(!found || w.may(set.signs[i], loosely: loosely), "\(line) / \(k.raw)")
                    }
                }
                for loosely in [false, true] {
                    #expect(rules.any(set, in: w, loosely: loosely) === set.first { w.contains($0, loosely: loosely) }, "\(line)")
                }
                #expect(rules.anyExact(set, in: w) === set.first { w.has($0) }, "\(line)")
                // `best` and `bestExact` (the keywords asked by their word bits, out of order) as the walk in order
                // gave them: the first of the best.
                func firstOfBest(_ matches: (CompiledRules.Keyword) -> Bool) -> CompiledRules.Keyword? {
                    var best: CompiledRules.Keyword?
                    for k in set where matches(k) {
                        if let b = best, !CompiledRules.ranksBelow(b, k) { continue }
                        best = k
                    }
                    return best
                }
                let exact = firstOfBest { w.has($0) }
                #expect(rules.bestExact(set, in: w) === exact, "\(line)")
                for loosely in [false, true] {
                    #expect(rules.best(set, in: w, loosely: loosely) === (exact ?? firstOfBest { w.contains($0, loosely: loosely) }), "\(line)")
                }
            }
        }
    }

    /// The currency signs of an ASCII line read from its bytes (no `WordLine`) as the character path reads them.
    @Test func currenciesOnASCIIAreTheCharacterPaths() {
        let rules = CompiledRules(.builtIn)
        let pieces = ["RM", "rm13.40", "RM 3.00", "rm-", "USD", "us$5.00", "S$ 4.20", "$12.50", "12,50 $", "5.60 $", "HK$3.00", "fr. 2.50",
                      "EUR", "euro", "Rs 40", "php", "phphp 1", "form", "kr", "KR9", "$000022185", "A$ 1,234.50", "MYR"]
        var g = Lines(state: 41)
        for _ in 0..<20_000 {
            var s = g.line(Self.textAlphabet, max: 12)
            for _ in 0..<Int.random(in: 0...3, using: &g) { s += pieces.randomElement(using: &g)! + g.line(Self.textAlphabet, max: 4) }
            let l = ParseLine(index: 0, line: OCRLine(text: s), rules: rules, scanAmounts: false)
            #expect(rules.asciiCurrencies(in: l.text) == rules.characterCurrencies(in: l.text, words: l.words), "\(s)")
        }
    }

    /// The currency signs of a line whose only characters not ASCII are signs ("£12.50", "12,50 €"), the number beside a
    /// sign read on its bytes, as the character path reads them; and with letters, numbers and spaces not ASCII beside.
    @Test func currenciesWithSignsNotASCIIAreTheCharacterPaths() {
        let rules = CompiledRules(.builtIn)
        let pieces = ["£12.50", "£ 3", "12,50 €", "€1.234,50", "5.60 €", "¥1200", "฿ 40.00", "₹99", "£000022185", "RM 3.00", "$12.50", "12,50 $",
                      "us$5.00", "S$ 4.20", "HK$3.00", "EUR", "£-4.00", "1,2,3 £", "€,50", "GBP"]
        let signs = Array("£€¥฿·×®«»№–¦🇬🇧🇪🇺")
        let others = Array("éÄ\u{301}’°\u{00A0}½٣")
        var g = Lines(state: 43)
        var signsOnly = 0
        for k in 0..<20_000 {
            let s = g.lineWithSigns(k, Self.textAlphabet, max: 12, pieces: pieces, tail: 4, signs: signs, others: others)
            if s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns) == true { signsOnly += 1 }
            let l = ParseLine(index: 0, line: OCRLine(text: s), rules: rules, scanAmounts: false)
            #expect(rules.characterCurrencies(in: l.text, words: l.words) == rules.characterCurrencies(in: l.text, words: l.words, byBytes: false), "\(s)")
        }
        #expect(signsOnly > 12_000)
    }

    /// An ASCII digit as `wholeAmounts` asks it of a character (its `asciiValue` a digit's) as it asked before
    /// (`isASCII && isNumber`): every ASCII character, "\r\n", and numbers and marks not ASCII.
    @Test func asciiDigitsOfCharactersAsBefore() {
        let others: [Character] = ["\r\n", "٣", "½", "１", "①", "e\u{301}", "1\u{301}", "7\u{20E3}", "²", "Ⅻ"]
        for ch in (0..<128).map({ Character(Unicode.Scalar(UInt8($0))) }) + others {
            #expect((ch.isASCII && ch.isNumber) == (ch.asciiValue.map(Bytes.isDigit) ?? false), "\(ch.unicodeScalars.map(\.value))")
        }
    }

    /// `Amount(string)` as it read every string before its plain digits were made by hand: the same Decimal byte for
    /// byte, the same cents known, or nil alike; on plain amounts, zeros, signs, spaces, points and other bytes.
    @Test func amountsFromStringsAsThePOSIXScan() {
        func before(_ string: String) -> Decimal? {
            let s = string.trimmingCharacters(in: .whitespaces)
            guard !s.isEmpty, s.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-") }),
                  s.filter({ $0 == "." }).count <= 1 else { return nil }
            return Decimal(string: s, locale: Locale(identifier: "en_US_POSIX"))
        }
        func raw(_ d: Decimal?) -> [UInt8]? { d.map { var d = $0; return withUnsafeBytes(of: &d) { Array($0) } } }
        var g = Lines(state: 0x416D_7473)
        var plain = 0
        for k in 0..<30_000 {
            var s = String((0..<Int.random(in: 0...(k % 4 == 0 ? 21 : 7), using: &g)).map { _ in "0001234567899".randomElement(using: &g)! })
            if Bool.random(using: &g) { g.insertOne(of: ["."], into: &s) }
            if k % 3 == 0 { s = "-" + s }
            if k % 7 == 0 { g.insertOne(of: [".", "-", " ", "x", ",", "½", "\u{301}"], into: &s) }
            if k % 11 == 0 { s = " " + s + " " }
            let a = Amount(s)
            if a != nil, s.utf8.allSatisfy({ $0 != 0x20 }), !s.hasSuffix(".") { plain += 1 }
            #expect(raw(a?.value) == raw(before(s)), "\(s)")
            #expect(a?.knownCents == Amount(s.trimmingCharacters(in: .whitespaces) + " ")?.knownCents, "\(s)")
        }
        #expect(plain > 15_000)
    }

    /// The receipt number found from the keywords a line's bits say it holds as from every keyword asked of every line:
    /// keywords as printed, slipped, in capitals, run into the number or spaced from it, among other text.
    @Test func receiptNumbersFromTheLinesBitsAsFromEveryKeyword() {
        let parser = ReceiptParser()
        let keywords = parser.compiled.receiptNumberKeywords.map(\.0.raw)
        let tokens = ["12345", "A-0042", "INV/2023/001", "#889", "x", "", "no", "12", "0O1", "2023-11-05"]
        var g = Lines(state: 0x5263_7074)
        var found = 0
        for _ in 0..<3_000 {
            var texts: [String] = []
            for _ in 0..<Int.random(in: 1...6, using: &g) {
                var kw = Int.random(in: 0...2, using: &g) == 0 ? g.line(Self.textAlphabet, max: 10) : keywords.randomElement(using: &g)!
                if Int.random(in: 0...3, using: &g) == 0 { kw = g.slipped(kw) }
                if Bool.random(using: &g) { kw = kw.uppercased() }
                texts.append(kw + [" ", ": ", "", "  "].randomElement(using: &g)! + tokens.randomElement(using: &g)!)
            }
            let lines = texts.enumerated().map { ParseLine(index: $0.offset, line: OCRLine(text: $0.element), rules: parser.compiled) }
            let quick = parser.receiptNumber(lines), every = parser.receiptNumber(lines, byIndex: false)
            #expect(quick == every, "\(texts)")
            if every != nil { found += 1 }
        }
        #expect(found > 1_500)
    }

    /// A GST code and its rate first on a row (`startsWithTaxCodeAndRate`), its code compared on bytes, as the code
    /// upper-cased as a string was looked up among `leadingTaxCodes`.
    @Test func taxCodesFirstOnBytesAsUpperCased() {
        func before(_ text: String) -> Bool {
            let b = Array(text.utf8)
            var i = 0
            while i < b.count, b[i] == 0x20 { i += 1 }
            let start = i
            while i < b.count, Bytes.isLetter(b[i]) { i += 1 }
            guard i > start, ReceiptParser.leadingTaxCodes.contains(String(decoding: b[start..<i], as: UTF8.self).uppercased()) else { return false }
            while i < b.count, b[i] == 0x20 || b[i] == UInt8(ascii: "@") || b[i] == UInt8(ascii: "(") { i += 1 }
            let digits = i
            while i < b.count, Bytes.isDigit(b[i]) || b[i] == UInt8(ascii: ".") { i += 1 }
            return i > digits && i < b.count && b[i] == UInt8(ascii: "%")
        }
        var g = Lines(state: 0x5461_7843)
        let pieces = ["SR", "sr", "Zr", "ZRL", "zre", "ES", "os", "S", "SRS", "ZRX", "SR@", " ", "@", "(", "6", "0.00", ".", "%", "é", "Ä", "R"]
        var codes = 0
        for _ in 0..<20_000 {
            var s = (0..<Int.random(in: 1...5, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            if Bool.random(using: &g) {
                s = [" ", ""].randomElement(using: &g)! + pieces[0..<8].randomElement(using: &g)! + [" @ ", "(@ ", " ", "", "@"].randomElement(using: &g)!
                    + ["6", "0", "6.00", ".", ""].randomElement(using: &g)! + ["%", "% 2.56", " %", ""].randomElement(using: &g)!
            }
            #expect(ReceiptParser.startsWithTaxCodeAndRate(s) == before(s), "\(s)")
            if before(s) { codes += 1 }
        }
        #expect(codes > 2_000)
    }

    /// A note's case asked alone (`isLargestAmount`, `isComputedSubtotalPlusTax`, for a total's notes) as `==` asks it,
    /// of a note of every case.
    @Test func noteCasesAskedAsEqualityAsksThem() {
        for n in NotesTests.everyNote {
            #expect(n.isLargestAmount == (n == .largestAmount), "\(n)")
            #expect(n.isComputedSubtotalPlusTax == (n == .computedSubtotalPlusTax), "\(n)")
        }
        #expect(NotesTests.everyNote.contains(.largestAmount) && NotesTests.everyNote.contains(.computedSubtotalPlusTax))
    }

    /// A bare dollar's questions: "US$" asked on bytes as `uppercased().contains` asks it, and the dollar hints asked as
    /// a set of keywords (`anyIndex`, from a line's bits or by their signs, and the set made apart from the index) and
    /// one by one (`contains(Keyword)`) as `contains(String)` asks their normalised words.
    @Test func dollarQuestionsAsBefore() {
        let rules = CompiledRules(.builtIn)
        let pieces = ["US$", "us$", "Us$ 5", "uS$", "U S$", "HST", "hst 13%", "Interac", "lnterac", "INTERAC", "Eftpos", "EFTP0S", "eft pos", "octopus",
                      "octupus", "NETS", "nets", "UEN", "ird", "abn", "tvq", "tps", "PST", "qst", "ſ", "ß$", "uſ$", "ÜS$"]
        let alphabet = Self.textAlphabet + Array("éÄß€£ñ")
        var g = Lines(state: 43)
        for _ in 0..<20_000 {
            var s = g.line(alphabet, max: 10)
            for _ in 0..<Int.random(in: 0...3, using: &g) { s += pieces.randomElement(using: &g)! + g.line(Self.textAlphabet, max: 4) }
            #expect(ReceiptParser.saysUSDollar(s) == s.uppercased().contains("US$"), "\(s)")
            let w = WordLine(s)
            #expect(rules.anyIndex(rules.dollarHintSet, in: w) == rules.dollarHints.firstIndex { w.contains($0.0) }, "\(s)")
            // The same set made apart from the index (the page lines inside merged rows), on a line of its own.
            #expect(rules.anyIndex(rules.dollarHintsApart, in: WordLine(s)) == rules.dollarHints.firstIndex { w.contains($0.0) }, "\(s)")
            #expect(rules.dollarHintSet.keywords.firstIndex { w.contains($0) } == rules.dollarHints.firstIndex { w.contains($0.0) }, "\(s)")
        }
    }

    /// The amount matcher on long lines, where it passes over the starts too far before a separator to begin a match.
    @Test func amountMatcherOnLongLines() {
        var g = Lines(state: 47)
        let filler = Array("OoDSIl|BiZzg0123456789 -abcXYZ")
        for _ in 0..<5_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...4, using: &g) { s += g.line(filler, max: 20) + g.line(Self.amountAlphabet, max: 8) }
            let hand = AmountScanner.amountMatches(s)
            let regex = AmountScanner.amount.matches(in: s)
            #expect(hand.map(\.range) == regex.map(\.range) && hand.map(\.groups) == regex.map(\.groups), "\(s)")
        }
    }

    /// `isCityLine` with its cheap refusal against the expressions alone; `looksLikeNoise` on bytes against characters.
    @Test func cityLinesAndNoiseAsBefore() {
        func cityBefore(_ text: String) -> Bool {
            if let m = CompiledRules.cityStatePostcode.matches(in: text).first, let code = m.groups[2] {
                let comma = m.groups[1] != nil, postcode = m.groups[3] != nil
                if CompiledRules.regionCodes.contains(code.uppercased()), comma || postcode { return true }
                if comma, postcode { return true }
            }
            return CompiledRules.ukPostcode.matches(in: text).first != nil
        }
        func noiseBefore(_ w: WordLine) -> Bool {
            let words = w.words.filter { $0.contains(where: \.isLetter) }
            guard !words.isEmpty else { return true }
            let short = words.filter { $0.count <= 2 }.count
            if words.count >= 2, short * 2 > words.count, (words.map(\.count).max() ?? 0) < 5 { return true }
            var odd = 0
            for word in words where word.count >= 3 {
                let noVowel = word.count > 3 && !word.contains(where: { CompiledRules.vowels.contains($0) })
                if noVowel || Set(word).count == 1 { odd += 1 }
            }
            return odd * 2 > words.count
        }
        let rules = CompiledRules(.builtIn)
        let pieces = ["Austin, TX 78701", "Denver, CO", "Denver CO", "SDN BHD", "Salem,  OR.", ", CA", "Perth NSW", "Leeds LS1 6AZ", "ON K1A 0B1",
                      "eee", "bcdf", "aaa", "xx yy", "Trading", "Hardware", "RESTORAN", "bakery.", "HARDHARE",
                      "RESTORAN HARBOR LANE oo", "CEDAR PINE  HARDWARE bhd", "AB CD ef", " NAME SDN BHD s/b",
                      "ENTERPRlSE", "Sdn. Bhd.", "TRADING CO.", "GmbH & Co. KG", "berhad"]
        var g = Lines(state: 43)
        for _ in 0..<20_000 {
            var s = g.line(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz    ,,..'-0123456789()"), max: 14)
            if Bool.random(using: &g) { s += pieces.randomElement(using: &g)! + g.line(Array(" .,-"), max: 2) }
            if Bool.random(using: &g) { s = pieces.randomElement(using: &g)! + " " + s }
            #expect(CompiledRules.isCityLine(s) == cityBefore(s), "\(s)")
            let w = WordLine(s)
            #expect(CompiledRules.looksLikeNoise(w) == noiseBefore(w), "\(s)")
            #expect(rules.firstLegalForm(ending: w) === rules.legalForms.first(where: { w.endsWith($0) || w.contains($0) && $0.length >= 6 }), "\(s)")
            #expect(rules.vendorText.droppingLowerScrapsASCII(s) == Self.lowerScrapsDroppedAsBefore(s, rules.vendorText), "\(s)")
            #expect(rules.hasNameWord(s) == s.split(whereSeparator: { !$0.isLetter }).contains { w in rules.nameWords[w.count]?.contains(w.uppercased()) ?? false }, "\(s)")
        }
        // Lines of Latin letters (`WordLine.simpleScalars`, read on their bytes): letters of two bytes among ASCII ones,
        // repeated ("ééé", "ÄÄä"), without vowels ("ßßßß"), short and long, with signs not ASCII between them.
        // And a name of such letters `keepsLatinWhole` keeps is one the end of `clean` gives back by characters.
        let latin = ["Bäckerei", "ÉPICERIE", "ééé", "ÄÄä", "ßßßß", "öö", "Ñ", "çà", "Œuvre", "Müller & Söhne", "€", "ÿÿÿ", "x é",
                     "BÄCKEREI MÜLLER", "ÉPICERIE FINE", "ÇA", "Ǆ", "ǅ", "Ǆǅ", "ÉÉ", "GmbH", "sàrl", "S.à r.l.", "éa",
                     "Pâtisserie", "getränke", "Épicerie", "Bäckereien", "hardware", "Hardwäre", "ß", "e\u{301}", "Ж",
                     "Leeds LS1 6AZ", "Zürich, ZH 8001", "Köln, NW", "LONDON W1D 4HS é", "é LS1 6AZ", "ÉLS1 6AZ", "Salem,  OR.", "Perth NSW", "_"]
        var kept = 0, named = 0, cities = 0
        for _ in 0..<20_000 {
            var s = g.line(Array("ABCDEFabcdeiouyxz   ,.-0123äöüÄÖÜßéèÉàçñœŒ€£’–°•"), max: 12)
            if Bool.random(using: &g) { s += " " + latin.randomElement(using: &g)! }
            if Bool.random(using: &g) { s = latin.randomElement(using: &g)! + " " + s }
            let w = WordLine(s)
            #expect(CompiledRules.looksLikeNoise(w) == noiseBefore(w), "\(s)")
            #expect(rules.hasNameWord(s) == s.split(whereSeparator: { !$0.isLetter }).contains { w in rules.nameWords[w.count]?.contains(w.uppercased()) ?? false }, "\(s)")
            #expect(CompiledRules.isCityLine(s) == cityBefore(s), "\(s)")
            if cityBefore(s) { cities += 1 }
            let letters = s.filter(\.isLetterQuick)
            #expect(letterCountAndCapital(s) == (letters.count, letters != letters.lowercased()), "\(s)")
            if rules.hasNameWord(s) { named += 1 }
            if VendorText.keepsLatinWhole(s) {
                kept += 1
                #expect(Self.lowerScrapsDroppedAsBefore(s, rules.vendorText) == s, "\(s)")
            }
        }
        #expect(kept > 5_000 && named > 2_000 && cities > 500, "\(kept) \(named) \(cities)")
    }

    /// A name's brackets counted on its bytes (`opensMoreThanCloses`) as by its characters.
    @Test func bracketsCountedAsCharacters() {
        var g = Lines(state: 67)
        let marked: [Character] = ["\r\n", "é", "(\u{301}", ")\u{308}", "—"]
        let alphabet = Array("((()))aZ 9-&") + marked
        for _ in 0..<20_000 {
            let s = g.line(alphabet, max: 12)
            #expect(ReceiptParser.opensMoreThanCloses(s) == (s.filter { $0 == "(" }.count > s.filter { $0 == ")" }.count), "\(s)")
        }
    }

    /// `ukPostcodeAtEnd` (by hand, on printable ASCII) against `ukPostcode`'s expression.
    @Test func ukPostcodeByHandIsTheExpression() {
        let pieces = ["LONDON W1D 4HS", "Leeds LS1 6AZ", "SW1A 1AA", "M1 1AE", "B33 8TH", "CR2 6XH", "DN55 1PT", "EC1A 1BB", "W1A 0AX",
                      "_W1D 4HS", "aW1D 4HS", "W1d 4HS", "W1D 4hS", "W1D4HS", "W1D  4HS.", "ABC1 2DE", "A1 2BC!!", "9A1 2BC", "-A1 2BC",
                      "AB1C 2DE", "A12 3BC", "A1B 2CD ", "1 2AB", "AB 1CD", " 1AB", "_", "AB12 3CD__", "A1_ 2BC"]
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZab0123456789     _.,-!")
        var g = Lines(state: 59)
        var matched = 0
        for _ in 0..<30_000 {
            var s = g.line(alphabet, max: 10)
            if Bool.random(using: &g) { s += pieces.randomElement(using: &g)! }
            if Bool.random(using: &g) { s += g.line(Array(" .,-!_aA1"), max: 3) }
            if Bool.random(using: &g) { s = pieces.randomElement(using: &g)! + g.line(alphabet, max: 4) + s }
            let regex = CompiledRules.ukPostcode.regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)) != nil
            let hand = Bytes.onPrintable(s, CompiledRules.ukPostcodeAtEnd)
            #expect(hand == regex, "\(s)")
            if regex { matched += 1 }
        }
        #expect(matched > 1_000)
    }

    /// An amount made from its digits is the Decimal `Decimal(string:)` makes of them: equal, printed alike, hashed
    /// alike, and held alike (its exponent and significand).
    @Test func amountsFromDigitsAreTheParsedOnes() {
        var g = Lines(state: 47)
        let digits = Array("0123456789")
        var cases = ["0", "00", "1", "10", "100", "0001", "12", "999999999", "1000000", "123456789012345"].flatMap { i in ["00", "01", "10", "50", "99"].map { (i, $0) } }
        for _ in 0..<20_000 {
            let i = g.line(digits, max: 12), f = g.line(digits, max: 2)
            cases.append((i.isEmpty ? "0" : i, f.count == 2 ? f : "05"))
        }
        for (i, f) in cases {
            guard let fast = AmountScanner.amount(integer: i, fraction: f), let parsed = Amount("\(i).\(f)") else {
                Issue.record("\(i).\(f) not read"); continue
            }
            let a = fast.value, b = parsed.value
            #expect(a == b && fast.description == parsed.description && a.description == b.description && a.hashValue == b.hashValue
                    && fast.hashValue == parsed.hashValue && a.exponent == b.exponent && a.significand == b.significand && a.sign == b.sign,
                    "\(i).\(f)")
        }
    }

    /// Letters counted on bytes (`letterCount`, `ReceiptParser.wordsWithLetters`) as by characters, on lines of ASCII,
    /// Latin letters and signs, and on lines with characters the bytes' way leaves to the characters' (a combining
    /// mark, an emoji, a letter of another script); numbers too (`numberCount`), and whether a line is in capitals
    /// (`isUpperCased`) and of three characters (on printable ASCII, bytes), on lines of ASCII and the others.
    @Test func lettersCountedOnBytesAsByCharacters() {
        var g = Lines(state: 107)
        let alphabet: [Character] = Array("ABCabcxyz019  ,.-&äöüÄÖÜßéèÉàçñœŒ€£’–°•") + ["e\u{301}", "👍🏽", "Ж", "\u{00A0}", "ǅ", "µ", "ª", "\u{2160}"]
        var latin = 0
        for k in 0..<20_000 {
            let s = k % 4 == 0 ? g.line(alphabet, max: 16) : g.line(Array("ABCabcxyz019  ,.-&äöüÄÖÜßéèÉàçñœŒ€£’–°•"), max: 16)
            #expect(letterCount(s) == s.filter(\.isLetterQuick).count, "\(s)")
            #expect(letterCount(Substring(s).dropFirst()) == s.dropFirst().filter(\.isLetterQuick).count, "\(s)")
            #expect(numberCount(s) == s.filter(\.isNumber).count, "\(s)")
            #expect(isUpperCased(s) == (s.uppercased() == s) && isUpperCased(s.uppercased()) == (s.uppercased().uppercased() == s.uppercased()), "\(s)")
            #expect(numberCount(s + "\r\n½٣") == (s + "\r\n½٣").filter(\.isNumber).count, "\(s)")
            let a = g.line(Array("Ab019:/ ,.-\r\n"), max: 16)
            #expect(numberCount(a) == a.filter(\.isNumber).count && numberCount(a.dropFirst()) == a.dropFirst().filter(\.isNumber).count, "\(a)")
            #expect(isUpperCased(a) == (a.uppercased() == a) && isUpperCased(a.uppercased()), "\(a)")
            // (A vendor's name of three characters at least, counted as bytes on printable ASCII.)
            for t in [a, s] { #expect((Bytes.onPrintable(t, { $0.count >= 3 }) ?? (t.count >= 3)) == (t.count >= 3), "\(t)") }
            let w = WordLine(s)
            if w.simpleScalars && !w.isASCII { latin += 1 }
            #expect(ReceiptParser.wordsWithLetters(w) == w.words.filter { $0.contains(where: \.isLetterQuick) }.count, "\(s)")
        }
        #expect(latin > 5_000)
        // Runs of ten digits or more (`longDigitRuns`) on bytes as `split` on what is not a number finds them.
        let pieces = ["0123456789", "12345", "1", "é", "€", "’", "°", " ", "a", "-", "ß", "½", "²", "e\u{301}", "\u{0663}", "\u{00A0}"]
        var runs = 0
        for _ in 0..<20_000 {
            let s = (0..<Int.random(in: 0...8, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            let found = ReceiptParser.longDigitRuns(s)
            runs += found.count
            #expect(found == s.split(whereSeparator: { !$0.isNumber }).filter { $0.count >= 10 }.map(String.init), "\(s)")
        }
        #expect(runs > 3_000)
    }

    /// The end of `VendorText.clean` as it was, by characters.
    static func lowerScrapsDroppedAsBefore(_ t: String, _ v: VendorText) -> String {
        var words = t.split(separator: " ")
        guard words.filter({ $0.count >= 2 && $0.contains(where: \.isUppercase) && !$0.contains(where: \.isLowercase) }).count >= 2 else { return t }
        while words.count > 2, let last = words.last, last.count <= 3, last.contains(where: \.isLowercase),
              !v.shortForms.contains(last.lowercased().trimmingCharacters(in: .punctuationCharacters)) {
            words.removeLast()
        }
        return words.joined(separator: " ")
    }

    @Test func spacesCollapseAsTheExpressionDoes() {
        var g = Lines(state: 29)
        for _ in 0..<5_000 {
            let s = g.line(Array("ab  .\t") + ["é", "£", "€", "—", "\u{00A0}", "\u{2003}", "•", "ü", "ß", "Ä", "œ"])
            #expect(collapsingSpaces(s, VendorText.spaces) == VendorText.spaces.regex.stringByReplacingMatches(
                in: s, range: NSRange(s.startIndex..., in: s), withTemplate: " "), "\(s)")
        }
    }

    @Test func trimIsFoundationsTrim() {
        let sets: [CharacterSet] = [.whitespaces, .punctuationCharacters, CharacterSet(charactersIn: " ,.;:"), VendorText.junk, CharacterSet(charactersIn: ".,")]
        var g = Lines(state: 19)
        for _ in 0..<20_000 {
            let s = g.line(Self.textAlphabet + ["\t", "é", "’", "—", "–", "“", "”", "©", "®", "•", "»", "«", "‘", "£", "€", "\u{00A0}", "\u{2003}",
                                                 "\u{301}", "e\u{301}", "🇬🇧", "日", "𝄞"])
            for set in sets { #expect(Trim(set)(s) == s.trimmingCharacters(in: set), "\(s)") }
        }
    }

    @Test func withinTwoIsLevenshteinAtMostTwo() {
        var g = Lines(state: 23)
        let letters = Array("abcdst")
        for _ in 0..<5_000 {
            let a = Array(g.line(letters, max: 6).utf8), b = Array(g.line(letters, max: 5).utf8), k = Array(g.line(letters, max: 10).utf8)
            #expect(WordLine.withinTwo(a, b, k) == (EditDistance.levenshtein(a + b, k) <= 2))
        }
    }

    /// `EditDistance.withinOne` on buffers (words compared in place) is what it is on arrays, and `oneSlip` on buffers
    /// what it was on arrays: `withinOne` but for the keyword with a letter added at its end.
    @Test func withinOneOnBuffersIsEditDistances() {
        var g = Lines(state: 71)
        let letters = Array("abcst1")
        for _ in 0..<20_000 {
            let a = Array(g.line(letters, max: 7).utf8)
            var b = Bool.random(using: &g) ? a : Array(g.line(letters, max: 7).utf8)
            // (Mostly one edit or two away, where the answers part.)
            for _ in 0..<Int.random(in: 0...2, using: &g) {
                let at = Int.random(in: 0...b.count, using: &g), c = letters.randomElement(using: &g)!.asciiValue!
                switch Int.random(in: 0...2, using: &g) {
                case 0: b.insert(c, at: at)
                case 1: if at < b.count { b.remove(at: at) }
                default: if at < b.count { b[at] = c }
                }
            }
            let fast = a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { EditDistance.withinOne(x, $0) } }
            #expect(fast == EditDistance.withinOne(a, b), "\(a) \(b)")
            let slipped = !(a.count == b.count + 1 && Bytes.isLetter(a[a.count - 1]) && a.starts(with: b)) && EditDistance.withinOne(a, b)
            #expect(WordLine.oneSlip(a, b) == slipped, "\(a) \(b)")
        }
    }

    /// The vendor cleaning's registration numbers cut by hand (`registrationAtEndStart`, `numberAfterFormEnd`) where
    /// their expressions replace them, on printable lines made of the pieces they match and of scraps around them.
    @Test func registrationNumbersAreCutAsTheExpressionsReplace() {
        let rules = CompiledRules(.builtIn)
        let v = rules.vendorText
        let forms = (v.numberAfterFormList?.alternatives ?? []).map { String(decoding: $0, as: UTF8.self) }
        #expect(!forms.isEmpty)
        let tokens = ["(", "[", ")", "]", " ", "  ", "co", "Co.", "CO", "reg", "Reg.", "no", "NO.", ":", "-", ".", "_", ",", "12345", "7", "X",
                      "p", "ab", "SDN", "BHD", "Sdn. Bhd.", "(M)", "#", "é", "S0N", "SON", "SDIi", "SEN", "3HD", "BHO", "8HA", "SC", "SDM", "DR", "'", "1", "a",
                      " A1", " 9", "1234", "AB12345", "-W", "bhd"]
        var g = Lines(state: 73)
        func replaced(_ p: Pattern, _ s: String, _ template: String) -> String {
            p.regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: template)
        }
        for k in 0..<40_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...9, using: &g) {
                switch Int.random(in: 0...9, using: &g) {
                case 0: s += g.line(Self.textAlphabet, max: 4)
                case 1, 2:
                    let f = forms.randomElement(using: &g)!
                    s += Bool.random(using: &g) ? f.uppercased() : f
                default: s += tokens.randomElement(using: &g)!
                }
            }
            if k % 3 == 0 { s += " " + String(Int.random(in: 0...99_999, using: &g)) }
            guard s.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { continue }
            #expect(VendorText.cut(s, at: VendorText.registrationAtEndStart) == replaced(VendorText.registrationAtEnd, s, ""), "\(s)")
            #expect(VendorText.cut(s, at: { VendorText.numberAfterFormEnd($0, forms: v.numberAfterFormList!) }) == replaced(v.numberAfterForm, s, "$1"), "\(s)")
            #expect(VendorText.cut(s, at: VendorText.bareNumberAtEndStart) == replaced(VendorText.bareNumberAtEnd, s, ""), "\(s)")
            #expect(VendorText.cut(s, at: { VendorText.scrapsAfterFormEnd($0, forms: v.scrapsAfterFormList!) }) == replaced(v.scrapsAfterForm, s, "$1"), "\(s)")
            let misread = s.utf8.withContiguousStorageIfAvailable { VendorText.misreadSdnBhdMatches($0) } ?? []
            #expect(misread == VendorText.misreadSdnBhd.regex.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { $0.range.location..<($0.range.location + $0.range.length) }, "\(s)")
            for r in misread {
                let read = s.utf8.withContiguousStorageIfAvailable { VendorText.readsSdnBhd($0, r) }
                let text = String(decoding: Array(s.utf8)[r], as: UTF8.self)
                #expect(read == (text.uppercased().filter(\.isLetterQuick) == "SDNBHD"), "\(s)")
            }
        }
    }

    /// The card digits and the receipt number's tokens found by hand where their expressions find them: the first card
    /// match's digits, and every token match (whole and group) in order, on printable lines made of their pieces.
    @Test func cardDigitsAndIdTokensAreTheExpressionsMatches() {
        let tokens = ["*", "**", "x", "X", "xx", "#", "-", " ", "  ", ":", ".", "/", "1234", "12345", "567", "0", "ending ", "ENDING ", "in ", "IN ",
                      "last 4", "LAST 4", "card", "No", "AB", "a", "Z9", "-12/3", "##", ": ", "é", "•", "••", "•••• ", "£", "€", "·", "%", "—",
                      "ß", "Ä", "laßt 4", "éndíng ", "ÉNDING ", "Kartenzahlung", "×", "e\u{301}"]
        var g = Lines(state: 79)
        var signLines = 0
        func ranges(_ r: NSRange) -> Range<Int> { r.location..<(r.location + r.length) }
        for _ in 0..<40_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...10, using: &g) {
                s += Int.random(in: 0...5, using: &g) == 0 ? g.line(Self.textAlphabet, max: 4) : tokens.randomElement(using: &g)!
            }
            guard s.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else {
                // (Lines whose only characters not ASCII are signs, "•" among them, and Latin letters, read on a stand-in:
                // `cardLast4`.)
                if s.utf8.withContiguousStorageIfAvailable({ Bytes.kinds($0).signsOrLetters }) == true { signLines += 1 }
                #expect(ReceiptParser.cardLast4(s) == (ReceiptParser.cardDigits.matches(in: s).first?.groups[1] ?? nil), "\(s)")
                continue
            }
            let ns = NSRange(s.startIndex..., in: s)
            let card = s.utf8.withContiguousStorageIfAvailable { ReceiptParser.cardDigitsFirst($0) } ?? nil
            #expect(card == ReceiptParser.cardDigits.regex.firstMatch(in: s, range: ns).map { ranges($0.range(at: 1)) }, "\(s)")
            #expect(ReceiptParser.cardLast4(s) == (ReceiptParser.cardDigits.matches(in: s).first?.groups[1] ?? nil), "\(s)")
            let u = s.uppercased()
            let hand = u.utf8.withContiguousStorageIfAvailable { ReceiptParser.idTokenMatches($0) } ?? []
            let regex = ReceiptParser.idToken.regex.matches(in: u, range: NSRange(u.startIndex..., in: u))
            #expect(hand.map(\.whole) == regex.map { ranges($0.range) } && hand.map(\.token) == regex.map { ranges($0.range(at: 1)) }, "\(u)")
            let first = ReceiptParser.idToken.matches(in: u).compactMap { $0.groups[1] }.first { $0.contains(where: \.isNumber) }
            #expect(ReceiptParser.firstIdToken(u) == first, "\(u)")
        }
        #expect(signLines > 2_000, "\(signLines)")
    }

    /// The registration number lines a vendor's name is scored by, matched by hand where their expressions match.
    @Test func registrationLinesMatchAsTheExpressions() {
        let tokens = ["(", "[", "{", ")", "]", "}", " ", "  ", "-", ":", ".", "_", "co", "CO", "Co.", "company", "COMPANY", "reg", "REG", "no",
                      "No.", "12345", "123456", "1234", "7", "X", "a", "P", "(004827316-K)", "1093548-H", "#", "é"]
        var g = Lines(state: 83)
        for _ in 0..<40_000 {
            var s = ""
            for _ in 0..<Int.random(in: 1...8, using: &g) {
                s += Int.random(in: 0...6, using: &g) == 0 ? g.line(Self.textAlphabet, max: 3) : tokens.randomElement(using: &g)!
            }
            let ns = NSRange(s.startIndex..., in: s)
            let number = ReceiptParser.registrationNumber.regex.firstMatch(in: s, range: ns) != nil
            let onLine = ReceiptParser.registrationOnLine.regex.firstMatch(in: s, range: ns) != nil
            #expect(ReceiptParser.isRegistrationNumber(s) == number, "\(s)")
            #expect(ReceiptParser.hasRegistrationOnLine(s) == onLine, "\(s)")
            if s.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) {
                #expect(s.utf8.withContiguousStorageIfAvailable(ReceiptParser.registrationNumberMatches) == number, "\(s)")
                #expect(s.utf8.withContiguousStorageIfAvailable(ReceiptParser.registrationOnLineMatches) == onLine, "\(s)")
            }
        }
    }

    /// The Decimal an amount holds, byte for byte (its exponent, length, sign and significand).
    static func held(_ d: Decimal) -> [UInt8] { withUnsafeBytes(of: d) { Array($0) } }

    /// `Amount`'s description and cents as they were, from the Decimal alone.
    static func describedAsBefore(_ value: Decimal) -> String {
        var v = value, r = Decimal()
        NSDecimalRound(&r, &v, 2, .plain)
        if r == value {
            let c = centsAsBefore(value), a = c.magnitude, frac = a % 100
            return "\(c < 0 ? "-" : "")\(a / 100).\(frac < 10 ? "0" : "")\(frac)"
        }
        return "\(value)"
    }

    static func centsAsBefore(_ value: Decimal) -> Int64 {
        var v = value * 100, r = Decimal()
        NSDecimalRound(&r, &v, 0, .plain)
        return Int64(truncating: r as NSDecimalNumber)
    }

    /// Amounts that know their cents (`+`, `-`, `<`, `==`, `magnitude`, `cents`, `description` and
    /// `MoneyFields.same` on integers) against the same operations on their Decimals, as they were: the same
    /// answers, and results holding the very Decimal the Decimal operation makes.
    @Test func amountsInCentsAreTheDecimals() {
        var g = Lines(state: 53)
        let digits = Array("0123456789")
        var amounts: [Amount] = [Amount(0), Amount(1), Amount(cents: 0), Amount(cents: 1), Amount(cents: -5), Amount(cents: 50),
                                 Amount(Decimal(0.3)), Amount(Decimal(1.35)), AmountScanner.zeroCents!]
        for s in ["0", "0.0", "0.00", "-0.00", "00.50", "12", "12.3", "12.30", "-12.30", "-3.5", "1.234", "0.005", "1249.99",
                  "9999999999999999.99", "99999999999999999.99", "-9999999999999999.99", "1.", ".5", "1-2"] {
            if let a = Amount(s) { amounts.append(a) }
        }
        for _ in 0..<400 {
            let i = g.line(digits, max: 7), f = g.line(digits, max: 3)
            if let a = AmountScanner.amount(integer: i.isEmpty ? "0" : i, fraction: f.count >= 2 ? f : "05") { amounts.append(a) }
            if let a = Amount((Bool.random(using: &g) ? "-" : "") + (i.isEmpty ? "0" : i) + (f.isEmpty ? "" : "." + f)) { amounts.append(a) }
        }
        for _ in 0..<200 {
            let a = amounts.randomElement(using: &g)!, b = amounts.randomElement(using: &g)!
            amounts.append(a + b); amounts.append(a - b); amounts.append(a.magnitude); amounts.append(a * Ratio.r0_3)
        }
        for a in amounts {
            #expect(a.description == Self.describedAsBefore(a.value) && a.cents == Self.centsAsBefore(a.value), "\(a.value)")
            let m = a.magnitude
            #expect(Self.held(m.value) == Self.held(a.value < 0 ? -a.value : a.value), "\(a.value)")
            if let c = a.knownCents { #expect(a.value == Decimal(c) / 100, "\(a.value)") }
        }
        let oneCent = Decimal(1) / 100
        for _ in 0..<40_000 {
            let a = amounts.randomElement(using: &g)!, b = amounts.randomElement(using: &g)!
            let sum = a + b, difference = a - b, s = a.value + b.value, d = a.value - b.value
            #expect(Self.held(sum.value) == Self.held(s) && Self.held(difference.value) == Self.held(d), "\(a.value) \(b.value)")
            #expect(sum.description == Self.describedAsBefore(s) && difference.description == Self.describedAsBefore(d), "\(a.value) \(b.value)")
            #expect((a < b) == (a.value < b.value) && (a == b) == (a.value == b.value) && (a <= b) == (a.value <= b.value), "\(a.value) \(b.value)")
            #expect(a != b || a.hashValue == b.hashValue, "\(a.value) \(b.value)")
            #expect(MoneyFields.same(a, b) == ((d < 0 ? -d : d) <= oneCent), "\(a.value) \(b.value)")
            if let c = sum.knownCents { #expect(s == Decimal(c) / 100, "\(a.value) \(b.value)") }
            if let c = difference.knownCents { #expect(d == Decimal(c) / 100, "\(a.value) \(b.value)") }
        }
    }

    /// The item rows' quantities found by hand against their expressions: the same match (the first, or the
    /// last for the trailing one), groups and range, on generated rows, some not ASCII (handed to the expression).
    @Test func quantitiesAreTheExpressionsMatches() {
        var g = Lines(state: 59)
        let pieces = ["1", "2", "12", "123", "1234", "0", " ", "  ", "x", "X", "@", "*", "×", ".", ",", "5.00", "Tea", "a", "é", "-", "kg",
                      "£", "€", "¥", "·", "$", "#", "—", "Brötchen", "ß", "Ö", "ŀ", "ı", "e\u{301}"]
        func key(_ m: QuantityScanner.Match?, _ s: String) -> String {
            m.map { "\($0.groups) \(s.utf8.distance(from: s.startIndex, to: $0.range.lowerBound)) \(s.utf8.distance(from: s.startIndex, to: $0.range.upperBound))" } ?? "-"
        }
        for _ in 0..<30_000 {
            let s = (0..<Int.random(in: 0...7, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            #expect(key(QuantityScanner.prefix(s), s) == key(ReceiptParser.quantityPrefix.matches(in: s).first, s), "\(s)")
            #expect(key(QuantityScanner.leading(s), s) == key(ReceiptParser.leadingQuantity.matches(in: s).first, s), "\(s)")
            #expect(key(QuantityScanner.trailing(s), s) == key(ReceiptParser.trailingQuantity.matches(in: s).last, s), "\(s)")
        }
    }

    /// An item name's leading and trailing marks, and a row's leading amount, dropped by hand against the expressions'
    /// replacements, on generated names (some not ASCII: handed to the expressions).
    @Test func itemMarksDropAsTheExpressionsDo() {
        var g = Lines(state: 61)
        let alphabet = Array("aZ09 @=~:;,_-|*'\".#$()/+") + ["é", "—", "’", "\t"]
        func replaced(_ p: Pattern, _ s: String) -> String {
            p.regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "")
        }
        for _ in 0..<20_000 {
            let s = g.line(alphabet, max: 10)
            #expect(ReceiptParser.droppingLeadingMarks(s) == replaced(ReceiptParser.leadingMarks, s), "\(s)")
            #expect(ReceiptParser.droppingTrailingMarks(s) == replaced(ReceiptParser.trailingMarks, s), "\(s)")
        }
        // A currency word or sign and a tax flag that end a name, dropped.
        let ends = ["$", " $", "  $", "RM", "rm", "Rm", "Rs", "rs.", "RS.", "Rs..", "USD", "usd", "EUR", "GBP", "MYR", "SGD", "CAD", "AUD", "kr", "KR", "€", "£", "¥",
                    "A", "a", "Z", "TF", "tf", "TX", "FT", "NT", "SR", "ZR", "ZZ", "<A>", "<A", "<a>", "<AB>", "A>", "<", ">", "<1>", "usdx", " ", "  ", "\t", "é"]
        var marked = 0
        for _ in 0..<30_000 {
            var s = g.line(Array("aZ09 .$-<>"), max: 8)
            for _ in 0..<Int.random(in: 0...3, using: &g) { s += (Bool.random(using: &g) ? " " : "") + ends.randomElement(using: &g)! }
            let word = replaced(ReceiptParser.trailingCurrencyWord, s), sign = replaced(ReceiptParser.trailingCurrencySign, s)
            let flag = replaced(ReceiptParser.trailingTaxFlag, s)
            #expect(ReceiptParser.droppingTrailingCurrencyWord(s) == word, "\(s)")
            #expect(ReceiptParser.droppingTrailingCurrencySign(s) == sign, "\(s)")
            #expect(ReceiptParser.droppingTrailingTaxFlag(s) == flag, "\(s)")
            if word != s || sign != s || flag != s { marked += 1 }
        }
        #expect(marked > 5_000)
        // The amount a row starts with (a quantity printed as one), dropped.
        let pieces = ["12", "1", "0", ".", ",", "50", "5", " ", "-", "_", "$", "a", "é", "(", "3.00", "1,00", "Tea"]
        for _ in 0..<20_000 {
            let s = (0..<Int.random(in: 0...6, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            #expect(ReceiptParser.droppingLeadingAmount(s) == replaced(ReceiptParser.leadingAmount, s), "\(s)")
        }
    }

    /// The quantity times price found by hand against its expression (case-insensitive, with its unit words and
    /// its backtracking): the same first match, groups and range, on generated rows, some not ASCII.
    @Test func quantityTimesPriceIsTheExpressionsMatch() {
        var g = Lines(state: 67)
        let pieces = ["1", "2", "12", "123", "1234", "0", "5.00", "4,80", ".", ",", " ", "  ", "x", "X", "@", "*", "×", "lb", "LB", "Ib",
                      "kg", "Kg", "kilo", "KILOS", "kilos", "ki", "s", "RM", "rm", "Rm", "$", "€", "Tea", "a", "é", "-", "05", "9",
                      "£", "¥", "·", "#", "× ", "£1.50", "€ 2,30", "ö", "Ö", "ß", "kilÖs", "ŀb", "ı", "Brötchen", "e\u{301}"]
        func key(_ m: QuantityScanner.Match?, _ s: String) -> String {
            m.map { "\($0.groups) \(s.utf8.distance(from: s.startIndex, to: $0.range.lowerBound)) \(s.utf8.distance(from: s.startIndex, to: $0.range.upperBound))" } ?? "-"
        }
        for _ in 0..<40_000 {
            let s = (0..<Int.random(in: 0...9, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            #expect(key(QuantityScanner.timesPrice(s), s) == key(ReceiptParser.quantityTimesPrice.regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s)).map { m in
                (groups: (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: s).map { String(s[$0]) } }, range: Range(m.range, in: s)!)
            }, s), "\(s)")
        }
    }

    /// The numeric dates found by hand against their expression: every match, its groups and range, on
    /// generated lines, some not ASCII.
    @Test func numericDatesAreTheExpressionsMatches() {
        var g = Lines(state: 71)
        let pieces = ["1", "2", "12", "31", "123", "2018", "20", "19", "0", ".", ",", "-", "/", " ", ":", "a", "é", "05", "9", "12/05/", "1.2.", "-2019"]
        func key(_ ms: [QuantityScanner.Match], _ s: String) -> String {
            ms.map { "\($0.groups) \(s.utf8.distance(from: s.startIndex, to: $0.range.lowerBound)) \(s.utf8.distance(from: s.startIndex, to: $0.range.upperBound))" }
                .joined(separator: "; ")
        }
        func regex(_ s: String) -> [QuantityScanner.Match] {
            DateScanner.numeric.regex.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { m in
                (groups: (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: s).map { String(s[$0]) } }, range: Range(m.range, in: s)!)
            }
        }
        for _ in 0..<40_000 {
            let s = (0..<Int.random(in: 0...10, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            #expect(key(DateScanner.numericMatches(s), s) == key(regex(s), s), "\(s)")
        }
    }

    /// A hand matcher's matches (or the expression's) as one text: each match's groups and its range in UTF-8 offsets.
    static func matchKey(_ ms: [QuantityScanner.Match], _ s: String) -> String {
        ms.map { "\(String(describing: $0.groups)) \(s.utf8.distance(from: s.startIndex, to: $0.range.lowerBound)) \(s.utf8.distance(from: s.startIndex, to: $0.range.upperBound))" }
            .joined(separator: "; ")
    }

    /// The expression's own matches, from NSRegularExpression (no hand matcher, no cheap test).
    static func expressionMatches(_ p: Pattern, _ s: String) -> [QuantityScanner.Match] {
        p.regex.matches(in: s, range: NSRange(s.startIndex..., in: s)).map { m in
            (groups: (0..<m.numberOfRanges).map { Range(m.range(at: $0), in: s).map { String(s[$0]) } }, range: Range(m.range, in: s)!)
        }
    }

    /// A day's eight digits made by hand against Foundation's format, over every day of years at both ends of the
    /// calendar and between.
    @Test func dateDigitsAreTheFormats() {
        for year in [1, 9, 10, 99, 100, 999, 1000, 1999, 2000, 2018, 2024, 9999] {
            for month in 1...12 {
                for day in 1...31 {
                    guard let v = CalendarDate(year: year, month: month, day: day) else { continue }
                    #expect(ReceiptParser.digitsKey(v) == String(format: "%04d%02d%02d", v.year, v.month, v.day), "\(v)")
                }
            }
        }
    }

    /// The dates with month names (`dayMonthName`, `monthNameDay`, the loose three) and `ymd` found by hand against
    /// their expressions: every match, its groups and range, on generated lines, some not ASCII.
    @Test func monthNameDatesAreTheExpressionsMatches() {
        var g = Lines(state: 79)
        let pieces = ["Jan", "JAN", "jan", "Sept", "March", "Okt", "Dec", "dpr", "Apr", "nov", "ab", "Septembers", "x", "1", "2", "12", "31", "05",
                      "2018", "1999", "20", "19", "18", "O", "o", "Q", "D", "d", "G", "l", "I", "i", "|", "!", "t", "S", "s", "B", "Z", "z", "?",
                      "st", "ND", "rd", "th", "Er", "'", "`", "\"", ",'", "’", "°", ".", ",", "-", "/", " ", "  ", ":", "é",
                      // (Latin letters and signs, matched by hand on a stand-in; a mark, a space not ASCII: by the expression.)
                      "März", "MÄRZ", "févr", "Déc", "ß", "Ä", "é5", "ø", "œ", "€", "‘", "´", "–", "•", "ǅ", "e\u{301}", "\u{00A0}"]
        let key = Self.matchKey, regex = Self.expressionMatches
        let hands: [(Pattern, (String) -> [QuantityScanner.Match])] = [
            (DateScanner.dayMonthName, DateScanner.dayMonthNameMatches), (DateScanner.monthNameDay, DateScanner.monthNameDayMatches),
            (DateScanner.looseMonthNameDay, DateScanner.looseMonthNameDayMatches), (DateScanner.looseDayMonthName, DateScanner.looseDayMonthNameMatches),
            (DateScanner.looseDayMonthYear, DateScanner.looseDayMonthYearMatches), (DateScanner.ymd, DateScanner.ymdMatches),
        ]
        for _ in 0..<30_000 {
            let s = (0..<Int.random(in: 0...9, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            for (p, hand) in hands { #expect(key(hand(s), s) == key(regex(p, s), s), "\(p.pattern) / \(s)") }
        }
    }

    /// The loose numeric and the compact dates found by hand against their expressions: every match, its groups
    /// and range, on generated lines, some not ASCII.
    @Test func looseAndCompactDatesAreTheExpressionsMatches() {
        var g = Lines(state: 73)
        let loosePieces = ["1", "2", "12", "0", "O", "o", "Q", "l", "I", "|", "i", "2018", "1999", "20", "19", "2", ".", ",", "-", "/", "'", "’",
                           " ", "  ", "a", "é", "05", "9", ":"]
        let compactPieces = ["20180512", "20181332", "2018", "0512", "1231", "0100", "19", "20", "1", "2", "0", "3", " ", "  ", "   ", "    ", ":",
                             "12:30", "9:05", "23:59", "24:00", ":5", ".", ",", "date", "DATE", "Date:", "tarikh", "DATUM", "fecha", "up", "_", "é",
                             "08122018", "25032018"]
        let key = Self.matchKey, regex = Self.expressionMatches
        for _ in 0..<30_000 {
            let s = (0..<Int.random(in: 0...10, using: &g)).map { _ in loosePieces.randomElement(using: &g)! }.joined()
            #expect(key(DateScanner.looseNumericMatches(s), s) == key(regex(DateScanner.looseNumeric, s), s), "\(s)")
            let c = (0..<Int.random(in: 0...6, using: &g)).map { _ in compactPieces.randomElement(using: &g)! }.joined()
            #expect(key(DateScanner.compactYMDMatches(c), c) == key(regex(DateScanner.compactYMD, c), c), "\(c)")
            #expect(key(DateScanner.compactDMYBeforeTimeMatches(c), c) == key(regex(DateScanner.compactDMYBeforeTime, c), c), "\(c)")
            #expect(key(DateScanner.compactDMYAfterDateWordMatches(c), c) == key(regex(DateScanner.compactDMYAfterDateWord, c), c), "\(c)")
        }
    }

    /// `cityStatePostcode`'s first match found by hand (its comma, its code's place, its postcode) where the expression
    /// finds it, on printable lines made of city-like pieces; `isCityLine` against the expressions alone on any line.
    @Test func cityLinesAreMatchedByHandAsTheExpression() {
        let pieces = ["Austin", "Denver", "New Town", "St. Mary's", "Port-au-Lac", ",", ", ", " ", "  ", "TX", "CO", "ON", "NSW", "qld", "Xy",
                      "ABCD", "78701", "12345-6789", "1234", "123456", "K1A 0B1", "k1a0b1", "A1B 2C", ".", "-", "'", "(", ")", "#", "_", "9",
                      "LS1 6AZ", "é", "SDN BHD", "a", "Z"]
        var g = Lines(state: 89)
        func ranges(_ r: NSRange) -> Range<Int>? { r.location == NSNotFound ? nil : r.location..<(r.location + r.length) }
        for k in 0..<40_000 {
            var s = k % 5 == 0 ? g.line(Self.textAlphabet, max: 6) : ""
            for _ in 0..<Int.random(in: 0...7, using: &g) { s += pieces.randomElement(using: &g)! }
            if k % 11 == 0 { s = String(repeating: "ab ", count: Int.random(in: 8...14, using: &g)) + s }
            #expect(CompiledRules.isCityLine(s) == CompiledRules.isCityLineByExpression(s), "\(s)")
            guard s.utf8.allSatisfy({ $0 >= 0x20 && $0 <= 0x7E }) else { continue }
            let hand = s.utf8.withContiguousStorageIfAvailable { CompiledRules.cityStatePostcodeMatch($0) } ?? nil
            let regex = CompiledRules.cityStatePostcode.regex.firstMatch(in: s, range: NSRange(s.startIndex..., in: s))
            #expect(hand?.comma == regex.map { ranges($0.range(at: 1)) != nil }, "\(s)")
            #expect(hand?.code == regex.flatMap { ranges($0.range(at: 2)) }, "\(s)")
            #expect(hand?.postcode == regex.map { ranges($0.range(at: 3)) != nil }, "\(s)")
        }
    }

    /// The vendor name cleaned in one pass over its bytes (`cleanPrintable`) against the step-by-step cleaning, and the
    /// hand matchers it brought against their expressions, on lines made of the pieces they take away (some empty,
    /// some not ASCII).
    @Test func vendorCleaningInOnePassIsStepByStep() {
        let rules = CompiledRules(.builtIn)
        let v = rules.vendorText
        let forms = (v.numberAfterFormList?.alternatives ?? []).map { String(decoding: $0, as: UTF8.self) }
        let pieces = ["(", "[", ")", "]", " ", "  ", "   ", "co", "Co.", "reg", "NO.", ":", ";", "-", "--", "---", "=", "_", "~", "*", ".", "..", ",",
                      "'", "|", "!", "<", ">", "{", "}", "/", "\\", "`", "\"", "12345", "7", "X", "KJ1", "AB12", "ABCD1", "1234567-W", "p", "ab", "ri",
                      "oo", "FOOD", "BAKERY", "Corner", "SDN", "BHD", "S0N BHD", "SDIi 8HD", "SEN 3HD", "Sdn. Bhd.", "(M)", "#", "é", "»", "—", "A1", "9"]
        var g = Lines(state: 97)
        func replaced(_ p: Pattern, _ s: String) -> String {
            p.regex.stringByReplacingMatches(in: s, range: NSRange(s.startIndex..., in: s), withTemplate: "")
        }
        var cases = ["", " ", ".", "...", ". .", " . ", "a", "ab CD", "abc DE", "a  BC", "x(1)", "(1)", "[A1]", "---", " ---", "A ---", "é", "SDN BHD"]
        for k in 0..<40_000 {
            var s = ""
            for _ in 0..<Int.random(in: 0...9, using: &g) {
                switch Int.random(in: 0...9, using: &g) {
                case 0: s += g.line(Self.textAlphabet, max: 4)
                case 1:
                    let f = forms.randomElement(using: &g) ?? "sdn bhd"
                    s += Bool.random(using: &g) ? f.uppercased() : f
                default: s += pieces.randomElement(using: &g)!
                }
            }
            if k % 4 == 0 { s = pieces.randomElement(using: &g)! + s }
            cases.append(s)
        }
        // Lines whose only characters not ASCII are signs (a sign of a rule, other junk, other signs), cleaned on their
        // stand-in; on every fifth a letter, digit, space or mark not ASCII as well (step by step then).
        let signs = Array("——––“”•»«©®£€¥·×№¦¢§…¡¿🇬🇧🇪🇺")
        let others = Array("éÄ\u{301}’°\u{00A0}½٣")
        // (A short legal form with a sign after it is kept after a name in capitals where the sign is punctuation, "co·",
        // and dropped as a scrap where it is not, "co£".)
        var signLines = ["FOOD CORNER co·", "FOOD CORNER co£", "FOOD CORNER bhd…", "FOOD CORNER ab·", "FOOD CORNER co©", "FOOD CORNER co»",
                         "— FOOD CORNER —", "FOOD CORNER ———", "£ FOOD CORNER (1234-X) €", "“FOOD CORNER SDN BHD” 12345", "FOOD CORNER S0N 8HD ·"]
        for k in 0..<20_000 {
            var s = cases[k + 18]
            for _ in 0..<Int.random(in: 1...3, using: &g) { g.insertOne(of: signs, into: &s) }
            if k % 5 == 0 { g.insertOne(of: others, into: &s) }
            signLines.append(s)
        }
        var standIns = 0
        for s in cases + signLines {
            #expect(v.clean(s) == v.cleanStepByStep(s), "\(s)")
            let printable = s.utf8.allSatisfy { $0 >= 0x20 && $0 <= 0x7E }
            let signsOnly = !printable && s.utf8.withContiguousStorageIfAvailable(Bytes.printableWithNeutralSigns) == true
            if signsOnly { standIns += 1 }
            #expect((v.cleanPrintable(s) != nil) == (printable || signsOnly), "\(s)")
            guard printable else { continue }
            #expect(VendorText.cut(s, at: VendorText.branchCodeAtEndStart) == replaced(VendorText.branchCodeAtEnd, s), "\(s)")
            #expect(VendorText.cut(s, at: VendorText.ruleToEndStart) == replaced(VendorText.ruleToEnd, s), "\(s)")
            let dots = s.utf8.withContiguousStorageIfAvailable(VendorText.leadingDotsEnd) ?? nil
            #expect(String(s.utf8.dropFirst(dots ?? 0))! == replaced(VendorText.leadingDots, s), "\(s)")
            let scrap = s.utf8.withContiguousStorageIfAvailable(VendorText.leadingScrapEnd) ?? nil
            #expect(String(s.utf8.dropFirst(scrap ?? 0))! == replaced(VendorText.leadingScrap, s), "\(s)")
        }
        #expect(standIns > 15_000)
    }

    /// Each sign's stand-in is taken by the cleaning's character sets as the sign is (`VendorText.signStandIn`): the
    /// same junk, rule mark and punctuation, and no letter, digit or space.
    @Test func signStandInsAreTakenAsTheirSigns() {
        let signs = Array("——––“”•»«©®£€¥·×№¦¢§…¡¿").flatMap(\.unicodeScalars)
        for u in signs {
            #expect(Bytes.isNeutralSign(u), "\(u)")
            let b = Array(String(u).utf8)
            let (a, from) = b.withUnsafeBufferPointer(VendorText.signStandIn)
            #expect(a.count == 1 && from == [0], "\(u)")
            let c = Unicode.Scalar(a[0])
            #expect(VendorText.junk.contains(c) == VendorText.junk.contains(u), "\(u)")
            #expect(CharacterSet.punctuationCharacters.contains(c) == CharacterSet.punctuationCharacters.contains(u), "\(u)")
            #expect(VendorText.ruleMarks.contains(a[0]) == VendorText.ruleSigns.contains(u), "\(u)")
            #expect(!VendorText.registrationMarks.contains(a[0]) && !VendorText.trimEnds.ascii[Int(a[0])] && !Bytes.isAlnum(a[0]), "\(u)")
            #expect(VendorText.signStandIns.contains(a[0]), "\(u)")
        }
    }

    /// Names `repairName` gives back whole by one walk of their bytes (`keepsEveryWord`) are the ones its words'
    /// repairs give back as they were; and whatever the walk says, `repairName` is the words repaired and joined. And
    /// `repairWord` on bytes as by characters.
    @Test func namesKeptWholeAreTheRepairedOnes() {
        let rules = CompiledRules(.builtIn)
        let words = ["HARDWARE", "HARDHARE", "Hardware", "hardware.", "RESTAURANT", "RESTAURANT,", "BAKERY", "8AKERY", "D.1.Y.", "0ISTRIBUTION",
                     "CONFECTIUNERY", "PASIR", "HUUSE", "ab", "A", "&", "-", "Trading", "TRAD1NG", "ABCDEFG", "abcde1", "CAFE", "Café", "é",
                     "WORLD'S", "MART.", "MARTS", "x9", "KEDAI", "KEDAl"]
        var g = Lines(state: 101)
        func before(_ name: String) -> String { splitOnSpaces(name).map { rules.repairWord(String($0)) }.joined(separator: " ") }
        var cases = ["", " ", "A", " A", "A ", "A  B", "HARDWARE  CAFE"]
        for _ in 0..<20_000 {
            let n = Int.random(in: 1...5, using: &g)
            cases.append((0..<n).map { _ in Int.random(in: 0...5, using: &g) == 0 ? g.line(Self.textAlphabet, max: 7) : words.randomElement(using: &g)! }
                .joined(separator: Int.random(in: 0...9, using: &g) == 0 ? "  " : " "))
        }
        for s in cases {
            #expect(rules.repairName(s) == before(s), "\(s)")
            if s.utf8.withContiguousStorageIfAvailable({ rules.keepsEveryWord($0) }) == true { #expect(before(s) == s, "\(s)") }
        }
        // Each word on its bytes (a lone digit read as a letter, business words one letter off) as by characters.
        var repaired = 0
        let pieces = words + ["0", "1", "5", "8", "9", "00", ".", "'", "&", "-", "é", "\r\n", "Kedai", "DAIRY", "ART"]
        for k in 0..<40_000 {
            var w = (0..<Int.random(in: 1...4, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
            if k % 7 == 0 { w = g.line(Self.textAlphabet, max: 9).replacingOccurrences(of: " ", with: "") }
            let bytes = rules.repairWord(w), chars = rules.repairWord(w, byBytes: false)
            #expect(bytes == chars, "\(w)")
            if chars != w { repaired += 1 }
        }
        #expect(repaired > 2_000)
    }

    /// A currency symbol looked for in a line's bytes lower-cased as they are read (`holdsLowered`) where the line
    /// lower-cased holds it.
    @Test func symbolsAreFoundInTheBytesAsInTheLineLowerCased() {
        let rules = CompiledRules(.builtIn)
        var g = Lines(state: 103)
        let symbols = rules.currencySymbolBytes.map(\.bytes) + [Array("rm".utf8), Array("us$".utf8), Array("a".utf8), Array("xyz".utf8)]
        for _ in 0..<20_000 {
            let s = g.line(Self.textAlphabet + Array("RMrmUSusDdEeAa$"), max: 14)
            let lowered = s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
            for sym in symbols {
                #expect(s.utf8.withContiguousStorageIfAvailable { CompiledRules.holdsLowered($0, sym) } == bytesContain(lowered, sym), "\(s)")
            }
        }
    }

    /// The currency symbols a line may hold found at once (`CurrencyCandidates`) are those whose bytes the line's set
    /// of bytes holds, asked symbol by symbol (one not ASCII never), in the rules' symbols and in a set with some not ASCII.
    @Test func currencyCandidatesAreTheSymbolsWhoseBytesAreOnTheLine() {
        let rules = CompiledRules(.builtIn)
        let extra: [ByteSet?] = [ByteSet(bytes: "rm".utf8), nil, ByteSet(bytes: "a$.".utf8), ByteSet(bytes: "~".utf8), ByteSet(bytes: [UInt8]())]
        var g = Lines(state: 211)
        for sets in [rules.currencySymbolBytes.map(\.set), extra + rules.currencySymbolBytes.map(\.set).prefix(20)] {
            let c = CompiledRules.CurrencyCandidates(sets)!
            for _ in 0..<20_000 {
                let s = g.line(Self.textAlphabet + Array("RMrmUSusDdEeAa$~"), max: 14)
                let present = ByteSet(bytes: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
                let m = c.candidates(present)
                for k in sets.indices {
                    #expect((m >> UInt64(k)) & 1 == 1 ? sets[k].map { present.holds($0) } == true : sets[k].map { present.holds($0) } != true, "\(s) \(k)")
                }
            }
        }
        #expect(CompiledRules.CurrencyCandidates([ByteSet?](repeating: nil, count: 65)) == nil)
    }

    /// A bare number ("0" on its own line) told on a line's bytes (`bareNumberBytes`) as by its characters trimmed.
    @Test func bareNumberOnBytesIsByCharacters() {
        var g = Lines(state: 307)
        let alphabet: [Character] = Array("0123456789--    \t\tOlx.,$") + ["\r\n", "\n", "\u{3000}", "\u{00A0}", "\u{0663}", "é", "½"]
        for _ in 0..<50_000 {
            let s = g.line(alphabet, max: 6)
            let bytes = s.utf8.withContiguousStorageIfAvailable(MoneyFields.bareNumberBytes) ?? nil
            if let bytes { #expect(bytes == MoneyFields.isBareNumberByCharacters(s), "\(s.debugDescription)") }
            else { #expect(s.utf8.contains { $0 >= 0x80 }, "\(s.debugDescription)") }
        }
    }

    /// The day after a moment in UTC by the day count's arithmetic (`tomorrow`) is the calendar's, at random moments
    /// from 1990 to 2400, around midnights and around the ends of months, of February in leap and common years, of
    /// centuries, and at the edges of the arithmetic's range.
    /// The column heading told on bytes counts the words the lower-cased, split text counts (two at least).
    @Test func columnHeadingOnBytesIsTheSplitWords() {
        let lines = ["ITEM QTY U/P AMOUNT", "Description ........Qty.. Price Amount", "item Qty Price Amount", "B.CODE & DESC. QTY U/PRICE AMT",
                     "RM) (RM)", "ITEH QIT U/P DISC% AMOUNT", "Total Qty:", "TOT QTY: 3", "PENSIL 2B KOTAK", "QTY", "", "  ", "::..",
                     "Item Qty RRP Disc Amount", "ITEMS", "unit price", "Qty Beschreibung Preis", "Qté Désignation Prix Montant",
                     "ITEM QTY\tAMOUNT", "Itém Qty Amount", "AMOUNTAMOUNT", "Tax Code % Amount GST", "CODE:ITEM"]
        for t in lines {
            #expect(ReceiptParser.isColumnHeading(text: t) == (ReceiptParser.columnHeadingWords(t) >= 2), "\(t)")
        }
        #expect(ReceiptParser.isColumnHeading(text: "ITEM QTY U/P AMOUNT") && !ReceiptParser.isColumnHeading(text: "PENSIL 2B KOTAK"))
    }

    @Test func tomorrowIsTheCalendars() {
        var g = Lines(state: 401)
        var moments: [Date] = [Date(), Date(timeIntervalSinceReferenceDate: -86_400), Date(timeIntervalSinceReferenceDate: -86_400.5),
                               Date(timeIntervalSinceReferenceDate: -1), Date(timeIntervalSinceReferenceDate: 249_999_999_999)]
        for _ in 0..<20_000 { moments.append(Date(timeIntervalSinceReferenceDate: Double(Int64.random(in: -350_000_000...12_600_000_000, using: &g)) + Double(Int.random(in: 0...999, using: &g)) / 1000)) }
        for y in [1999, 2000, 2001, 2024, 2026, 2100, 2200, 2400] {
            for (m, d) in [(1, 1), (2, 28), (2, 29), (3, 1), (12, 31), (6, 30)] {
                var c = DateComponents(); c.year = y; c.month = m; c.day = d
                var cal = Calendar(identifier: .gregorian); cal.timeZone = TimeZone(identifier: "UTC")!
                guard let day = cal.date(from: c) else { continue }
                for s in [-1.0, -0.001, 0, 0.001, 43_200, 86_399.999] { moments.append(day.addingTimeInterval(s)) }
            }
        }
        for now in moments { #expect(ReceiptParser.tomorrow(now) == ReceiptParser.tomorrowByCalendar(now), "\(now.timeIntervalSinceReferenceDate)") }
    }

    /// `RowOfSource` against the Dictionary it stands for (the first row of each source line), on rows as `read`
    /// makes them (sources rising, merged lines skipped) and on any pairs: repeated, out of order, negative, far apart.
    @Test func rowOfSourceIsTheDictionary() {
        var g = Lines(state: 24)
        for n in 0..<4_000 {
            let count = Int.random(in: 0...40, using: &g)
            var pairs: [(Int, Int)] = []
            var source = 0
            for r in 0..<count {
                switch n % 4 {
                case 0: source += Int.random(in: 1...3, using: &g); pairs.append((source, r))
                case 1: pairs.append((Int.random(in: 0...12, using: &g), r))
                case 2: pairs.append((Int.random(in: -3...300, using: &g), Int.random(in: -2...50, using: &g)))
                default: pairs.append((Int.random(in: 0...(5 * count + 80), using: &g), r))
                }
            }
            let want = Dictionary(pairs, uniquingKeysWith: { a, _ in a })
            let got = RowOfSource(pairs.lazy.map { $0 })
            let wrong = (-5...(5 * count + 310)).filter { got[$0] != want[$0] }
            #expect(wrong.isEmpty, "\(pairs) / \(wrong)")
        }
    }
}
