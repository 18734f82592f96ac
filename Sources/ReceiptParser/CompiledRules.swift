import Foundation
import ReceiptModel

/// The rules, normalised once for fast whole-word matching. A class, not a struct (a speed trick): every table in it
/// is a `let`, so a reference reads as a copy did, and a call of one of its methods that is not inlined was handed a
/// copy of the whole struct, some 1.3 KB copied each time (and a copy kept, by the parser or the money fields,
/// retained every table in it).
final class CompiledRules: Sendable {
    /// A class, not a struct: keywords are handed around line by line (the best of a set, a candidate's),
    /// and a copy of one is a reference, not five retained buffers. Immutable.
    final class Keyword: Sendable {
        let raw: String
        let normalised: String
        let weight: Double
        /// `normalised` as UTF-8; `core`, without its padding spaces (the one-slip comparisons); and its length in characters.
        let bytes: [UInt8]
        let core: [UInt8]
        let coreHasSpace: Bool
        let length: Int
        let isASCII: Bool
        /// `normalised` is printable ASCII or Latin letters (`Bytes.printableOrLatinLetters`): on a line of such
        /// (`WordLine.simpleScalars`) its bytes are found where a search by characters finds it.
        let comparesOnBytes: Bool
        /// `WordLine.byteMask` of `core`'s words, the spaces between them left out as a line's mask leaves them
        /// (`WordLine.lineByteMask`, made of its words): a slip is counted against the letters, never the space.
        let coreByteMask: UInt64
        /// The bits of its words (`WordLine.bit`): a line missing one cannot hold the keyword as printed.
        let wordMask: UInt64
        /// `WordLine.lengthBit` of the lengths a word one slip away may have (`core.count` ± 1), and two (± 2):
        /// what `WordLine.hasLength` asks, made once.
        let oneSlipLengths: UInt64
        let twoSlipLengths: UInt64
        /// Whether OCR slips may match it: one word of five letters or more; of a weak keyword (under 0.75), six or
        /// more ("cuota", 0.7, one slip from "Cota", would make "Creme Cota 6.00" a tax; "anount" is still "amount").
        let slips: Bool
        /// A keyword of several words: each word's bytes (`MoneyFields.holdsSlipped`); empty for one word.
        let phraseWords: [[UInt8]]

        init(raw: String, normalised: String, weight: Double) {
            self.raw = raw; self.normalised = normalised; self.weight = weight
            bytes = Array(normalised.utf8)
            core = bytes.count >= 2 ? Array(bytes.dropFirst().dropLast()) : []
            coreHasSpace = core.contains(32)
            length = normalised.count
            isASCII = bytes.allSatisfy { $0 < 0x80 }
            comparesOnBytes = isASCII || bytes.withUnsafeBufferPointer(Bytes.printableOrLatinLetters)
            coreByteMask = WordLine.byteMask(core.lazy.filter { $0 != 32 })
            wordMask = bytes.split(separator: 32).reduce(0) { $0 | WordLine.bit($1) }
            oneSlipLengths = WordLine.lengthBits(core.count - 1, core.count + 1)
            twoSlipLengths = WordLine.lengthBits(core.count - 2, core.count + 2)
            slips = core.count >= (weight >= Self.weakestSlipping ? 5 : 6) && !coreHasSpace
            phraseWords = coreHasSpace ? bytes.split(separator: 32).map(Array.init) : []
        }
        static let weakestSlipping = 0.75

        /// Not a word on the receipt but how a candidate was found ("subtotal + tax"): never matched,
        /// named in the rule instead ("total.subtotal-+-tax").
        static func derived(_ raw: String, weight: Double) -> Keyword { Keyword(raw: raw, normalised: "", weight: weight) }
        var isDerived: Bool { normalised.isEmpty }
    }

    /// A list of keywords with what `WordLine.contains` asks first of each (`WordLine.may`), kept as plain numbers
    /// side by side: most keywords are refused by those alone, without touching the keyword (a class, each
    /// touch a retain and a release). A collection of the keywords, in their order.
    struct KeywordSet: RandomAccessCollection, Sendable {
        struct Signs: Sendable {
            /// `Keyword.wordMask`.
            let words: UInt64
            /// `Keyword.coreByteMask`.
            let coreBytes: UInt64
            /// Whether the keyword may match one slip away (five bytes or more, one word), and two (`twoSlipsFrom`).
            let slips: Bool
            let twoSlips: Bool
            let oneSlipLengths: UInt64
            let twoSlipLengths: UInt64
            /// Several words (`Keyword.phraseWords`).
            let phrase: Bool
        }

        let keywords: [Keyword]
        let signs: [Signs]
        /// The keywords indexed by their word bits, in one array (a set is passed by value: each array more is a
        /// retain and a release in every caller): `index[b]..<index[b + 1]` (b 0...64) are the places in `index`
        /// of the keywords whose lowest bit of `Signs.words` is `b` (64: no word bits), in their order; after
        /// them, from `index[65]`, the keywords that may slip (`Signs.slips`), in their order. A line holds a
        /// keyword as printed only if it has all its bits, and so its lowest.
        ///
        /// After those, from `slipBase`, the slipping keywords a word of each length may be one or two slips from, as
        /// bit masks of their places in `keywords` (`slipChunks` masks of 64 places for each length): `index[slipBase +
        /// ℓ * slipChunks + c]` holds bit `i % 64` (for `c = i / 64`) when `Signs.oneSlipLengths` of keyword `i` has
        /// `WordLine.lengthBit(ℓ)` (ℓ 0...63), and the same `64 * slipChunks` places on, when it slips twice
        /// (`Signs.twoSlips`) and its `twoSlipLengths` has that bit. (The masks are stored as `Int`s, bit for bit.)
        let index: [Int]
        let slipBase: Int
        let slipChunks: Int
        /// The set's place in its rules' `KeywordIndex` (-1: a set made apart from the rules, asked keyword by keyword).
        let slot: Int

        init(_ keywords: [Keyword], slot: Int = -1) {
            self.keywords = keywords
            self.slot = slot
            let signs = keywords.map { k in
                Signs(words: k.wordMask, coreBytes: k.coreByteMask, slips: k.slips,
                      twoSlips: k.core.count >= WordLine.twoSlipsFrom, oneSlipLengths: k.oneSlipLengths, twoSlipLengths: k.twoSlipLengths,
                      phrase: k.coreHasSpace)
            }
            self.signs = signs
            let lowest = signs.map { $0.words == 0 ? 64 : $0.words.trailingZeroBitCount }
            var start = [Int](repeating: 0, count: 66)
            for b in lowest { start[b + 1] += 1 }
            for b in 0..<65 { start[b + 1] += start[b] }
            var next = start, order = [Int](repeating: 0, count: signs.count)
            for (i, b) in lowest.enumerated() { order[next[b]] = i; next[b] += 1 }
            let slipping = signs.indices.filter { signs[$0].slips }
            var index = start.map { $0 + 66 } + order + slipping
            let chunks = (signs.count + 63) / 64
            slipBase = index.count
            slipChunks = chunks
            var table = [UInt64](repeating: 0, count: 2 * 64 * chunks)
            for i in slipping {
                for l in 0..<64 {
                    let bit = WordLine.lengthBit(l)
                    if signs[i].oneSlipLengths & bit != 0 { table[l * chunks + i / 64] |= 1 << UInt64(i % 64) }
                    if signs[i].twoSlips, signs[i].twoSlipLengths & bit != 0 { table[64 * chunks + l * chunks + i / 64] |= 1 << UInt64(i % 64) }
                }
            }
            index += table.map { Int(bitPattern: UInt($0)) }
            self.index = index
        }

        /// Calls `body` with each slipping keyword, in order, that a word of the line (or two neighbours, `loosely`) is
        /// about as long as for `WordLine.slipsAway` to compare it (its `oneSlipLengths` among the line's `lengthMask`;
        /// `loosely`, its `twoSlipLengths` among those and `pairLengthMask`), until `body` says to stop (false). The
        /// others `slipsAway` refuses by their lengths alone. (A speed trick: the walk of every slipping keyword of a
        /// set, asking each its signs, for every line.)
        @inline(__always) func forEachSlipCandidate(_ w: WordLine, loosely: Bool, _ body: (Int) -> Bool) {
            let lengths = w.lengthMask, twoLengths = loosely ? w.lengthMask | w.pairLengthMask : 0
            for c in 0..<slipChunks {
                var m: UInt64 = 0
                var ls = lengths
                while ls != 0 {
                    let l = ls.trailingZeroBitCount
                    ls &= ls &- 1
                    m |= UInt64(bitPattern: Int64(index[slipBase + l * slipChunks + c]))
                }
                ls = twoLengths
                while ls != 0 {
                    let l = ls.trailingZeroBitCount
                    ls &= ls &- 1
                    m |= UInt64(bitPattern: Int64(index[slipBase + 64 * slipChunks + l * slipChunks + c]))
                }
                while m != 0 {
                    let i = c * 64 + m.trailingZeroBitCount
                    m &= m &- 1
                    if !body(i) { return }
                }
            }
        }

        /// `forEachSlipCandidate(w, loosely: true, body)` less the keywords it gives for a word's length alone
        /// (`oneSlipLengths`): those that slip twice (`Signs.twoSlips`) with a `twoSlipLengths` bit among the line's
        /// `lengthMask | pairLengthMask`, in order. (A keyword not among them is two slips from no word or pair:
        /// `WordLine.slipsAway` with `loosely` then asks it what it asks without; `KeywordHits.slipped` has those.)
        @inline(__always) func forEachTwoSlipCandidate(_ w: WordLine, _ body: (Int) -> Bool) {
            let twoLengths = w.lengthMask | w.pairLengthMask
            for c in 0..<slipChunks {
                var m: UInt64 = 0
                var ls = twoLengths
                while ls != 0 {
                    let l = ls.trailingZeroBitCount
                    ls &= ls &- 1
                    m |= UInt64(bitPattern: Int64(index[slipBase + 64 * slipChunks + l * slipChunks + c]))
                }
                while m != 0 {
                    let i = c * 64 + m.trailingZeroBitCount
                    m &= m &- 1
                    if !body(i) { return }
                }
            }
        }

        /// Calls `body` with every keyword whose lowest word bit is in `mask` or that has no word bits: a superset
        /// of the keywords a line with the word bits `mask` holds as printed (not in order).
        @inline(__always) func forEachUnderBits(_ mask: UInt64, _ body: (Int) -> Void) {
            var m = mask
            while m != 0 {
                let b = m.trailingZeroBitCount
                m &= m &- 1
                for j in index[b]..<index[b + 1] { body(index[j]) }
            }
            for j in index[64]..<index[65] { body(index[j]) }
        }

        /// A set of no keywords, made once (a default argument is made again at every call, its index and all).
        static let none = KeywordSet([])

        var startIndex: Int { keywords.startIndex }
        var endIndex: Int { keywords.endIndex }
        subscript(i: Int) -> Keyword { keywords[i] }
    }

    let total: KeywordSet
    let totalDistractors: KeywordSet
    let totalTables: KeywordSet
    let subtotal: KeywordSet
    let tax: KeywordSet
    let taxExclude: KeywordSet
    let rounding: KeywordSet
    let discount: KeywordSet
    let cash: KeywordSet
    let change: KeywordSet
    let changeExclude: KeywordSet
    let cashExclude: KeywordSet
    let dateKeywords: KeywordSet
    let dateDistractors: KeywordSet
    let months: [String: Int]
    let monthWords: DateScanner.MonthWords
    let legalForms: KeywordSet
    /// Cleaning names with those legal forms.
    let vendorText: VendorText
    let vendorSkip: KeywordSet
    /// `vendorSkip`'s words a misread may stand for (`misreadSkipWord`), made once.
    let misreadSkipTargets: [[Character]]
    let misreadSkipTargetBytes: [[[UInt8]]]?
    let addressWords: KeywordSet
    /// Upper-cased business words, by length (for one-edit look-ups).
    let nameWords: [Int: [String]]
    /// `nameWords` as UTF-8, under the same keys and in the same order (asked on bytes by the ASCII paths of
    /// `hasNameWord` and `repairWord`: a string made and compared for each word of each name was most of their cost).
    let nameWordBytes: [Int: [[UInt8]]]
    /// The words of `nameWords` that are not ASCII, under the same keys and in the same order: the only ones a word that
    /// is not ASCII can be one confusable letter from (`repairWord`; the confusable letters are all ASCII).
    let nameWordsNotASCII: [Int: [String]]
    let currencySymbols: [(String, String)]   // raw symbol, code
    /// `currencySymbols`' symbols as UTF-8, and whether each is all letters (`currencies(in:)` on ASCII).
    /// (`pairs`: its pairs of bytes side by side, `BytePairs`.)
    let currencySymbolBytes: [(bytes: [UInt8], letters: Bool, set: ByteSet?, pairs: BytePairs)]
    /// The symbols of `currencySymbolBytes` a line may hold by its bytes (`CurrencyCandidates`); nil with more than 64.
    let currencyCandidates: CurrencyCandidates?
    /// The symbols of more than one character ending in "$" ("us$", "s$", "hk$"): a "$" inside one is that currency's.
    let prefixedDollars: [String]
    /// `prefixedDollars` as bytes, when every one is printable ASCII (nil otherwise).
    let prefixedDollarBytes: [[UInt8]]?
    let currencyWords: Set<String>
    /// `currencyWords` of ASCII letters as bytes (`ParseLine.ungluingCurrency`).
    let currencyWordBytes: [[UInt8]]
    let monthFirstCurrencies: Set<String>
    let dollarHints: [(String, String)]   // normalised word, code
    /// `dollarHints`' words as keywords, in the same order: a set of the index, so a line's first (`anyIndex`, the first
    /// that `WordLine.contains`) is read from its bits.
    let dollarHintSet: KeywordSet
    /// The same keywords made apart from the index (`slot` -1), asked keyword by keyword: for a line made only to be
    /// asked for them (a page line inside a merged row, `currency(pageLines:)`), whose bits would be made for every
    /// set of the rules and kept by nothing.
    let dollarHintsApart: KeywordSet
    /// The payment words, normalised (`raw` is the normalised text too).
    /// (Sets, so a line is asked only for the words its signs may hold: `any` gives the first that `contains`.)
    let cardWords: KeywordSet
    let cashWords: KeywordSet
    let receiptNumberKeywords: [(Keyword, Double)]
    /// `receiptNumberKeywords`' keywords, in their order, with their signs.
    let receiptNumberSet: KeywordSet
    let itemSkip: KeywordSet
    let itemSkipAlone: KeywordSet
    /// The slots of the sets `isNotAnItem` asks of a row as printed or one slip away (the subtotal also two, loosely),
    /// when all are in `keywordIndex` (nil otherwise: then it asks them one by one).
    let notItemSlots: [Int]?
    /// The slots of the sets `MoneyFields` finds its lines by (subtotal, loosely; tax, rounding, discount, cash, change,
    /// total), when all are in `keywordIndex` (nil otherwise: then every line is asked each set).
    let moneySlots: [Int]?
    /// The slots of total, subtotal, rounding, discount, cash and change, when all are in `keywordIndex` (`isMoneyLabel`).
    let moneyLabelSlots: [Int]?
    let itemDiscount: KeywordSet
    let itemVoid: KeywordSet
    /// Every set above in one index: a line is read for all of them at once (`KeywordHits`).
    let keywordIndex: KeywordIndex

    init(_ r: ParserRules) {
        // Each set made here is given its place in the index (`KeywordSet.slot`), in the order made.
        var sets: [KeywordSet] = []
        func registered(_ keywords: [Keyword]) -> KeywordSet {
            let set = KeywordSet(keywords, slot: sets.count)
            sets.append(set)
            return set
        }
        func kws(_ d: [String: Double]) -> KeywordSet {
            registered(d.map { Keyword(raw: $0.key, normalised: WordLine.normalise($0.key), weight: $0.value) }
                .filter { $0.normalised.count > 2 }
                // Longest first; equal lengths by name, then by the spelling in the rules ("sub total" and
                // "sub-total" normalise alike), so ties break the same way in every process (dictionary
                // order changes with each process's hash seed).
                .sorted { ($0.normalised.count, $1.normalised, $1.raw) > ($1.normalised.count, $0.normalised, $0.raw) })
        }
        func list(_ a: [String]?) -> KeywordSet { kws(Dictionary((a ?? []).map { ($0, 1.0) }, uniquingKeysWith: max)) }
        total = kws(r.total.keywords)
        totalDistractors = list(r.total.distractors)
        totalTables = list(r.total.tables)
        subtotal = kws(r.subtotal.keywords)
        tax = kws(r.tax.keywords)
        taxExclude = list(r.tax.exclude)
        rounding = kws(r.rounding.keywords)
        discount = kws(r.discount.keywords)
        cash = kws(r.cash.keywords)
        change = kws(r.change.keywords)
        changeExclude = list(r.change.exclude)
        cashExclude = list(r.cash.exclude)
        dateKeywords = kws(r.date.keywords)
        dateDistractors = list(r.date.distractors)
        months = Dictionary(r.date.months.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        monthWords = DateScanner.MonthWords(months)
        legalForms = list(r.vendor.legalForms)
        vendorText = VendorText(legalForms: r.vendor.legalForms, nameWords: r.vendor.nameWords ?? [])
        vendorSkip = list(r.vendor.skip)
        misreadSkipTargets = Self.misreadSkipTargets(vendorSkip)
        misreadSkipTargetBytes = Self.misreadSkipTargetBytes(misreadSkipTargets)
        addressWords = list(r.vendor.addressWords)
        nameWords = Dictionary(grouping: Set((r.vendor.nameWords ?? []).map { $0.uppercased() }).sorted(), by: \.count)
        nameWordBytes = nameWords.mapValues { $0.map { Array($0.utf8) } }
        nameWordsNotASCII = nameWords.mapValues { $0.filter { !$0.utf8.allSatisfy { $0 < 0x80 } } }
        currencySymbols = r.currency.symbols.map { ($0.key.lowercased(), $0.value) }.sorted { $0.0.count > $1.0.count }
        currencySymbolBytes = currencySymbols.map { s in
            (Array(s.0.utf8), s.0.allSatisfy(\.isLetterQuick), s.0.utf8.allSatisfy { $0 < 0x80 } ? ByteSet(bytes: s.0.utf8) : nil, BytePairs(Array(s.0.utf8)))
        }
        currencyCandidates = CurrencyCandidates(currencySymbolBytes.map(\.set))
        prefixedDollars = currencySymbols.map(\.0).filter { $0.count > 1 && $0.hasSuffix("$") }
        prefixedDollarBytes = prefixedDollars.allSatisfy(isPrintableASCII) ? prefixedDollars.map { Array($0.utf8) } : nil
        currencyWords = Set(r.currency.symbols.keys.map { $0.lowercased() }.filter { $0.allSatisfy(\.isLetterQuick) })
        currencyWordBytes = currencyWords.map { Array($0.utf8) }.filter { w in w.allSatisfy { $0 < 0x80 } }.sorted { $0.count > $1.count || ($0.count == $1.count && $0.lexicographicallyPrecedes($1)) }
        monthFirstCurrencies = Set(r.currency.monthFirst)
        dollarHints = (r.currency.dollarHints ?? [:]).map { (WordLine.normalise($0.key), $0.value) }.sorted { $0.0 < $1.0 }
        dollarHintSet = registered(dollarHints.map { Keyword(raw: $0.0, normalised: $0.0, weight: 1) })
        dollarHintsApart = KeywordSet(dollarHintSet.keywords)
        cardWords = registered(r.payment.card.map { let n = WordLine.normalise($0); return Keyword(raw: n, normalised: n, weight: 1) })
        cashWords = registered(r.payment.cash.map { let n = WordLine.normalise($0); return Keyword(raw: n, normalised: n, weight: 1) })
        itemSkip = list(r.items?.skip)
        itemSkipAlone = list(r.items?.skipAlone)
        itemDiscount = list(r.items?.discount)
        itemVoid = list(r.items?.void)
        receiptNumberKeywords = r.receiptNumber.keywords.enumerated().map { i, k in
            (Keyword(raw: k, normalised: WordLine.normalise(k), weight: 1), 1 - Double(i) / Double(max(1, r.receiptNumber.keywords.count)) * 0.5)
        }.filter { $0.0.normalised.count > 2 }
        receiptNumberSet = registered(receiptNumberKeywords.map(\.0))
        keywordIndex = KeywordIndex(sets)
        let notItem = [total, subtotal, rounding, cash, change, tax, itemSkip, itemSkipAlone]
        notItemSlots = notItem.allSatisfy { $0.slot >= 0 } ? notItem.map(\.slot) : nil
        let money = [subtotal, tax, rounding, discount, cash, change, total]
        moneySlots = money.allSatisfy { $0.slot >= 0 } ? money.map(\.slot) : nil
        let labels = [total, subtotal, rounding, discount, cash, change]
        moneyLabelSlots = (labels + [tax, taxExclude]).allSatisfy { $0.slot >= 0 } ? labels.map(\.slot) : nil
    }

    /// The best-weighted keyword matching the line, if any.
    /// Exact matches win over matches one OCR slip away ("totale" must not claim "total").
    /// (A set of the rules on a line of ASCII: read from the line's bits, `KeywordHits`. The walks below answer the others.)
    func best(_ set: KeywordSet, in w: WordLine, loosely: Bool = false) -> Keyword? {
        if let h = w.hits(set, keywordIndex) {
            return (h.best(h.exact(set), set) ?? h.best(h.slipped(set, w, loosely: loosely), set)).map { set.keywords[$0] }
        }
        if let exact = bestExact(set, in: w) { return exact }
        // The first of the best, as `max(by:)` over the matches in order gives. (No keyword of the set is on the
        // line as printed, or `bestExact` had found it: `contains` is `slipsAway` here, false for a keyword
        // that does not slip: only the slipping ones, listed after `set.index[65]`, are asked.)
        // (Only the keywords a word is about as long as: `KeywordSet.forEachSlipCandidate`.)
        var best: Keyword?
        set.forEachSlipCandidate(w, loosely: loosely) { i in
            guard w.may(set.signs[i], loosely: loosely) else { return true }
            let k = set.keywords[i]
            guard w.slipsAway(k, loosely: loosely) else { return true }
            if let b = best, !Self.ranksBelow(b, k) { return true }
            best = k
            return true
        }
        return best
    }

    /// `max(by:)`'s order for keywords: the weight, then the length.
    static func ranksBelow(_ a: Keyword, _ b: Keyword) -> Bool { a.weight < b.weight || (a.weight == b.weight && a.length < b.length) }

    func any(_ set: KeywordSet, in w: WordLine, loosely: Bool = false) -> Keyword? {
        anyIndex(set, in: w, loosely: loosely).map { set.keywords[$0] }
    }

    /// The place in `set` of `any`'s keyword.
    func anyIndex(_ set: KeywordSet, in w: WordLine, loosely: Bool = false) -> Int? {
        // (From the line's bits, `KeywordHits`, where it has them: the first of the set as printed or slipped.)
        if let h = w.hits(set, keywordIndex) {
            // (The first of either is the lowest bit of the two together: one walk of the set's words.)
            let exact = h.exact(set), slipped = h.slipped(set, w, loosely: loosely)
            for c in 0..<keywordIndex.chunks[set.slot] where exact[c] | slipped[c] != 0 { return 64 * c + (exact[c] | slipped[c]).trailingZeroBitCount }
            return nil
        }
        // The first keyword in order on the line as printed or slipped: the first as printed (`firstExact`), unless
        // a slipping keyword before it is on the line one slip away (two, `loosely`): it is not on the line as
        // printed, or it were the first.
        let exact = firstExact(set, in: w)
        var slipped: Int?
        set.forEachSlipCandidate(w, loosely: loosely) { i in
            if let e = exact, i >= e { return false }
            if w.may(set.signs[i], loosely: loosely) && w.slipsAway(set.keywords[i], loosely: loosely) { slipped = i; return false }
            return true
        }
        return slipped ?? exact
    }

    /// The first keyword of `set` on the line as printed (`WordLine.has`): from the line's bits (`KeywordHits`), or only
    /// the keywords under the line's word bits asked.
    func firstExact(_ set: KeywordSet, in w: WordLine) -> Int? {
        if let h = w.hits(set, keywordIndex) { return h.first(h.exact(set), set) }
        var first: Int?
        let mask = w.wordMask
        set.forEachUnderBits(mask) { i in
            if let f = first, i > f { return }
            if set.signs[i].words & ~mask == 0 && w.has(set.keywords[i]) { first = i }
        }
        return first
    }

    /// The best-weighted keyword of `set` on the line as printed, no OCR slip allowed (from the line's bits, `KeywordHits`,
    /// where it has them).
    func bestExact(_ set: KeywordSet, in w: WordLine) -> Keyword? {
        if let h = w.hits(set, keywordIndex) { return h.best(h.exact(set), set).map { set.keywords[$0] } }
        // The first of the best in the set's order, the keywords asked out of order (under the line's word bits):
        // one asked later that ranks the same wins when it comes first in the set.
        var best: Int?
        let mask = w.wordMask
        set.forEachUnderBits(mask) { i in
            guard set.signs[i].words & ~mask == 0 else { return }
            let k = set.keywords[i]
            guard w.has(k) else { return }
            if let b = best {
                let bk = set.keywords[b]
                guard Self.ranksBelow(bk, k) || (!Self.ranksBelow(k, bk) && i < b) else { return }
            }
            best = i
        }
        return best.map { set.keywords[$0] }
    }

    /// A keyword of `set` as printed, no OCR slip allowed (short everyday words: "table" must not claim "CABLE").
    func anyExact(_ set: KeywordSet, in w: WordLine) -> Keyword? {
        firstExact(set, in: w).map { set.keywords[$0] }
    }

    /// The line names the subtotal, read as loosely as OCR slips allow ("RubTota", "SUBTTL").
    func isSubtotal(_ w: WordLine) -> Bool { any(subtotal, in: w, loosely: true) != nil }

    func dateKeyword(_ w: WordLine) -> Double { best(dateKeywords, in: w)?.weight ?? 0 }
    func isDateDistractor(_ w: WordLine) -> Bool { any(dateDistractors, in: w) != nil }

    /// Labels of the totals block whose value is money: total, subtotal, tax, rounding, discount, cash, change.
    /// `byBits` false: each set asked in turn (for the test that holds the bits to that).
    func isMoneyLabel(_ w: WordLine, byBits: Bool = true) -> Bool {
        // (From the line's bits where it has them: the first six sets' chunks asked at once, `holdsAny`, as `any` of
        // each reads them, not a set at a time, some 1,400 instructions a line.)
        if byBits, let slots = moneyLabelSlots, let h = w.hits(total, keywordIndex) {
            return h.holdsAny(ofSlots: slots, w) || h.holdsAny(ofSlots: [tax.slot], w) && !h.holdsAny(ofSlots: [taxExclude.slot], w)
        }
        // (Asked one set after another, without an array of the sets made for each line.)
        if any(total, in: w) != nil || any(subtotal, in: w) != nil || any(rounding, in: w) != nil || any(discount, in: w) != nil
            || any(cash, in: w) != nil || any(change, in: w) != nil { return true }
        return any(tax, in: w) != nil && any(taxExclude, in: w) == nil
    }

    /// Lines that are totals, taxes, payments: not line items.
    func isSummaryOrMeta(_ w: WordLine) -> Bool {
        if any(total, in: w) != nil || any(subtotal, in: w) != nil || any(rounding, in: w) != nil || any(cash, in: w) != nil
            || any(change, in: w) != nil { return true }
        if any(tax, in: w) != nil, any(taxExclude, in: w) == nil { return true }
        return any(totalDistractors, in: w) != nil || any(vendorSkip, in: w) != nil
    }
}
