import Foundation
import ReceiptLearning
import ReceiptModel
import ReceiptStore
import Testing

/// The shop directory's logic on text, no OCR and no store: what a page's fingerprint holds, and
/// which shop (if any) a fingerprint is taken for.
@Suite("shop fingerprints and matching")
struct ShopMatchingTests {
    static let mutiara = """
        KEDAI MAKAN MUTIARA
        (MUTIARA SELERA SDN BHD)
        CO. REG: 1187734-H
        NO. 21, JALAN MERAK 4,
        TAMAN SERI MUTIARA,
        81750 MASAI, JOHOR.
        TEL: 07-556 2391
        SST REG: W10-1807-32001456
        INVOICE
        Date : 21/11/2018
        NASI PUTIH 1.50
        TOTAL 28.85
        """

    static func fingerprint(_ text: String) -> Fingerprint { Fingerprint.of(OCRPage(text: text)) }

    static func shop(_ id: Int64, _ name: String, from text: String, receipt: Int64) -> StoredShop {
        let fp = fingerprint(text)
        return StoredShop(id: ShopID(id), name: name, keys: fp.allKeys.map { TaughtKey(key: $0, receiptID: ReceiptID(receipt)) },
                          receipts: [ReceiptID(receipt)])
    }

    @Test("a page's registration, tax and phone numbers are read by their keywords, with its address lines and header")
    func fingerprintOfAPage() {
        let fp = Self.fingerprint(Self.mutiara)
        #expect(fp.strongKeys.contains(ShopKey(.registration, "1187734H")))
        #expect(fp.strongKeys.contains(ShopKey(.phone, "075562391")))
        #expect(fp.strongKeys.contains { $0.kind == .tax && $0.value.hasSuffix("32001456") })
        #expect(fp.keys.contains(ShopKey(.address, "NO 21 JALAN MERAK 4")))
        // Amounts and dates are no keys: a total never names a shop.
        #expect(!fp.keys.contains { $0.value.contains("2885") || $0.value.contains("21112018") })
        #expect(fp.header.hasPrefix("KEDAI MAKAN MUTIARA MUTIARA SELERA SDN BHD"))
        // Strong keys come first, so evidence lists them first.
        #expect(fp.keys.prefix(3).allSatisfy { $0.kind.isStrong })
    }

    @Test("OCR look-alikes inside a number are mended (S for 5, B for 8), and a phone's misread last digit is no registration number")
    func lookAlikesInsideDigits() {
        let slipped = Self.mutiara.replacingOccurrences(of: "TEL: 07-556 2391", with: "TEL: 07-5S6 2391")
            .replacingOccurrences(of: "CO. REG: 1187734-H", with: "CO. REG: 11B7734-H")
        let fp = Self.fingerprint(slipped)
        #expect(fp.strongKeys.contains(ShopKey(.phone, "075562391")))
        #expect(fp.strongKeys.contains(ShopKey(.registration, "1187734H")))
        let lastDigit = Self.fingerprint("SHOP\nTEL: 07-556 239l")
        #expect(!lastDigit.strongKeys.contains { $0.kind == .registration }, "\(lastDigit.strongKeys)")
        #expect(Self.fingerprint("SHOP\nTEL: 07-556 2391 (684215-T)").strongKeys.contains(ShopKey(.registration, "684215T")))
    }

    @Test("header likeness: one OCR slip leaves two headers alike; another shop's header is far")
    func headerLikeness() {
        let a = Trigrams("KEDAI MAKAN MUTIARA MUTIARA SELERA SDN BHD CO REG 1187734 H")
        let slipped = Trigrams("KEDAI MAKAN MUTlARA MUTIARA SELERA SDN BHO CO REG 1187734 H")
        let other = Trigrams("RESTORAN NASI KANDAR SRI PULAU CO REG PG0223456 T")
        #expect(a.likeness(a) == 1)
        #expect(a.likeness(slipped) >= ShopDirectory.headerThreshold)
        #expect(a.likeness(other) < 0.3)
        #expect(a.likeness(slipped) == slipped.likeness(a))
    }

    @Test("a receipt sharing a strong key is taken for the shop, with the key and the teaching receipt in the evidence")
    func strongKeyMatches() throws {
        let dir = ShopDirectory([Self.shop(1, "Mutiara Selera Sdn Bhd", from: Self.mutiara, receipt: 12)])
        // Another visit: another header line order, the phone alone in common with the registration.
        let visit = "KEDAI MAKAN MUTIARA\nTEL: 07-556 2391\nCO. REG: 1187734-H\nCASH BILL\nTOTAL 9.00"
        let m = try #require(dir.match(Self.fingerprint(visit)))
        #expect(m.name == "Mutiara Selera Sdn Bhd" && m.strong)
        #expect(m.confidence == ShopDirectory.strongConfidence)
        #expect(m.note.description.contains("registration number 1187734H"))
        #expect(m.note.description.hasSuffix("your correction of #12"))
    }

    @Test("another registration number is another shop, however alike the header (a chain's two companies)")
    func registrationConflictStaysApart() {
        let dir = ShopDirectory([Self.shop(1, "Mutiara Selera Sdn Bhd", from: Self.mutiara, receipt: 12)])
        let branch = Self.mutiara.replacingOccurrences(of: "1187734-H", with: "2290015-K")
            .replacingOccurrences(of: "TEL: 07-556 2391", with: "TEL: 07-331 0042")
            .replacingOccurrences(of: "SST REG: W10-1807-32001456", with: "")
        #expect(dir.match(Self.fingerprint(branch)) == nil)
        #expect(dir.compare(Self.fingerprint(branch)).first?.conflict == true)
    }

    @Test("on the header alone: taken above the threshold, not below it, and not when two shops are as alike")
    func headerAloneMatches() throws {
        let plain = "KEDAI KOPI SEMANGAT\nSEMANGAT KOPI SDN BHD\n15, JALAN DATO ONN,\n80000 JOHOR BAHRU\nCASH BILL"
        let dir = ShopDirectory([Self.shop(3, "Semangat Kopi Sdn Bhd", from: plain, receipt: 4)])
        let slipped = "KEDAI KOPI SEMANGAT\nSEMANGAT KOPl SDN BHD\n15, JALAN DAT0 ONN,\n80000 JOHOR BAHRU\nCASH BILL"
        let m = try #require(dir.match(Self.fingerprint(slipped)))
        #expect(!m.strong && m.name == "Semangat Kopi Sdn Bhd")
        #expect(m.confidence >= ShopDirectory.headerConfidence && m.confidence < ShopDirectory.strongConfidence)
        #expect(m.note.description.contains("alike"))
        let stranger = "KEDAI BUKU HALAMAN\nHALAMAN ILMU SDN BHD\nLOT 2-15, PLAZA SETIA,\n40170 SHAH ALAM\nTAX INVOICE"
        #expect(dir.match(Self.fingerprint(stranger)) == nil)
        // Two shops taught the same header: neither is ahead by the margin, so neither is taken.
        let twins = ShopDirectory([Self.shop(3, "Semangat Kopi Sdn Bhd", from: plain, receipt: 4),
                                   Self.shop(5, "Semangat Kopi Johor", from: plain, receipt: 6)])
        #expect(twins.match(Self.fingerprint(slipped)) == nil)
    }

    @Test("a number taught to two shops names neither, unless the receipt prints one's name")
    func ambiguousKey() throws {
        let a = "ALPHA TRADING\nCO. REG: 555123-A\nTEL: 03-1111 2222\nINVOICE"
        let b = "BETA SUPPLIES\nCO. REG: 777888-B\nTEL: 03-1111 2222\nINVOICE"
        let dir = ShopDirectory([Self.shop(1, "Alpha Trading", from: a, receipt: 1), Self.shop(2, "Beta Supplies", from: b, receipt: 2)])
        let third = Self.fingerprint("GAMMA STORE\nTEL: 03-1111 2222\nRECEIPT")
        #expect(dir.match(third) == nil)
        let m = try #require(dir.match(Self.fingerprint("BETA SUPPLIES\nTEL: 03-1111 2222\nRECEIPT"), name: "BETA SUPPLIES"))
        #expect(m.name == "Beta Supplies")
    }

    @Test("an empty directory takes nothing")
    func emptyDirectory() {
        #expect(ShopDirectory([]).isEmpty)
        #expect(ShopDirectory([]).match(Self.fingerprint(Self.mutiara)) == nil)
    }
}
