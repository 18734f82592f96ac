import Foundation
import Testing
import ReceiptModel
import ReceiptEval
@testable import ReceiptParser

/// Text in, fields out: the parser's rules on small invented receipts.
@Suite("Parser rules")
struct ParserRulesTests {
    let parser = ReceiptParser()
    func amount(_ s: String) -> Amount { Amount(s)! }
    func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

    // MARK: amounts

    @Test(arguments: [
        ("TOTAL 12.50", "12.50"), ("TOTAL 12,50", "12.50"), ("TOTAL 1,234.50", "1234.50"), ("SUMME 1.234,50", "1234.50"),
        ("TOTAL 1O.5O", "10.50"), ("TOTAL 1S.20", "15.20"), ("TOTAL 63. 70", "63.70"), ("TOTAL RM12.50", "12.50"),
        ("TOTAL $ 7.99", "7.99"), ("TOTAL l2.00", "12.00"),
    ])
    func amountsWithRepairs(_ line: String, _ expected: String) {
        #expect(parser.parse(text: "SHOP\n\(line)").total?.value == amount(expected))
    }

    @Test func repairedAmountsSaySo() {
        let f = AmountScanner.scan("TOTAL 1O.5O")
        #expect(f.first?.amount == amount("10.50"))
        #expect(f.first?.repairs.isEmpty == false)
    }

    /// "$43 70": a space read for the decimal point after a currency sign is the amount (a repair,
    /// scored below a clean reading); without the sign, or with more digits or a percent after it, it is not.
    @Test func aSpaceForTheDecimalPointAfterACurrencySign() {
        #expect(parser.parse(text: "DINER\nTOTAL $88 19 7\nTHANK YOU").total?.value == amount("88.19"))
        #expect(parser.parse(text: "PUB\nTotal £12 50").total?.value == amount("12.50"))
        let f = AmountScanner.scan("Subtotal $43 70")
        #expect(f.map(\.amount) == [amount("43.70")] && f.first?.repairs == [.spaceForDecimalPoint])
        #expect(AmountScanner.scan("QTY 2 50").isEmpty, "no currency sign: a quantity and a number")
        #expect(AmountScanner.scan("SAVE $5 10%").isEmpty && AmountScanner.scan("$12 345").isEmpty && AmountScanner.scan("$12 34.50").map(\.amount) == [amount("34.50")])
        // A clean amount on the line wins over the repaired one.
        #expect(parser.parse(text: "CAFE\nTOTAL $9 99\nTOTAL $9.99").total?.evidence.notes.contains(.spaceForDecimalPoint) == false)
    }

    /// ".54", "RM .00", "$.99": an amount under one printed without its leading zero is read; a point after a
    /// letter, a digit or a digit and a space is not such an amount.
    @Test func anAmountWithoutItsLeadingZero() {
        #expect(AmountScanner.scan("TAX 7.75% .53").filter { !$0.isPercent }.map(\.amount) == [amount("0.53")])
        #expect(AmountScanner.scan("CHANGE RM .00").map(\.amount) == [amount("0.00")])
        #expect(AmountScanner.scan("Coupon $.99").map(\.amount) == [amount("0.99")])
        #expect(AmountScanner.scan(".50 OFF").map(\.amount) == [amount("0.50")])
        #expect(AmountScanner.scan("SUBTOTAL 284570 .00").map(\.amount) == [amount("284570.00")])
        #expect(AmountScanner.scan("No.12").isEmpty && AmountScanner.scan("Ref .123").isEmpty && AmountScanner.scan("v1 .5.10").isEmpty)
        #expect(AmountScanner.scan("-.02").map(\.amount) == [amount("0.02")] && AmountScanner.scan("-.02").first?.negative == true)
        // The arithmetic then holds: the change of nothing makes cash the total; a tax under one adds up.
        let cafe = parser.parse(text: "KEDAI KOPI MAJU\nTOTAL SALES RM 7.50\nCASH RM 7.50\nCHANGE RM .00")
        #expect(cafe.total?.value == amount("7.50"))
        #expect(cafe.total?.evidence.notes.contains(.sum(.cashChange(cash: amount("7.50"), change: amount("0.00")), equals: amount("7.50"))) == true)
        let burger = parser.parse(text: "BURGER BARN\nCheeseburger 6.80\nTAX 7.75% .53\nAmount Due $7.33")
        #expect(burger.tax?.value == amount("0.53") && burger.subtotal?.value == amount("6.80"))
    }

    // MARK: total and distractors

    @Test(arguments: [
        "SUBTOTAL 20.00\nTAX 1.60\nTOTAL 21.60\nCASH 50.00\nCHANGE 28.40",
        "TOTAL QTY 3.00\nTOTAL 21.60\nCASH 30.00\nCHANGE 8.40",
        "TOTAL 21.60\nTOTAL SAVINGS 4.00\nROUNDING 0.00",
        "ITEM A 10.00\nITEM B 11.60\nTOTAL 21.60\nVISA 21.60",
    ])
    func distractorsDoNotWin(_ body: String) {
        #expect(parser.parse(text: "CORNER SHOP\n\(body)").total?.value == amount("21.60"))
    }

    @Test func arithmeticPicksBetweenCandidates() {
        // Two "total" lines; only one equals subtotal + tax.
        let r = parser.parse(text: "SHOP\nSUBTOTAL 40.00\nTAX 3.20\nTOTAL 40.00\nTOTAL 43.20")
        #expect(r.total?.value == amount("43.20"))
        #expect(r.checks.contains(.sum(.subtotalTax(subtotal: amount("40.00"), tax: amount("3.20")), equals: amount("43.20"))))
    }

    @Test func cashMinusChangeConfirms() {
        let r = parser.parse(text: "SHOP\nTOTAL 18.40\nAMOUNT 20.00\nCASH 20.00\nCHANGE 1.60")
        #expect(r.total?.value == amount("18.40"))
    }

    /// A total misread by one digit OCR often confuses (6 for 5) is put right by one sum that says otherwise;
    /// a total one of the sums agrees with is left alone.
    @Test func oneSumRepairsAMisreadDigit() {
        let r = parser.parse(text: "SHOP\nTotal Amt incl. GST : 189.00\nPaid Amount 200.00\nChange : 41.00")
        #expect(r.total?.value == amount("159.00"))
        #expect(r.total?.evidence.notes.contains(.digitRepaired(read: amount("189.00"), sum: .cashChange(cash: amount("200.00"), change: amount("41.00")),
                                                            equals: amount("159.00"), swap: DigitSwap(from: "8", to: "5"))) == true)
        #expect(r.checks.contains(.sumAfterDigitRepair(.cashChange(cash: amount("200.00"), change: amount("41.00")), equals: amount("159.00"))))
        let right = parser.parse(text: "SHOP\nSUBTOTAL 74.10\nNET TOTAL 74.10\nGST @0% 0.05")
        #expect(right.total?.value == amount("74.10"))
    }

    /// "Serv. Charge" is one letter from "change", and "Amount to be paid" says "paid": neither is the change or the cash.
    @Test func chargeIsNotChangeAndToBePaidIsNotCash() {
        let r = parser.parse(text: "SHOP\nSUBTOTAL 36.20\nServ. Charge (10%): 3.62\nTOTAL 39.82\nAmount to be paid : 39.82\nCASH : 50.00\nCHANGE : 10.18")
        #expect(r.total?.value == amount("39.82"))
        #expect(r.checks.contains(.sum(.cashChange(cash: amount("50.00"), change: amount("10.18")), equals: amount("39.82"))))
    }

    /// "GST @6% included in total RM 1.20" names the tax the total holds: its amount is the tax, and the
    /// total line above it, misread, still beats it ("Total RM INCLUDING GST" keeps its total).
    @Test func taxIncludedInTotalIsNotTheTotal() {
        let r = parser.parse(text: "HARDWARE SHOP\nTotal Incl. GST@6% RM 21.00\nCASH RM 50.00\nCHANGE RM 28.80\nGST @6% included in total RM 1.20")
        #expect(r.total?.value != amount("1.20"))
        #expect(r.tax?.value == amount("1.20"))
        #expect(parser.parse(text: "SHOP\nTOTAL RM INCLUDING GST 6% 12.72").total?.value == amount("12.72"))
    }

    /// "Total Taxes 3.04" is the tax, as "Total Tax" is.
    @Test func totalTaxesIsTheTax() {
        let r = parser.parse(text: "DINER\nSubtotal 38.00\nTotal Taxes 3.04\nTOTAL 41.04")
        #expect(r.total?.value == amount("41.04"))
        #expect(r.tax?.value == amount("3.04"))
        #expect(parser.parse(text: "DINER\nPASTA 38.00\nTotal Taxes 3.04\nCHARGED 41.04").total?.value != amount("3.04"))
    }

    /// A keyword one OCR slip away matches ("TOTAI"); the keyword with a letter added is another word:
    /// "SUMMER ALE" is no German "Summe", and the beer is no total.
    @Test func aKeywordWithALetterAddedIsAnotherWord() {
        let r = parser.parse(text: "BREWPUB\n1 0417 SUMMER ALE $3.00\n1 STOUT $6.50\nBalance $9.50")
        #expect(r.total?.value == amount("9.50"))
        #expect(parser.parse(text: "SHOP\nTOTAI 12.00").total?.value == amount("12.00"))
    }

    /// "Item Total" sums the items before tax and tip, as a subtotal does; "VAT Total" is the tax's.
    @Test func itemTotalIsASubtotal() {
        let r = parser.parse(text: "HOTEL BAR\nItem Total: 840.00\nService 84.00\nTotal Due 924.00\nVAT Total 0.00")
        #expect(r.total?.value == amount("924.00"))
        #expect(r.subtotal?.value == amount("840.00"))
        #expect(parser.parse(text: "CAFE\nLatte 4.20\nVAT Total 0.70").total?.value != amount("0.70"))
    }

    /// "Total Paid RM10.00" is what was handed over, and "(Total Included GST @ 6% : 0.30)" the tax the total holds.
    @Test func totalPaidIsTenderedAndTotalIncludedIsTheTax() {
        let r = parser.parse(text: "BAKERY\nBUN 8.60\nTotal (Incl GST) RM8.60\nTotal Paid RM10.00\nChange RM1.40")
        #expect(r.total?.value == amount("8.60"))
        let s = parser.parse(text: "BAKERY\nMUFFIN 5.30\nPay 10.00\n(Total Included GST @ 6% : 0.30)")
        #expect(s.total?.value != amount("0.30"))
        #expect(s.tax?.value == amount("0.30"))
    }

    /// "Grand TotalRM22.50": the currency word run into the keyword and the amount; both are read. A word that
    /// only ends in the letters of one ("ChickenTikkaM410", "SeaweedSnacks150g") is left as printed.
    @Test func aCurrencyWordGluedBetweenKeywordAndAmount() {
        let r = parser.parse(text: "BAKERY\nTotal (Incl GST) RM22.48\nRounding RM0.02\nGrand TotalRM22.50\nTotal Paid RM30.00\nChange RM7.50")
        #expect(r.total?.value == amount("22.50"))
        let items = parser.parse(text: "CURRY HOUSE\n1 ChickenTikkaM410 24.90\nSeaweedSnacks150g 2.35\nTOTAL 27.25").lineItems
        #expect(items.map(\.description) == ["ChickenTikkaM410", "SeaweedSnacks150g"])
    }

    /// A total printed alike on two total lines is not "repaired" to a sum one digit away: the sum's inputs
    /// (here the change, 14.00 read as 15.00) are the likelier misreads.
    @Test func aTotalPrintedTwiceIsNotRepaired() {
        let r = parser.parse(text: "SHOP\nTotal : 6.00\nRounding Adjustment 0.00\nRounded Total (RM): 6.00\nCash 20.00\nChange 15.00")
        #expect(r.total?.value == amount("6.00"))
        // Printed once, the same sum still repairs it.
        #expect(parser.parse(text: "SHOP\nTotal : 6.00\nCash 20.00\nChange 15.00").total?.value == amount("5.00"))
    }

    /// "-.02" is a rounding of two cents; a "Rounding" line holding a total-sized amount is the rounded total.
    @Test func roundingLineWithTheRoundedTotal() {
        let r = parser.parse(text: "SHOP\nTotal Sales (Inclusive GST) RM 158.47\nRounding Adjustment RM -.02\nRounding RM 158.45")
        #expect(r.total?.value == amount("158.45"))
    }

    /// A total line misread so its label no longer says "excluding": the larger total below it, past a tax line, wins.
    /// A distractor of several words read through an OCR slip takes its line away as printed would ("Total Savlngs",
    /// "Total Itemis"); a word that differs in its last letter is another word ("TOTAL INCLUDES GST" is no "total included").
    @Test func slippedDistractorsTakeTheirLine() {
        #expect(parser.parse(text: "SHOP\nCOFFEE 8.00\nTOTAL 8.00\nTotal Savlngs 12.00").total?.value == amount("8.00"))
        #expect(parser.parse(text: "SHOP\nCOFFEE 8.00\nTOTAL 8.00\nTotal Itemis 12.00").total?.value == amount("8.00"))
        // A slip that drops a byte the line has nowhere else ("b" for "d"): the total word below misread too, what
        // was paid less the change is the total.
        let excl = parser.parse(text: "SHOP\nRICE 50.00\nTotal Sales (Exclubing GST) 50.00\nGST 6% 3.00\nTqxal Sales 53.00\nCASH 60.00\nCHANGE 7.00")
        #expect(excl.total?.value == amount("53.00"))
        let includes = parser.parse(text: "SHOP\nNASI 9.00\nTOTAL INCLUDES GST 6% 9.00\nCASH 10.00\nCHANGE 1.00").total
        #expect(includes?.evidence.rule == "total.keyword")
    }

    /// Every total line below the subtotal: the total line was misread and the subtotal stands in for it; but not when
    /// the subtotal is more than the cash handed over, nor over a total a little below it (a discount not read).
    @Test func subtotalStandsInForAMisreadTotal() throws {
        let misread = try #require(parser.parse(text: "CAFE\nLATTE 22.40\nCAKE 20.00\nSUB TOTAL 42.40\nTOTAL 4.40\nTHANK YOU").total)
        #expect(misread.value == amount("42.40"))
        #expect(misread.evidence.rule == "total.subtotal")
        let paid = parser.parse(text: "DELI\nSANDWICH 17.83\nSUBTOTAL 917.83\nTOTAL $17.83\nCASH 20.05")
        #expect(paid.total?.value == amount("17.83"))
        let coupon = parser.parse(text: "DINER\nPANCAKES 16.25\nEGGS 12.00\nSubTotal: 28.25\nTotal: 27.02\nVISA 27.02")
        #expect(coupon.total?.value == amount("27.02"))
    }

    @Test func totalBeforeTaxLosesToTheOneBelow() {
        let r = parser.parse(text: "SHOP\nTotal Sales (Ex: ig GST) 50.00\nTotal GST 3.00\nTotal Sales (Inclusive of GST) : 53.00")
        #expect(r.total?.value == amount("53.00"))
    }

    /// Two totals with the rounding line between them: the lower one was paid, even when the first is misread.
    @Test func totalBelowTheRoundingLineWins() {
        let r = parser.parse(text: "SHOP\nDine-In Total (incl GST) 36,37\nRounding Adjust 0.03\nTotal Rounded 31.40\nCash Tendered 50.00")
        #expect(r.total?.value == amount("31.40"))
    }

    /// A misread total the rest of the receipt rules out: below the subtotal, with no discount.
    @Test func totalBelowTheSubtotalLoses() {
        let r = parser.parse(text: "SHOP\nSub-Total 3 60.60\nGrand Total : 33.00\nChange Due : 17.00")
        #expect(r.total?.value == amount("60.60"))
        #expect(parser.parse(text: "SHOP\nSub-Total 60.60\nDiscount 27.60\nGrand Total : 33.00").total?.value == amount("33.00"))
    }

    /// No clean total line, paid an odd sum with no change: that sum is the total. A banknote says nothing.
    /// A photo that lost its total line: a sales tax added at the till makes subtotal + tax the total. A VAT or GST
    /// is in the prices already, so there the sum is not made.
    @Test func subtotalPlusSalesTaxWhenTheTotalLineIsLost() {
        let us = parser.parse(text: "CEDAR DELI\n2 SANDWICH 36.80\nBAGEL 4.40\nSUB TOTAL: 41.20\nSALES TAX (8.875%): 3.66\nVISA XXXX1234")
        #expect(us.total?.value == Amount("44.86"))
        #expect(us.total?.evidence.notes.contains(.computedSubtotalPlusTax) == true)
        let vat = parser.parse(text: "CEDAR DELI\nSANDWICH 36.80\nSUBTOTAL 41.20\nVAT 20% 6.87\nCARD")
        #expect(vat.total?.value != Amount("48.07"))
    }

    @Test func balanceDueAbbreviated() {
        #expect(parser.parse(text: "SHOP\nSUBTOTAL 37.00\n12 BAL DUE 37.00\nCASH 40.00\nCHANGE 3.00").total?.evidence.rule == "total.keyword")
    }

    @Test func exactPaymentStandsInForAnUnreadTotal() {
        #expect(parser.parse(text: "SHOP\nTotal Item Discount: 6.00\nTotal Sales Inclusive GST : = azo\nCash Received : 4.70").total?.value == amount("4.70"))
        #expect(parser.parse(text: "SHOP\nTOTAL 17.60\nCASH 80.00").total?.value == amount("17.60"))
    }

    @Test func roundingGivesThePaidAmount() {
        let r = parser.parse(text: "SHOP\nTOTAL (INCL TAX): 31.47\nROUNDING ADJ: -0.02\nTOTAL: 31.45\nCASH 50.00\nCHANGE 18.55")
        #expect(r.total?.value == amount("31.45"))
    }

    @Test func columnSplitLabelsAndValues() {
        // Text read column by column: the labels, then their values in the same order.
        let text = "SHOP\nSUB TOTAL\nTAX\nTOTAL\nCASH\nCHANGE\n9.43\n0.57\n10.00\n20.00\n10.00"
        let r = parser.parse(text: text)
        #expect(r.total?.value == amount("10.00"))
        #expect(r.subtotal?.value == amount("9.43"))
    }

    @Test func valueOnTheNextLinePastFiller() {
        let r = parser.parse(text: "SHOP\nTOTAL\nRM\n12.90\nCASH\nRM\n20.00")
        #expect(r.total?.value == amount("12.90"))
    }

    /// "TOTAL 0% SUPPLIES" is a row of the tax breakdown, not the total.
    @Test func suppliesByTaxRateAreNotTheTotal() {
        let r = parser.parse(text: "SHOP\nTOTAL 6% SUPPLIES (INC. GST): 9.54\nTOTAL 0% SUPPLIES: 5.27\nTOTAL PAYABLE: 14.81")
        #expect(r.total?.value == amount("14.81"))
        let late = parser.parse(text: "SHOP\nTOTAL PAYABLE: 14.81\nTOTAL 6% SUPPLIES (INC. GST): 9.54\nTOTAL 0% SUPPLIES: 5.27")
        #expect(late.total?.value == amount("14.81"))
    }

    @Test func taxTableTotalsAreNotTheTotal() {
        let r = parser.parse(text: "SHOP\nTOTAL SALES : 21.20\nCASH 21.20\nGST SUMMARY\nTOTAL : 20.00 1.20")
        #expect(r.total?.value == amount("21.20"))
    }

    // MARK: dates

    @Test(arguments: [
        ("DATE: 25/12/2018", 2018, 12, 25), ("25.12.2018", 2018, 12, 25), ("2018-12-25 10:11", 2018, 12, 25),
        ("25 DEC 2018", 2018, 12, 25), ("Dec 25, 2018", 2018, 12, 25), ("25-Dec-18", 2018, 12, 25),
        ("DATE 25/12/18 14:02", 2018, 12, 25), ("12. März 2019", 2019, 3, 12), ("20181225", 2018, 12, 25),
    ])
    func dateLayouts(_ line: String, _ y: Int, _ m: Int, _ d: Int) {
        #expect(parser.parse(text: "SHOP\n\(line)\nTOTAL 1.00").date?.value == day(y, m, d))
    }

    /// "Feb 2018 1:52" is February 2018 with the day lost, not 1 February '18; "Q1-Oct-2018" is 1 October.
    @Test func monthNameDatesReadAsPrinted() {
        #expect(parser.parse(text: "SHOP\nDate : Feb 2018 1:52pm\nTOTAL 1.00").date == nil)
        #expect(parser.parse(text: "SHOP\nQ1-Oct-2018_10:31:15AM\nTOTAL 1.00").date?.value == day(2018, 10, 1))
        #expect(parser.parse(text: "SHOP\nFeb 21 2018\nTOTAL 1.00").date?.value == day(2018, 2, 21))
        // US tills: the year after an apostrophe, straight or typographic, with or without a space.
        #expect(parser.parse(text: "SHOP\nJun18'16 08:46PM\nTOTAL 1.00").date?.value == day(2016, 6, 18))
        #expect(parser.parse(text: "SHOP\nAug05’ 14 03:45PM\nTOTAL 1.00").date?.value == day(2014, 8, 5))
        #expect(parser.parse(text: "SHOP\nNov.11'16(Fri)\nTOTAL 1.00").date?.value == day(2016, 11, 11))
    }

    @Test func eightDigitsRunTogetherAfterTheWordDate() {
        #expect(parser.parse(text: "SHOP\nDate : 08122018\nTOTAL 1.00").date?.value == day(2018, 12, 8))
        #expect(parser.parse(text: "SHOP\nTarikh:25032019\nTOTAL 1.00").date?.value == day(2019, 3, 25))
        // Without the word (or a time after them) eight digits are a number, not a date.
        #expect(parser.parse(text: "SHOP\nRef 08122018\nTOTAL 1.00").date == nil)
    }

    @Test func dayMonthOrderFromAnotherDate() {
        // 03/04 is ambiguous; 04/25 on the same receipt can only be month-first.
        let r = parser.parse(text: "SHOP\nDATE 03/04/2019\nRETURN BY 04/25/2019\nTOTAL $5.00")
        #expect(r.date?.value == day(2019, 3, 4))
        #expect(r.date?.evidence.notes.contains(.dateOrder(.monthFirst, .onlyReading("04/25/2019"))) == true)
    }

    /// Of several dates that each say the order, the first read names it: the reason an order is given is the first
    /// evidence for it, for either order.
    @Test func theFirstDateThatSaysTheOrderIsTheReason() {
        let us = parser.parse(text: "SHOP\nDATE 03/04/2019\nRETURN BY 04/25/2019\nEXCHANGE BY 05/30/2019\nTOTAL $5.00")
        #expect(us.date?.evidence.notes.contains(.dateOrder(.monthFirst, .onlyReading("04/25/2019"))) == true)
        let my = parser.parse(text: "SHOP\nDATE 03/04/2019\nDUE 25/04/2019\nEXPIRES 30/05/2019\nTOTAL RM5.00")
        #expect(my.date?.evidence.notes.contains(.dateOrder(.dayFirst, .onlyReading("25/04/2019"))) == true)
    }

    @Test func dayMonthOrderFromCurrency() {
        #expect(parser.parse(text: "SHOP\nDATE 03/04/2019\nTOTAL $5.00\nCASH $5.00").date?.value == day(2019, 3, 4))
        #expect(parser.parse(text: "SHOP\nDATE 03/04/2019\nTOTAL RM5.00").date?.value == day(2019, 4, 3))
    }

    /// A "$" misread from an S ("Doc No. $000022185", "5.60 $" where S is the tax code) is no dollar:
    /// it must not turn 06/03/2018 month-first.
    @Test func misreadDollarSignsAreNotEvidence() {
        let r = parser.parse(text: "SHOP\nDoc No. $000022185\nDate: 06/03/2018\nTEA 2 5.60 $\nLot $319, Jalan 2\nTOTAL 5.60")
        #expect(r.currency?.value != "USD")
        #expect(r.date?.value == day(2018, 3, 6))
        #expect(parser.parse(text: "DÉPANNEUR\nDATE 03/04/2019\nTOTAL 12,50 $").currency?.value == "USD")
    }

    /// A document number holding the date as yyyymmdd tells the order of "12/03/18".
    @Test func dayMonthOrderFromADocumentNumber() {
        let r = parser.parse(text: "SHOP\nTax Invoice: KPTA3201904110366 11/04/19\nTOTAL $5.00\nCASH $5.00")
        #expect(r.date?.value == day(2019, 4, 11))
        #expect(r.date?.evidence.notes.contains(.dateOrder(.dayFirst, .documentNumber("11/04/19", day(2019, 4, 11)))) == true)
    }

    @Test func givenOrderWins() {
        var o = ParserOptions(); o.dateOrder = .monthFirst
        #expect(ReceiptParser(options: o).parse(text: "SHOP\nDATE 03/04/2019\nTOTAL 5.00").date?.value == day(2019, 3, 4))
    }

    @Test func futureAndOldDatesRejected() {
        var o = ParserOptions(); o.latestDate = day(2020, 1, 1)
        let p = ReceiptParser(options: o)
        #expect(p.parse(text: "SHOP\nDATE 05/06/2031\nTOTAL 1.00").date == nil)
        #expect(p.parse(text: "SHOP\nDATE 05/06/1987\nTOTAL 1.00").date == nil)
        o.earliestYear = 1980
        #expect(ReceiptParser(options: o).parse(text: "SHOP\nDATE 05/06/1987\nTOTAL 1.00").date?.value == day(1987, 6, 5))
    }

    @Test func timeDoesNotSplitADate() {
        #expect(parser.parse(text: "SHOP\nORD #81 -REG #27- 19/04/2019 22:13:27\nTOTAL RM1.00").date?.value == day(2019, 4, 19))
        #expect(parser.parse(text: "SHOP\n08/05/2019 - 17.21:48\nTOTAL RM1.00").date?.value == day(2019, 5, 8))
    }

    /// "14/Dun/2024": a three-letter month one letter off between slashes is that month, where only one month
    /// is that close ("Fen" is as near the Italian "gen" as "feb" and stays unread).
    @Test func aMonthOneLetterOffBetweenSlashes() {
        #expect(parser.parse(text: "SHOP\nINV 12345 14/Dun/2024 10:01\nTOTAL RM1.00").date?.value == day(2024, 6, 14))
        #expect(parser.parse(text: "SHOP\nINV 12345 14-Dun-2024\nTOTAL RM1.00").date?.value == day(2024, 6, 14))
        #expect(parser.parse(text: "SHOP\nINV 12345 14/Fen/2024\nTOTAL RM1.00").date == nil)
    }

    /// A "$" (maybe a misread mark) on a receipt that names GST is no US dollar: it does not make 06/08 June 8.
    @Test func aDollarBesideGSTSaysNothingOfTheDateOrder() {
        #expect(parser.parse(text: "SHOP\nGST ID: 000111222333\nDate: 06/08/2024\nTotal 0% supplies: $4.31\nTOTAL 4.31").date?.value == day(2024, 8, 6))
        #expect(parser.parse(text: "DINER\nDate: 06/08/2024\nTax $0.31\nTOTAL $4.31").date?.value == day(2024, 6, 8))
    }

    @Test func productCodesAreNotDates() {
        let r = parser.parse(text: "SHOP\nHC04-8-16 NOZZLE 8.00\nDATE: 12/01/2019\nTOTAL RM8.00")
        #expect(r.date?.value == day(2019, 1, 12))
    }

    // MARK: vendor

    @Test(arguments: [
        ("BLUE HERON TRADING SDN BHD (123456-X)\nNO 5, JALAN MAWAR\nTEL: 03-1234 5678", "BLUE HERON TRADING SDN BHD"),
        ("TAX INVOICE\nCOPY\nGreen Lantern Goods LLC\n12 Main Street", "Green Lantern Goods LLC"),
        ("Bäckerei Morgenrot GmbH\nHauptstraße 3\n10115 Berlin", "Bäckerei Morgenrot GmbH"),
        ("COMPANY REG NO: 99887-K\nPELANGI KEDAI S/B (99887-K)\nLOT 3", "PELANGI KEDAI S/B"),
        ("SILVER MAPLE\nSDN BHD\nJALAN 1", "SILVER MAPLE SDN BHD"),
        ("OWNED BY: ORCHID LANE SDN BHD 1207385-N\nJALAN 2", "ORCHID LANE SDN BHD"),
        ("RIVERSIDE CAMERA &\nOPTICS\nTEL 555-0101", "RIVERSIDE CAMERA & OPTICS"),
        // A rule of dashes after a name ends it.
        ("------PINE HOLLOW FUEL------------:-rm\n4 Elm Road", "PINE HOLLOW FUEL"),
    ])
    func vendorRules(_ header: String, _ expected: String) {
        #expect(parser.parse(text: "\(header)\nTOTAL 9.99").vendor?.value == expected)
    }

    /// OCR slips in a name put right, and only those: a legal form misread, a registration number after it,
    /// a digit among letters, a business word one confusable letter off. A real word one letter from a
    /// business word ("PASIR", not "PASAR"; "MOUSE" is not "HOUSE": M and H are not confused) stays.
    @Test(arguments: [
        ("WILLOW HARDHARE SON BHO (77120-P)\nJALAN 3", "WILLOW HARDWARE SDN BHD"),
        ("KINGFISHER CONFECTIUNERY SEN 3HD\nJALAN 3", "KINGFISHER CONFECTIONERY SDN BHD"),
        ("Tall Tree Realties Sdn Bhd (Co. No:31872-E)\nJALAN 3", "Tall Tree Realties Sdn Bhd"),
        ("MR. A.1.B. (M) SDN BHD\nJALAN 3", "MR. A.I.B. (M) SDN BHD"),
        ("PASIR PUTIH HARDWARE SDN BHD\nJALAN 3", "PASIR PUTIH HARDWARE SDN BHD"),
        ("BLUE MOUSE CAFE LTD\n12 Main Street", "BLUE MOUSE CAFE LTD"),
        // A business word not ASCII, one confusable letter off ("F" for "E"): a word not ASCII is compared with those.
        ("BÄCKFREI SONNENSCHEIN GMBH\nHauptstraße 3", "BÄCKEREI SONNENSCHEIN GMBH"),
        ("7-ELEVEN STORE 12\n12 Main Street", "7-ELEVEN STORE 12"),
        // A logo read as a scrap above the name: the line with a business word and a registration number below wins.
        ("TT eee\nGOLDEN LOTUS RESTAURANT\n(004827316-K)\nJALAN 3", "GOLDEN LOTUS RESTAURANT"),
        ("tie\nmain\nRIVERBANK BAKERY\nJALAN 3", "RIVERBANK BAKERY"),
        ("RESTORAN SERI PAGI oo\nJALAN 3", "RESTORAN SERI PAGI"),
        ("TAN AH KOW\nPUSAT BUKU CERIA SDN BND\n652308-V\nNO.53, JALAN SAGU 18", "PUSAT BUKU CERIA SDN BHD"),
        // A registration number on the line makes a company line of one that names a country.
        ("BEST KADEN MALAYSIA (425917-B)\nLOT LG 31, SERI PARADE\nBEST KADEN 2 PERDANA", "BEST KADEN MALAYSIA"),
        ("TQ FOR SHOPPING WITH US\nGST REGISTRATION NO : 000212823380\nHILLTOP MART\nJALAN 3", "HILLTOP MART"),
        // A name over several lines: only a business word before the form, a line starting with the form, a bracket left open.
        ("SERI BAYU VEGETARIAN\nRESTAURANT SDN BHD\n(1084623-Y)", "SERI BAYU VEGETARIAN RESTAURANT SDN BHD"),
        ("KWONG FATT HARDWARE\nENTERPRISE (TAMAN\nMEWAH) SDN BHD\n733846-X", "KWONG FATT HARDWARE ENTERPRISE (TAMAN MEWAH) SDN BHD"),
        ("Chili Grill & Bar\nT.A.S Ventures Sdn Bhd (318459-R)\nJALAN 3", "T.A.S Ventures Sdn Bhd"),
    ])
    func vendorRepairs(_ header: String, _ expected: String) {
        #expect(parser.parse(text: "\(header)\nTOTAL 9.99").vendor?.value == expected)
    }

    /// OCR reads an "&" as "8", unsurely, between words it reads surely: the name gets its "&" back. An 8 read as
    /// surely as its words is the name's ("ROUTE 8 DINER"), and so is every word of true text.
    @Test("an '&' read as '8' in a name", arguments: [
        (["Riverside", "Tyre", "8", "Battery", "Hub"], 0.6, "Riverside Tyre & Battery Hub"),
        (["ROUTE", "8", "DINER"], 0.96, "ROUTE 8 DINER"),
        (["ROUTE", "8", "DINER"], 1.0, "ROUTE 8 DINER"),
    ])
    func ampersandAsEight(_ words: [String], _ eight: Double, _ expected: String) {
        let name = OCRLine(words: words.map { OCRWord(text: $0, confidence: $0 == "8" ? eight : 0.96) })
        let page = OCRPage(lines: [name, OCRLine(text: "12 Main Street", confidence: 0.95), OCRLine(text: "TOTAL 9.99", confidence: 0.95)])
        #expect(parser.parse(page).vendor?.value == expected)
    }

    /// US, Canadian, Australian and British receipts print the city under the name; a city line is never the
    /// vendor, whatever legal form its state code looks like ("CO", "SA").
    @Test(arguments: [
        ("Birchwood Tavern\n123 Elm St\nBoulder, CO 80302", "Birchwood Tavern"),
        ("Las Cruces, NM 88001\nBLUE AGAVE CANTINA\n(575) 555-0134", "BLUE AGAVE CANTINA"),
        ("Portland OR 97201\nPAPER CRANE NOODLES", "PAPER CRANE NOODLES"),
        ("Toronto, ON M5V 2T6\nMaple Corner Bakery", "Maple Corner Bakery"),
        ("Adelaide, SA 5000\nGumtree Espresso Bar", "Gumtree Espresso Bar"),
        ("LONDON W1D 4HS\nTHE GREEN KETTLE", "THE GREEN KETTLE"),
        ("WE WANT YOUR FEEDBACK\nFOXGLOVE DINER\n1 Main St", "FOXGLOVE DINER"),
    ])
    func cityLinesAndSlogansAreNotNames(_ header: String, _ expected: String) {
        #expect(parser.parse(text: "\(header)\nTOTAL 9.99").vendor?.value == expected)
    }

    /// What OCR reads at the ends of a name from a photo's logo, edge or shadow goes: a lower-case scrap before
    /// it, a short word or symbol read at a very different height; the name's own words stay, initials included.
    @Test func scrapsAtTheEndsOfAPhotographedNameGo() {
        func word(_ t: String, _ conf: Double, _ h: Int, _ x: Int, y: Int = 40) -> OCRWord {
            OCRWord(text: t, box: BoundingBox(x: x, y: y, width: 20 * t.count, height: h), confidence: conf)
        }
        func parse(_ words: [OCRWord]) -> String? {
            let page = OCRPage(lines: [OCRLine(words: words),
                                       OCRLine(words: [word("TOTAL", 0.95, 20, 0), word("9.99", 0.95, 20, 300)])], width: 600, height: 400)
            return parser.parse(page).vendor?.value
        }
        #expect(parse([word("d", 0.69, 6, 0), word("i", 0.75, 34, 30), word("Juniper", 0.97, 36, 60), word("Grill", 0.9, 36, 220)]) == "Juniper Grill")
        #expect(parse([word("4", 0.77, 95, 0), word("EL", 0.95, 38, 40), word("FARO", 0.95, 40, 100), word("»", 0.15, 90, 200)]) == "EL FARO")
        #expect(parse([word("Heron", 0.96, 31, 0), word("Pool", 0.95, 32, 120), word("4", 0.49, 66, 220)]) == "Heron Pool")
        // A line read with under 30 % confidence is a logo's noise, not a name; the name below it is.
        let logo = OCRPage(lines: [OCRLine(words: [word("FESEREAFS", 0.12, 40, 0, y: 10), word("ESE", 0.2, 40, 200, y: 10)]),
                                   OCRLine(words: [word("Orchard", 0.93, 30, 0, y: 70), word("Lantern", 0.95, 30, 160, y: 70)]),
                                   OCRLine(words: [word("TOTAL", 0.95, 20, 0, y: 130), word("9.99", 0.95, 20, 300, y: 130)])], width: 600, height: 400)
        #expect(parser.parse(logo).vendor?.value == "Orchard Lantern")
        // Initials and a trailing legal form are the name.
        #expect(parse([word("CW", 0.45, 24, 0), word("KOH", 0.9, 25, 60), word("HARDWARE", 0.9, 25, 140), word("LTD", 0.6, 24, 340)]) == "CW KOH HARDWARE LTD")
    }

    /// A name printed with its letters apart (wide print) is read a letter a word; its letters are joined, a new word
    /// where the gap is wide, the symbols beside them dropped, and the evidence keeps the line as read. Three
    /// capitals are initials, lower-case letters apart are noise: neither is joined. Nor is such a line's "RM" a currency.
    @Test func aNamePrintedWithItsLettersApartIsJoined() {
        func letters(_ t: String, y: Int, gap: (Int) -> Int = { _ in 12 }) -> [OCRWord] {
            var x = 0
            return t.split(separator: " ").enumerated().map { k, w in
                defer { x += 20 * w.count + gap(k) }
                return OCRWord(text: String(w), box: BoundingBox(x: x, y: y, width: 20 * w.count, height: 30), confidence: 0.9)
            }
        }
        func parse(_ words: [OCRWord]) -> Field<String>? {
            let page = OCRPage(lines: [OCRLine(words: words), OCRLine(text: "12 Main Street", confidence: 0.95),
                                       OCRLine(text: "TOTAL 9.99", confidence: 0.95)], width: 600, height: 400)
            return parser.parse(page).vendor
        }
        let wide = parse(letters("S U P E RM A R K E T", y: 10))
        #expect(wide?.value == "SUPERMARKET")
        #expect(wide?.evidence.notes == [.letterSpaced("S U P E RM A R K E T")])
        // Its "RM" is no ringgit.
        let page = OCRPage(lines: [OCRLine(words: letters("S U P E RM A R K E T", y: 10)), OCRLine(text: "TOTAL 9.99", confidence: 0.95)], width: 600, height: 400)
        #expect(parser.parse(page).currency == nil)
        #expect(parser.parse(text: "RM 9.99\nTOTAL 9.99").currency?.value == "MYR")
        // "T H E   F O R G E": a wider gap between the words.
        #expect(parse(letters("T H E F O R G E", y: 10, gap: { $0 == 2 ? 60 : 12 }))?.value == "THE FORGE")
        #expect(parse([OCRWord(text: "******", confidence: 0.5)] + letters("L A N T E R N A", y: 10) + [OCRWord(text: "#***#**", confidence: 0.4)])?.value == "LANTERNA")
        // Initials with a name: as printed.
        #expect(parse(letters("A B C Hardware", y: 10))?.value == "A B C Hardware")
        // Lower-case letters apart: no name joined.
        #expect(parse(letters("x x x x x x", y: 10))?.value != "xxxxxx")
    }

    @Test func knownVendorsMatchFuzzily() {
        var o = ParserOptions()
        o.knownVendors = [KnownVendor(name: "Quiet Owl Books", aliases: ["QUIET OWL BOOKSHOP"])]
        let r = ReceiptParser(options: o).parse(text: "QUIET 0WL BOOKSHOP\n1 HIGH ST\nTOTAL 9.99")
        #expect(r.vendor?.value == "Quiet Owl Books")
        #expect(r.vendor?.evidence.rule == "vendor.known")
    }

    @Test func labelVendorFoldsDiacritics() {
        #expect(LabelValue.vendor("Bäckerei Sonnenschein GmbH") == LabelValue.vendor("BACKEREI SONNENSCHEIN GMBH"))
    }

    // MARK: rules file, evidence

    @Test func userRulesAddALanguage() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).json")
        try #"{"total": {"keywords": {"kokku": 0.95}}, "date": {"keywords": {"kuupäev": 1.0}, "months": {"mai": 5}}}"#
            .write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var o = ParserOptions()
        o.rules = try ParserRules.builtIn(extendedWith: file.path)
        let text = "POOD OÜ\nKuupäev 03.05.2021\nLEIB 2.10\nKOKKU 2.10\nSULARAHA 5.00"
        let r = ReceiptParser(options: o).parse(text: text)
        #expect(r.total?.value == amount("2.10"))
        #expect(r.total?.evidence.notes.contains(.keyword("kokku")) == true)
        #expect(r.date?.value == day(2021, 5, 3))
    }

    /// A legal form added in a rules file is one everywhere, as the built-in ones: the line is a name ending in a
    /// legal form, the registration number after it goes, and the form is not dropped as a lower-case scrap.
    @Test func aLegalFormAddedByRulesIsHonoured() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("rules-\(UUID().uuidString).json")
        try #"{"vendor": {"legal_forms": ["kft"]}}"#.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        var o = ParserOptions()
        o.rules = try ParserRules.builtIn(extendedWith: file.path)
        let text = "PEKSEG HUNGARIA Kft 12345678-2-41\nFo utca 1, Budapest\nKENYER 2.10\nOSSZESEN 2.10"
        let r = ReceiptParser(options: o).parse(text: text)
        #expect(r.vendor?.value == "PEKSEG HUNGARIA Kft")
        #expect(r.vendor?.evidence.rule == "vendor.legal-form")
        #expect(ReceiptParser().parse(text: text).vendor?.value != "PEKSEG HUNGARIA Kft")
        // The clean-up alone, with and without the form.
        #expect(CompiledRules(o.rules).vendorText.clean("ACME HUNGARY Kft") == "ACME HUNGARY Kft")
        #expect(CompiledRules(.builtIn).vendorText.clean("ACME HUNGARY Kft") == "ACME HUNGARY")
        #expect(CompiledRules(o.rules).vendorText.clean("ACME HUNGARY KFT ab 1") == "ACME HUNGARY KFT")
    }

    /// The built-in forms behave as they did when the clean-up listed them itself.
    @Test func builtInLegalFormsCleanAsBefore() {
        let v = CompiledRules(.builtIn).vendorText
        #expect(v.clean("MR K.A.Y. (M) SDN BHD 123456-D") == "MR K.A.Y. (M) SDN BHD")
        #expect(v.clean("RESTORAN TELAGA VILLAGE oo") == "RESTORAN TELAGA VILLAGE")
        #expect(v.clean("TAN TAN TRADING CO") == "TAN TAN TRADING CO")
        #expect(v.clean("BRIGHT VOLT MALAYSIA SDN BHD ab") == "BRIGHT VOLT MALAYSIA SDN BHD")
        #expect(v.clean("CO. NC.") == "CO.")
        #expect(v.clean("COMPANY NO: 47311-K") == "COMPANY NO")
        #expect(v.clean("SINAR MAJU ENTERPRISE Bhd") == "SINAR MAJU ENTERPRISE Bhd")
    }

    @Test func everyFieldCarriesEvidence() {
        let text = """
        HARBOUR LIGHT CAFE LTD
        12 QUAY ROAD
        RECEIPT NO: A-10293
        DATE: 14/02/2023 TIME: 13:45
        2 x LATTE @ 3.50 7.00
        MUFFIN 2.95
        SUBTOTAL 9.95
        VAT 1.99
        TOTAL £11.94
        VISA **** 4821 11.94
        """
        let r = parser.parse(text: text)
        #expect(r.vendor?.value == "HARBOUR LIGHT CAFE LTD")
        #expect(r.total?.value == amount("11.94"))
        #expect(r.subtotal?.value == amount("9.95"))
        #expect(r.tax?.value == amount("1.99"))
        #expect(r.currency?.value == "GBP")
        #expect(r.cardLast4?.value == "4821")
        #expect(r.paymentMethod?.value == "card")
        #expect(r.receiptNumber?.value == "A-10293")
        #expect(r.time != nil)
        #expect(r.lineItems.count == 2)
        #expect(r.lineItems.first?.quantity == 2)
        for e in [r.vendor?.evidence, r.date?.evidence, r.total?.evidence, r.subtotal?.evidence, r.tax?.evidence, r.time?.evidence,
                  r.receiptNumber?.evidence, r.cardLast4?.evidence] {
            #expect(e?.line != nil)
            #expect(e?.rule.isEmpty == false)
        }
        for f in [r.vendor?.confidence, r.date?.confidence, r.total?.confidence] { #expect((0...1).contains(f ?? -1)) }
    }
}

@Suite("Dates read through OCR slips")
struct OCRSlipDateTests {
    let parser = ReceiptParser()
    func day(_ y: Int, _ m: Int, _ d: Int) -> CalendarDate { CalendarDate(year: y, month: m, day: d)! }

    /// Till dates with the year after an apostrophe, as phone photos read them: look-alikes in the day,
    /// a month one letter off, a stray mark, a degree sign or a quote for the apostrophe.
    @Test(arguments: [
        ("Chk 5902 MayOi'19 1:24P Gst 0", 2019, 5, 1, "May01'19"),
        ("26dpr' 14 18:42", 2014, 4, 26, "26Apr'14"),
        ("Junt8'16 08:46PM", 2016, 6, 18, "Jun18'16"),
        ("Junl?8'16 08:46PM", 2016, 6, 18, "Jun18'16"),
        ("MAR3S1°14 7:12PM", 2014, 3, 31, "MAR31'14"),
        ("JULO4'15 3:51PM", 2015, 7, 4, "JUL04'15"),
        ("Dec14\"17 06:52PM", 2017, 12, 14, "Dec14'17"),
        ("————spr0t\"19 1:24P", 2019, 4, 1, "Apr01'19"),
        ("Server: Dana 03,'24/2015", 2015, 3, 24, "03/24/2015"),
        ("Date: 93/03/2019", 2019, 3, 3, "03/03/2019"),
        ("O2/11/2019 11:33", 2019, 11, 2, "02/11/2019"),
        ("Date : GS Feb 2018 1:52pm", 2018, 2, 5, "05 Feb 2018"),
        ("G1-Oct-2018 10:31", 2018, 10, 1, "01 Oct 2018"),
    ])
    func recovered(_ line: String, _ y: Int, _ m: Int, _ d: Int, _ taken: String) {
        let date = parser.parse(text: "SHOP\n\(line)\nTOTAL 1.00").date
        #expect(date?.value == day(y, m, d))
        #expect(date?.evidence.notes.contains(.dateRepaired(taken)) == true, "\(String(describing: date?.evidence.notes))")
    }

    /// A repaired date is believed less than a clean one, and loses to a clean one elsewhere on the receipt.
    @Test func repairedDatesRankBelowCleanOnes() {
        let clean = parser.parse(text: "SHOP\nJun18'16 08:46PM\nTOTAL 1.00").date
        let repaired = parser.parse(text: "SHOP\nJunt8'16 08:46PM\nTOTAL 1.00").date
        #expect(clean != nil && repaired != nil)
        #expect((repaired?.confidence ?? 1) < (clean?.confidence ?? 0))
        let both = parser.parse(text: "SHOP\nMayOi'19 1:24P\nITEM 3.00\nTOTAL 3.00\nDate 02/05/2019").date
        #expect(both?.value == day(2019, 5, 2))
    }

    /// Two kinds of separator in one date ("2/ 3-09") is OCR's making: it loses to a clean date lower down, and
    /// says why; alone it is still read.
    @Test func mixedSeparatorsRankBelowCleanDates() throws {
        let both = try #require(parser.parse(text: "DELI\nREG 2/ 3-09 7\nBREAD 2.49\nTOTAL 2.49\n01/28/09 14:21").date)
        #expect(both.value == day(2009, 1, 28))
        let garbled = try #require(both.rejected.first)
        #expect(garbled.evidence.notes.contains(.mixedSeparators))
        #expect(parser.parse(text: "DELI\nREG 2/ 3-09 7\nBREAD 2.49\nTOTAL 2.49").date?.evidence.notes.contains(.mixedSeparators) == true)
    }

    /// Look-alikes that must not become dates: amounts, table and check numbers, codes, a month alone,
    /// a garbled separator without a clean one, look-alikes without a time of day, and a month one letter
    /// off two months ("hug": "aug" or Italian "lug"), a longer month name before a year ("Sept'15").
    @Test(arguments: [
        "TAX 1O.25", "Tbl 19/2 Chk 4225", "#A-5", "Jun", "Jun 5", "TOTAL 12'50", "Qty 2 @ 1O.5O 21.OO",
        "Tel 04-8,23-2015", "Bob's 12 Pizza 12\" 16.99", "Table 5'2 Guests 4", "Sl'13 Item 4.00", "MAX5'12 3.50",
        "12,5'2014", "Ref 1l.22.2019", "4 23hug' 17 21:13", "Offer ends Sept'15", "Juli' 12", "Date : GS Feb 2018", "IS Feb 2018 Issue 3",
    ])
    func notDates(_ line: String) {
        let date = parser.parse(text: "SHOP\n\(line)\nTOTAL 1.00").date
        #expect(date == nil, "\(line) read as \(String(describing: date?.value))")
    }

    /// "#4 Nov.11'16": the 11 is the day of "Nov.11'16", not a year after "4 Nov".
    @Test func yearBeforeAnApostropheIsADay() {
        #expect(parser.parse(text: "SHOP\nKS#4 Nov.11'16(Fri) 10:12\nTOTAL 1.00").date?.value == day(2016, 11, 11))
    }

    /// Day, month and year run together are a date only before a time of day.
    @Test func compactDayMonthYearBeforeATime() {
        #expect(parser.parse(text: "SHOP\n00551020147 26042019 14:22:05 0004\nTOTAL 1.00").date?.value == day(2019, 4, 26))
        #expect(parser.parse(text: "SHOP\nREF 26042019\nTOTAL 1.00").date == nil)
    }
}
