import Foundation

/// Members (numbers) grouped by a 64-bit hash, in an open-addressed table: a look-up is a few loads, not a
/// dictionary's hashing.
struct HashGroups: Sendable {
    /// 0 (empty) or g + 1 for group g, whose hash is `hashes[g]` and members `members[starts[g]..<starts[g + 1]]`.
    let table: [Int]
    let mask: Int
    let hashes: [UInt64]
    let members: [Int]
    let starts: [Int]

    /// The groups of `entries`' members by their hashes, each member once a group, in the order first met.
    init(_ entries: [(UInt64, Int)]) {
        var groups: [UInt64: [Int]] = [:], order: [UInt64] = []
        for (h, m) in entries {
            if groups[h] == nil { order.append(h) }
            if !groups[h, default: []].contains(m) { groups[h, default: []].append(m) }
        }
        hashes = order
        members = order.flatMap { groups[$0]! }
        starts = order.reduce(into: [0]) { $0.append($0.last! + groups[$1]!.count) }
        var n = 16
        while n < 2 * order.count { n *= 2 }
        var table = [Int](repeating: 0, count: n)
        for (g, h) in order.enumerated() {
            var p = Int(truncatingIfNeeded: h) & (n - 1)
            while table[p] != 0 { p = (p + 1) & (n - 1) }
            table[p] = g + 1
        }
        self.table = table
        mask = n - 1
    }

    /// `body` with each member of the group of `h`, if there is one.
    @inline(__always) func forEach(_ h: UInt64, _ body: (Int) -> Void) {
        var p = Int(truncatingIfNeeded: h) & mask
        while table[p] != 0 {
            let g = table[p] - 1
            if hashes[g] == h {
                for m in starts[g]..<starts[g + 1] { body(members[m]) }
                return
            }
            p = (p + 1) & mask
        }
    }
}

/// Words looked up by hashes of their bytes, not compared one by one (a speed trick for lists asked of every word of
/// every line): `forEachEqual` gives the words whose `hash` is a word's (the same bytes, but for a collision), and
/// `forEachNear` those that may be one edit from it: a word one edit from another is, less one byte or none, the other
/// less one byte or none, so one of the hashes of the one and of it less each of its bytes is one of the other's. The
/// caller compares the words they give with its own test (`WordLine.oneSlip`, `EditDistance.withinOne`).
struct NearWords: Sendable {
    /// The words, in the order given; the numbers `forEachEqual` and `forEachNear` give are places in it.
    let words: [[UInt8]]
    private let whole: HashGroups
    private let deletions: HashGroups
    let shortest: Int
    let longest: Int
    /// `hashBase` to the powers 0 up to the longest word (`forEachDeletion`).
    private let powers: [UInt64]

    init(_ words: [[UInt8]]) {
        self.words = words
        shortest = words.map(\.count).min() ?? 0
        longest = words.map(\.count).max() ?? -2
        let powers = (0...max(0, longest)).reduce(into: [UInt64]()) { p, _ in p.append(p.last.map { $0 &* Self.hashBase } ?? 1) }
        self.powers = powers
        var whole: [(UInt64, Int)] = [], deletions: [(UInt64, Int)] = []
        for (u, w) in words.enumerated() {
            w.withUnsafeBufferPointer { w in
                whole.append((Self.hash(w), u))
                powers.withUnsafeBufferPointer { Self.forEachDeletion(w, $0) { deletions.append(($0, u)) } }
            }
        }
        self.whole = HashGroups(whole)
        self.deletions = HashGroups(deletions)
    }

    /// `body` with each word whose hash is `w`'s.
    @inline(__always) func forEachEqual(_ w: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        guard w.count >= shortest, w.count <= longest else { return }
        whole.forEach(Self.hash(w), body)
    }

    /// `body` with each word that may be one edit from `w` (each once for each hash they share).
    @inline(__always) func forEachNear(_ w: UnsafeBufferPointer<UInt8>, _ body: (Int) -> Void) {
        guard w.count >= shortest - 1, w.count <= longest + 1 else { return }
        powers.withUnsafeBufferPointer { powers in Self.forEachDeletion(w, powers) { deletions.forEach($0, body) } }
    }

    /// A word's hash: the polynomial of its bytes (each plus one) in `hashBase`, modulo 2^64. A polynomial, so that
    /// the hash of the word less any one byte comes from the whole's and a prefix's in a step (`forEachDeletion`).
    @inline(__always) static func hash(_ w: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var h: UInt64 = 0
        for b in w { h = h &* hashBase &+ UInt64(b) &+ 1 }
        return h
    }
    static let hashBase: UInt64 = 0x100000001b3

    /// `body` with the hash of `w` and of `w` less each of its bytes in turn (`w` no longer than the longest word and
    /// one byte). Less byte i: the whole's hash, less the prefix up to i + 1 and plus the prefix up to i, each times
    /// `hashBase` to the power of the bytes after i.
    @inline(__always) private static func forEachDeletion(_ w: UnsafeBufferPointer<UInt8>, _ powers: UnsafeBufferPointer<UInt64>,
                                                          _ body: (UInt64) -> Void) {
        let whole = hash(w)
        body(whole)
        var prefix: UInt64 = 0
        for i in 0..<w.count {
            let next = prefix &* hashBase &+ UInt64(w[i]) &+ 1
            body(whole &+ (prefix &- next) &* powers[w.count - 1 - i])
            prefix = next
        }
    }
}
