import Foundation

/// A small JSON reader that keeps numbers as their literal text (so prices stay exact
/// decimals, never binary floating point) and remembers the line each value starts on
/// (so a bad item is reported as `FILE:LINE`).
public indirect enum JSONValue: Sendable, Equatable {
    case object([(key: String, value: JSONNode)])
    case array([JSONNode])
    case string(String)
    /// The number exactly as written, e.g. "1249.99".
    case number(String)
    case bool(Bool)
    case null

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)): return x.map(\.key) == y.map(\.key) && x.map(\.value) == y.map(\.value)
        case let (.array(x), .array(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.bool(x), .bool(y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }
}

public struct JSONNode: Sendable, Equatable {
    public var line: Int
    public var value: JSONValue

    public subscript(key: String) -> JSONNode? {
        if case let .object(pairs) = value { return pairs.first { $0.key == key }?.value }
        return nil
    }

    /// A string, or a number/bool rendered as text; nil for null, objects, arrays and "".
    public var text: String? {
        switch value {
        case let .string(s): let t = s.trimmingCharacters(in: .whitespacesAndNewlines); return t.isEmpty ? nil : t
        case let .number(n): return n
        case let .bool(b): return b ? "true" : "false"
        default: return nil
        }
    }

    public var array: [JSONNode]? { if case let .array(a) = value { return a }; return nil }
    public var isObject: Bool { if case .object = value { return true }; return false }
}

public struct JSONSyntaxError: Error, CustomStringConvertible, Sendable {
    public var line: Int
    public var message: String
    public var description: String { "line \(line): \(message)" }
}

public enum JSONTree {
    public static func parse(_ data: Data) throws -> JSONNode {
        var p = Parser(bytes: Array(data))
        if p.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3 }
        let v = try p.value()
        p.skipSpace()
        if p.i < p.bytes.count { throw p.error("unexpected text after the JSON value") }
        return v
    }

    struct Parser {
        var bytes: [UInt8]
        var i = 0
        var line = 1

        func error(_ m: String) -> JSONSyntaxError { JSONSyntaxError(line: line, message: m) }

        mutating func skipSpace() {
            while i < bytes.count {
                let c = bytes[i]
                if c == 0x0A { line += 1 } else if c != 0x20 && c != 0x09 && c != 0x0D { break }
                i += 1
            }
        }

        mutating func value() throws -> JSONNode {
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file") }
            let start = line
            switch bytes[i] {
            case UInt8(ascii: "{"):
                i += 1
                var pairs: [(key: String, value: JSONNode)] = []
                skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "}") { i += 1; return JSONNode(line: start, value: .object(pairs)) }
                while true {
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a key in quotes") }
                    let k = try string()
                    skipSpace()
                    guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after key \"\(k)\"") }
                    i += 1
                    pairs.append((k, try value()))
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of file in an object") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "}") { i += 1; return JSONNode(line: start, value: .object(pairs)) }
                    throw error("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                i += 1
                var items: [JSONNode] = []
                skipSpace()
                if i < bytes.count && bytes[i] == UInt8(ascii: "]") { i += 1; return JSONNode(line: start, value: .array(items)) }
                while true {
                    items.append(try value())
                    skipSpace()
                    guard i < bytes.count else { throw error("unexpected end of file in an array") }
                    if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
                    if bytes[i] == UInt8(ascii: "]") { i += 1; return JSONNode(line: start, value: .array(items)) }
                    throw error("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""):
                return JSONNode(line: start, value: .string(try string()))
            case UInt8(ascii: "t"): try literal("true"); return JSONNode(line: start, value: .bool(true))
            case UInt8(ascii: "f"): try literal("false"); return JSONNode(line: start, value: .bool(false))
            case UInt8(ascii: "n"): try literal("null"); return JSONNode(line: start, value: .null)
            default:
                let s = i
                while i < bytes.count, "+-0123456789.eE".utf8.contains(bytes[i]) { i += 1 }
                guard i > s else { throw error("unexpected character '\(Character(UnicodeScalar(bytes[s])))'") }
                return JSONNode(line: start, value: .number(String(decoding: bytes[s..<i], as: UTF8.self)))
            }
        }

        mutating func literal(_ word: String) throws {
            let w = Array(word.utf8)
            guard i + w.count <= bytes.count, Array(bytes[i..<(i + w.count)]) == w else { throw error("expected \(word)") }
            i += w.count
        }

        mutating func string() throws -> String {
            i += 1  // opening quote
            var out: [UInt8] = []
            while i < bytes.count {
                let c = bytes[i]
                if c == UInt8(ascii: "\"") { i += 1; return String(decoding: out, as: UTF8.self) }
                if c == 0x0A { throw error("newline inside a string") }
                if c == UInt8(ascii: "\\") {
                    guard i + 1 < bytes.count else { break }
                    let e = bytes[i + 1]
                    i += 2
                    switch e {
                    case UInt8(ascii: "n"): out.append(0x0A)
                    case UInt8(ascii: "t"): out.append(0x09)
                    case UInt8(ascii: "r"): out.append(0x0D)
                    case UInt8(ascii: "b"): out.append(0x08)
                    case UInt8(ascii: "f"): out.append(0x0C)
                    case UInt8(ascii: "u"):
                        guard i + 4 <= bytes.count, var code = UInt32(String(decoding: bytes[i..<(i + 4)], as: UTF8.self), radix: 16) else {
                            throw error("bad \\u escape")
                        }
                        i += 4
                        if (0xD800..<0xDC00).contains(code), i + 6 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u"),
                           let low = UInt32(String(decoding: bytes[(i + 2)..<(i + 6)], as: UTF8.self), radix: 16), (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        }
                        out += Array(String(UnicodeScalar(code).map(Character.init) ?? "\u{FFFD}").utf8)
                    default: out.append(e)
                    }
                    continue
                }
                out.append(c)
                i += 1
            }
            throw error("unterminated string")
        }
    }
}
