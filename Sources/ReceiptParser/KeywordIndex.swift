import Foundation

extension CompiledRules {
    /// Every keyword set of the rules in one index (a speed trick: each field asked each set of a line on its own,
    /// and some sets several times from different fields, each ask a walk of the set's keywords; some 130 M
    /// instructions of a scan set's 1 G). A line of ASCII is read once for all the sets (`KeywordHits`): its words
    /// looked up in a table of the keywords' first words, each keyword found as printed a bit; when a set's slips are
    /// first asked, its words and each of them less one byte looked up in a table of the slipping keywords less one
    /// byte, each keyword one slip away a bit. `best`, `any`, `firstExact` and `bestExact` read the bits, in the set's
    /// order, and so give what their walks give (`HandScannerTests` holds the two together).
    ///
    /// A set of the rules knows its place here (`KeywordSet.slot`); a set made apart (slot -1) and a line that is
    /// not ASCII are asked as before.
    final class KeywordIndex: Sendable {
        /// Slot s's keyword i is bit `bases[s] + i` of a line's bits (each slot from a multiple of 64, so a set's bits
        /// are whole words: `chunks[s]` of them). Two runs of such bits, `bitWords` words each: the keywords on the line
        /// as printed, then the ones one slip away (`WordLine.slipsAway` without `loosely`); then, `looseStarts[s]` words
        /// into a line's storage, slot s's keywords `slipsAway` with `loosely`, `chunks[s]` words.
        let bases: [Int]
        let chunks: [Int]
        let bitWords: Int
        let looseStarts: [Int]
        /// The storage of a line: `flagWords` words of flags (bit 0: the slips one away known; bit s + 1: slot s's loose
        /// slips known), the bits from `flagWords` on; `size` words in all.
        let flagWords: Int
        let size: Int

        /// The keywords of ASCII as printed (their normalised bytes, " sub total "), by their first word's `NearWords.hash`; those
        /// without words (a payment word of symbols alone normalises to spaces), searched in the line's bytes; keywords
        /// not ASCII are never on a line of ASCII as printed.
        let printed: Strings
        let firstWords: HashGroups
        let wordless: [Int]
        /// The cores of the keywords that slip (`Keyword.slips`), looked up one edit from a word (`NearWords`, in the
        /// order of `cores`).
        let cores: Strings
        let nearCores: NearWords

        init(_ sets: [KeywordSet]) {
            var bases: [Int] = [], chunks: [Int] = []
            var bit = 0
            for s in sets {
                bases.append(bit)
                chunks.append((s.count + 63) / 64)
                bit += 64 * chunks.last!
            }
            bitWords = bit / 64
            flagWords = (sets.count + 1 + 63) / 64
            var at = flagWords + 2 * bitWords, looseStarts: [Int] = []
            for c in chunks { looseStarts.append(at); at += c }
            size = at
            self.bases = bases; self.chunks = chunks; self.looseStarts = looseStarts

            var printed = Strings.Builder(), cores = Strings.Builder()
            for (s, set) in sets.enumerated() {
                for (i, k) in set.keywords.enumerated() {
                    if k.isASCII { printed.add(k.bytes, bit: bases[s] + i) }
                    if k.slips { cores.add(k.core, bit: bases[s] + i) }
                }
            }
            self.printed = printed.strings
            self.cores = cores.strings
            var firstWords: [(UInt64, Int)] = [], wordless: [Int] = []
            for (u, b) in printed.distinct.enumerated() {
                if let first = b.split(separator: 32).first {
                    firstWords.append((Array(first).withUnsafeBufferPointer(NearWords.hash), u))
                } else {
                    wordless.append(u)
                }
            }
            self.firstWords = HashGroups(firstWords)
            self.wordless = wordless
            nearCores = NearWords(cores.distinct)
        }

        /// Sets in `exact` the bit of every keyword on the ASCII line `w` as printed (`WordLine.has`): a keyword's
        /// normalised bytes stand in the line's from the space before one of its words. (On ASCII the line's bytes are
        /// its words with one space between and around them, so that is the only place `bytesContain` can find them.)
        func findExact(_ w: WordLine, _ exact: UnsafeMutablePointer<UInt64>) {
            w.bytes.withUnsafeBufferPointer { line in
                for s in w.spans {
                    firstWords.forEach(NearWords.hash(UnsafeBufferPointer(rebasing: line[s.start..<s.end]))) { u in
                        printed.withBytes(u) { k in
                            if s.start - 1 + k.count <= line.count, memcmp(line.baseAddress! + (s.start - 1), k.baseAddress!, k.count) == 0 {
                                printed.mark(u, exact)
                            }
                        }
                    }
                }
                for u in wordless where printed.withBytes(u, { bytesContain(line, $0) }) { printed.mark(u, exact) }
            }
        }

        /// Sets in `slipped` the bit of every keyword one slip from a word of the ASCII line `w` (`WordLine.oneSlip`),
        /// each core asked only of the words it may be one edit from (`NearWords`).
        func findSlips(_ w: WordLine, _ slipped: UnsafeMutablePointer<UInt64>) {
            w.bytes.withUnsafeBufferPointer { line in
                for s in w.spans {
                    let word = UnsafeBufferPointer(rebasing: line[s.start..<s.end])
                    nearCores.forEachNear(word) { u in
                        guard !cores.isMarked(u, slipped), cores.withBytes(u, { WordLine.oneSlip(word, $0) }) else { return }
                        cores.mark(u, slipped)
                    }
                }
            }
        }

        /// Distinct byte strings (keywords' bytes or cores), each with the bits of the keywords it stands for (a
        /// keyword in two sets, or under two spellings in one, is one string).
        struct Strings: Sendable {
            let bytes: [UInt8]
            let starts: [Int]
            let bits: [Int]
            let bitStarts: [Int]

            struct Builder {
                var distinct: [[UInt8]] = []
                var bitsOf: [[Int]] = []
                var place: [[UInt8]: Int] = [:]
                mutating func add(_ b: [UInt8], bit: Int) {
                    if let u = place[b] { bitsOf[u].append(bit); return }
                    place[b] = distinct.count
                    distinct.append(b)
                    bitsOf.append([bit])
                }
                var strings: Strings {
                    Strings(bytes: distinct.flatMap { $0 }, starts: distinct.reduce(into: [0]) { $0.append($0.last! + $1.count) },
                            bits: bitsOf.flatMap { $0 }, bitStarts: bitsOf.reduce(into: [0]) { $0.append($0.last! + $1.count) })
                }
            }

            @inline(__always) func withBytes<T>(_ u: Int, _ body: (UnsafeBufferPointer<UInt8>) -> T) -> T {
                bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[starts[u]..<starts[u + 1]])) }
            }
            @inline(__always) func mark(_ u: Int, _ to: UnsafeMutablePointer<UInt64>) {
                for j in bitStarts[u]..<bitStarts[u + 1] { to.setBit(bits[j]) }
            }
            /// Whether `mark(u, to)` was done (its bits are set together).
            @inline(__always) func isMarked(_ u: Int, _ to: UnsafeMutablePointer<UInt64>) -> Bool {
                to.bit(bits[bitStarts[u]])
            }
        }
    }

    /// What a line holds of every set of the rules (`KeywordIndex`), kept on its `WordLine`: the keywords as printed,
    /// found when made; those one slip away, and each set's loose slips, when first asked. Bits in one block of memory
    /// of the index's `size` (a pointer that does not change: no exclusive-access check a read).
    /// A view of the block of bits the line's `WordLine` keeps (`WordLine.hits`, which makes the block with `block` and
    /// frees it with `free`, with itself or when another index asks the line), used only while the line is asked.
    /// (A speed trick: a class, an allocation and a freeing a line, now one block of memory. The index is held strongly:
    /// held `unowned(unsafe)`, each read of it was retained and released, 35 M instructions more. The line keeps the
    /// block and the index apart, not a view: a view read back from it was one more retain and release an ask.)
    struct KeywordHits {
        let index: KeywordIndex
        private let storage: UnsafeMutablePointer<UInt64>

        /// The view of `storage`, a block `block` made with `index`.
        init(_ index: KeywordIndex, _ storage: UnsafeMutablePointer<UInt64>) {
            self.index = index
            self.storage = storage
        }

        /// A block for the line `w`: its keywords as printed found, nothing else asked yet. The caller frees it (`free`).
        static func block(_ index: KeywordIndex, _ w: WordLine) -> UnsafeMutablePointer<UInt64> {
            let storage = UnsafeMutablePointer<UInt64>.allocate(capacity: index.size)
            storage.initialize(repeating: 0, count: index.size)
            index.findExact(w, storage + index.flagWords)
            return storage
        }

        /// Frees a block `block` made.
        static func free(_ block: UnsafeMutablePointer<UInt64>) { block.deallocate() }

        /// The set's exact bits: keyword i on the line as printed is bit i % 64 of word i / 64.
        @inline(__always) func exact(_ set: KeywordSet) -> UnsafeMutablePointer<UInt64> {
            storage + index.flagWords + (index.bases[set.slot] >> 6)
        }

        /// Every set's bits one slip away (the run after the exact bits), found for all of them when first asked.
        @inline(__always) private func oneSlip(_ w: WordLine) -> UnsafeMutablePointer<UInt64> {
            if storage[0] & 1 == 0 {
                index.findSlips(w, storage + index.flagWords + index.bitWords)
                storage[0] |= 1
            }
            return storage + index.flagWords + index.bitWords
        }

        /// The set's slipped bits: keyword i is bit i % 64 of word i / 64 when `w.may(signs, loosely:)` and
        /// `w.slipsAway(keyword, loosely:)`, as `best` and `any` ask them. Without `loosely` that is a word one slip from
        /// the keyword (`slipsAway` asks no more of a keyword that slips), found for every set at once; with it, the set's
        /// slipping keywords `forEachSlipCandidate` gives are asked (the subtotal's alone are, and seldom).
        @inline(__always) func slipped(_ set: KeywordSet, _ w: WordLine, loosely: Bool) -> UnsafeMutablePointer<UInt64> {
            guard loosely else { return oneSlip(w) + (index.bases[set.slot] >> 6) }
            return looselySlipped(set, w)
        }

        /// `slipped` with `loosely`. (Apart, so that the common ask without it is made in place.)
        private func looselySlipped(_ set: KeywordSet, _ w: WordLine) -> UnsafeMutablePointer<UInt64> {
            let slot = set.slot
            let out = storage + index.looseStarts[slot]
            let flag = slot + 1
            if !storage.bit(flag) {
                // A keyword too short to slip twice slips as without `loosely`; the others are asked. (Only those
                // that may be two slips from a word or pair, `forEachTwoSlipCandidate`: for any other, `slipsAway` with
                // `loosely` is `slipsAway` without, and the bits without have it.)
                let one = slipped(set, w, loosely: false)
                for c in 0..<index.chunks[slot] { out[c] = one[c] }
                set.forEachTwoSlipCandidate(w) { i in
                    guard set.signs[i].twoSlips, !out.bit(i) else { return true }
                    if w.may(set.signs[i], loosely: true) && w.slipsAway(set.keywords[i], loosely: true) { out.setBit(i) }
                    return true
                }
                storage.setBit(flag)
            }
            return out
        }

        /// Whether no keyword of the sets in `slots` is on the line as printed or one slip away, and none of `loose`
        /// two (`slipped` with `loosely`): what `best`, `any`, `bestExact` and `firstExact` would all find none of.
        /// (By the sets' slots: a set taken whole retained each of its arrays.)
        func holdsNone(ofSlots slots: [Int], loose: borrowing KeywordSet, _ w: WordLine) -> Bool {
            let exact = storage + index.flagWords, slipped = oneSlip(w)
            for slot in slots {
                let at = index.bases[slot] >> 6
                for c in at..<(at + index.chunks[slot]) where exact[c] | slipped[c] != 0 { return false }
            }
            let e = self.exact(loose), l = self.slipped(loose, w, loosely: true)
            for c in 0..<index.chunks[loose.slot] where e[c] | l[c] != 0 { return false }
            return true
        }

        /// Whether a keyword of the sets in `slots` is on the line as printed or one slip away: `any` (without `loosely`)
        /// of one of them says one is.
        func holdsAny(ofSlots slots: [Int], _ w: WordLine) -> Bool {
            let exact = storage + index.flagWords, slipped = oneSlip(w)
            for slot in slots {
                let at = index.bases[slot] >> 6
                for c in at..<(at + index.chunks[slot]) where exact[c] | slipped[c] != 0 { return true }
            }
            return false
        }

        /// The first bit of the set's `bits` (`exact` or `slipped`), if any.
        @inline(__always) func first(_ bits: UnsafeMutablePointer<UInt64>, _ set: KeywordSet) -> Int? {
            for c in 0..<index.chunks[set.slot] where bits[c] != 0 { return 64 * c + bits[c].trailingZeroBitCount }
            return nil
        }

        /// `body` with each keyword of the set among `bits` or `more`, in order, until it says to stop (false).
        @inline(__always) func forEachBit(of bits: UnsafeMutablePointer<UInt64>, or more: UnsafeMutablePointer<UInt64>, _ set: KeywordSet,
                                          _ body: (Int) -> Bool) {
            for c in 0..<index.chunks[set.slot] {
                var m = bits[c] | more[c]
                while m != 0 {
                    if !body(64 * c + m.trailingZeroBitCount) { return }
                    m &= m &- 1
                }
            }
        }

        /// The first of the best-ranked keywords of the set among `bits` (`CompiledRules.ranksBelow`).
        func best(_ bits: UnsafeMutablePointer<UInt64>, _ set: KeywordSet) -> Int? {
            var best: Int?
            for c in 0..<index.chunks[set.slot] {
                var m = bits[c]
                while m != 0 {
                    let i = 64 * c + m.trailingZeroBitCount
                    m &= m &- 1
                    if let b = best, !CompiledRules.ranksBelow(set.keywords[b], set.keywords[i]) { continue }
                    best = i
                }
            }
            return best
        }
    }
}

extension UnsafeMutablePointer<UInt64> {
    /// Bit i of the words from here on: bit i % 64 of word i / 64 (the bits of `KeywordHits`).
    @inline(__always) func bit(_ i: Int) -> Bool { self[i >> 6] & (1 << UInt64(i & 63)) != 0 }
    @inline(__always) func setBit(_ i: Int) { self[i >> 6] |= 1 << UInt64(i & 63) }
}
