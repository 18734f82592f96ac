/// Edit distances, shared by the parser (OCR slips in keywords, month names, vendor names), the
/// reconciler (misspelled item and vendor words), the line eval (character error) and the command
/// line's "did you mean". One Levenshtein for all; `@inlinable` so each caller gets it specialised
/// for its element type (bytes or characters) across the module boundary.
public enum EditDistance {
    /// Levenshtein distance (insertions, deletions, substitutions), stopping early once every
    /// path exceeds `limit`: the result is then some value above `limit`, not the exact distance.
    /// With `transpositions`, a swap of two neighbours counts as one edit too (optimal string
    /// alignment: "--jbos" is one away from "--jobs"), as typing slips are.
    @inlinable
    public static func levenshtein<C: Collection>(_ a: C, _ b: C, limit: Int = .max, transpositions: Bool = false) -> Int where C.Element: Equatable {
        let a = Array(a), b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)  // the row before `prev`, for transpositions
        var prev = Array(0...b.count)
        var cur = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            cur[0] = i
            var rowMin = cur[0]
            let ai = a[i - 1]
            for j in 1...b.count {
                cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ai == b[j - 1] ? 0 : 1))
                if transpositions, i > 1, j > 1, ai == b[j - 2], a[i - 2] == b[j - 1] { cur[j] = min(cur[j], before[j - 2] + 1) }
                rowMin = min(rowMin, cur[j])
            }
            if rowMin > limit { return rowMin }
            (before, prev, cur) = (prev, cur, before)
        }
        return prev[b.count]
    }

    /// At most one insertion, deletion or substitution apart: `levenshtein(a, b) <= 1`, without the table
    /// (the parser asks this for every word of every line against every keyword, as bytes; month names
    /// with a letter outside ASCII as characters; arrays, or the words of a line read in place as buffers).
    @inlinable
    public static func withinOne<C: RandomAccessCollection>(_ a: C, _ b: C) -> Bool where C.Element: Equatable, C.Index == Int {
        if a.count < b.count { return withinOne(b, a) }
        guard a.count - b.count <= 1 else { return false }
        let a0 = a.startIndex, b0 = b.startIndex
        var i = 0
        while i < b.count, a[a0 + i] == b[b0 + i] { i += 1 }
        if i == b.count { return true }
        // Equal lengths: the rest after the one difference the same; one longer: the rest of `a` after its element
        // `i` is `b`'s from `i` on.
        let d = a.count - b.count
        var j = i + 1
        while j < a.count {
            if a[a0 + j] != b[b0 + j - d] { return false }
            j += 1
        }
        return true
    }
}
