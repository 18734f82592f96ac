/// FNV-1a, 64 bits: a fast hash that tells data apart (the OCR cache's key for a page's pixels,
/// the checksum of Tesseract's language data), never a secure one (that is `SHA256`).
///
/// Each step xors one value into the state and multiplies by the FNV prime. Fed bytes from the
/// standard offset basis, it is the published FNV-1a 64. `PageImage.pixelHash` feeds it the
/// sizes and whole 32-bit pixel words instead, one step each, from `pixelHashBasis`. Both are
/// stored (OCR caches, frozen fixtures): the constants and the step never change.
public struct FNV1a64: Sendable {
    /// The published offset basis.
    public static let standardBasis: UInt64 = 14_695_981_039_346_656_037
    /// Where `PageImage.pixelHash` starts: the standard basis with its last digit lost, in the C
    /// hash the pixel hash replaced. Kept: every OCR cache is keyed by it.
    public static let pixelHashBasis: UInt64 = 1_469_598_103_934_665_603

    public private(set) var value: UInt64

    public init(basis: UInt64 = standardBasis) { value = basis }

    /// One step: `value` xor `v`, times the prime.
    public mutating func add(_ v: UInt64) { value = (value ^ v) &* 0x100_0000_01b3 }

    /// One step per byte.
    public mutating func add(bytes: UnsafeRawBufferPointer) {
        for b in bytes { add(UInt64(b)) }
    }
}
