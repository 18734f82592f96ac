/// File names on Linux are bytes, not text. A name that is not valid UTF-8 is kept in a
/// `String` losslessly: each byte that is not part of valid UTF-8 becomes the private-use
/// character U+EF00 + byte (U+EF80–U+EFFF; the "OPTU-8" convention), and a real character in
/// that range is itself written as its three bytes so mapped. `bytes(_:)` gives back exactly
/// the original bytes for `open`; `displayable(_:)` shows them as `\xE9` for people.
public enum PathBytes {
    static let base: UInt32 = 0xEF00
    static let mapped: ClosedRange<UInt32> = 0xEF80...0xEFFF

    /// The name as a `String`, lossless for any bytes.
    public static func string(_ bytes: some Collection<UInt8>) -> String {
        let b = Array(bytes)
        if let s = String(validating: b, as: UTF8.self), !s.unicodeScalars.contains(where: { mapped.contains($0.value) }) { return s }
        var scalars = String.UnicodeScalarView()
        var i = 0
        while i < b.count {
            if let (scalar, length) = decode(b, at: i), !mapped.contains(scalar.value) {
                scalars.append(scalar)
                i += length
            } else {
                // Invalid here, or a character in the mapped range: one byte at a time.
                let n = decode(b, at: i)?.1 ?? 1
                for k in i..<(i + n) { scalars.append(Unicode.Scalar(base + UInt32(b[k]))!) }
                i += n
            }
        }
        return String(scalars)
    }

    /// The bytes `string(_:)` was made from (UTF-8 for any ordinary string).
    public static func bytes(_ s: String) -> [UInt8] {
        guard s.unicodeScalars.contains(where: { mapped.contains($0.value) }) else { return Array(s.utf8) }
        var out: [UInt8] = []
        for u in s.unicodeScalars {
            if mapped.contains(u.value) { out.append(UInt8(u.value - base)) } else { out.append(contentsOf: String(u).utf8) }
        }
        return out
    }

    /// Calls `body` with the name as the C string the system call needs.
    public static func withCString<R>(_ s: String, _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let b = bytes(s) + [0]
        return try b.withUnsafeBufferPointer { try $0.withMemoryRebound(to: CChar.self) { try body($0.baseAddress!) } }
    }

    /// For people: each byte that is not text shown as `\xE9` (`prefix` then two hex digits);
    /// an ordinary string unchanged.
    public static func displayable(_ s: String, prefix: String = "\\x") -> String {
        guard s.unicodeScalars.contains(where: { mapped.contains($0.value) }) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            if mapped.contains(u.value) {
                let hex = String(u.value - base, radix: 16, uppercase: true)
                out += prefix + (hex.count < 2 ? "0" + hex : hex)
            } else {
                out.unicodeScalars.append(u)
            }
        }
        return out
    }

    /// One valid UTF-8 sequence at `i`: its scalar and length; nil when the bytes there are not valid UTF-8.
    static func decode(_ b: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let c = b[i]
        let n: Int, low: UInt32
        switch c {
        case 0x00...0x7F: return (Unicode.Scalar(c), 1)
        case 0xC2...0xDF: n = 2; low = 0x80
        case 0xE0...0xEF: n = 3; low = 0x800
        case 0xF0...0xF4: n = 4; low = 0x10000
        default: return nil
        }
        guard i + n <= b.count else { return nil }
        var v = UInt32(c) & (0xFF >> (n + 1))
        for k in 1..<n {
            guard b[i + k] & 0xC0 == 0x80 else { return nil }
            v = v << 6 | UInt32(b[i + k] & 0x3F)
        }
        guard v >= low, v <= 0x10FFFF, !(0xD800...0xDFFF).contains(v), let s = Unicode.Scalar(v) else { return nil }
        return (s, n)
    }
}
