import Testing
import ReceiptSupport

@Suite("Edit distance")
struct EditDistanceTests {
    @Test func levenshtein() {
        #expect(EditDistance.levenshtein("kitten", "sitting") == 3)
        #expect(EditDistance.levenshtein("", "abc") == 3)
        #expect(EditDistance.levenshtein(Array("total".utf8), Array("totai".utf8)) == 1)
        // Past the limit the answer only says "more than the limit".
        #expect(EditDistance.levenshtein("september", "december", limit: 1) > 1)
        #expect(EditDistance.levenshtein("septembr", "september", limit: 1) == 1)
    }

    @Test func transpositionsCountOnceWhenAsked() {
        #expect(EditDistance.levenshtein("--jbos", "--jobs") == 2)
        #expect(EditDistance.levenshtein("--jbos", "--jobs", transpositions: true) == 1)
        #expect(EditDistance.levenshtein("ab", "ba", transpositions: true) == 1)
        #expect(EditDistance.levenshtein("kitten", "sitting", transpositions: true) == 3)
        #expect(EditDistance.levenshtein("abcdef", "badcfe", transpositions: true) == 3)
    }

    @Test func withinOne() {
        #expect(EditDistance.withinOne(Array("total".utf8), Array("t0tal".utf8)))
        #expect(EditDistance.withinOne(Array("total".utf8), Array("totals".utf8)))
        #expect(!EditDistance.withinOne(Array("total".utf8), Array("tot".utf8)))
        #expect(!EditDistance.withinOne(Array("change".utf8), Array("charge s".utf8)))
    }
}
