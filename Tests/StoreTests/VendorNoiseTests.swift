import Testing
import ReceiptModel
import ReceiptParser
@testable import ReceiptReconcile

/// The reconciler's words that say nothing about which shop it is come from the parser's rules.
@Suite("Vendor noise words")
struct VendorNoiseTests {
    @Test func everyLegalFormOfTheRulesIsNoise() {
        for form in BuiltInRules.legalForms {
            for word in TextMatch.tokens(form) where word.count >= 2 {
                #expect(TextMatch.vendorNoise.contains(word), "\(form)")
            }
        }
        #expect(TextMatch.vendorTokens("Kedai Maju Sdn. Bhd.") == ["kedai", "maju"])
        #expect(TextMatch.vendorTokens("Brightwave Electronics Inc.") == ["brightwave", "electronics"])
        #expect(TextMatch.vendorTokens("BEST BUY #123") == ["best", "buy"])
    }
}
