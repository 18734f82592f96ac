import Foundation

/// A CSV/TSV file read as records, each with the line number it starts on (1-based),
/// so errors can say `FILE:LINE`. RFC 4180 quoting: fields may hold the separator,
/// newlines and doubled quotes. The separator (comma, semicolon or tab) is taken
/// from the header line.
public struct CSVTable: Sendable {
    public struct Record: Sendable {
        public var line: Int
        public var fields: [String]
        /// Set when the record is malformed (unterminated quote, stray quote).
        public var problem: String?

        /// Field `index` without surrounding white space; nil when there is no such column or it is blank.
        public func value(_ index: Int?) -> String? {
            guard let index, index < fields.count else { return nil }
            let t = fields[index].trimmingCharacters(in: .whitespacesAndNewlines)
            return t.isEmpty ? nil : t
        }
    }

    public var header: [String]
    public var headerLine: Int
    public var records: [Record]
    public var separator: Character

    public init(text: String) {
        var s = text
        if s.hasPrefix("\u{FEFF}") { s.removeFirst() }
        let sep = CSVTable.detectSeparator(s)
        var all = CSVTable.parse(s, separator: sep)
        // Skip blank lines before the header.
        while let f = all.first, f.fields.count == 1, f.fields[0].trimmingCharacters(in: .whitespaces).isEmpty { all.removeFirst() }
        separator = sep
        if let first = all.first {
            header = first.fields.map { $0.trimmingCharacters(in: .whitespaces) }
            headerLine = first.line
            records = Array(all.dropFirst()).filter { r in !(r.fields.count == 1 && r.fields[0].trimmingCharacters(in: .whitespaces).isEmpty) }
        } else {
            header = []; headerLine = 1; records = []
        }
    }

    static func detectSeparator(_ s: String) -> Character {
        var counts: [Character: Int] = [",": 0, ";": 0, "\t": 0]
        var quoted = false
        for c in s {
            if c == "\"" { quoted.toggle(); continue }
            if !quoted && c.isNewline { break }
            if !quoted, counts[c] != nil { counts[c]! += 1 }
        }
        if counts["\t"]! > counts[","]! && counts["\t"]! >= counts[";"]! { return "\t" }
        if counts[";"]! > counts[","]! { return ";" }
        return ","
    }

    static func parse(_ s: String, separator: Character) -> [Record] {
        var out: [Record] = []
        var fields: [String] = []
        var field = ""
        var line = 1
        var startLine = 1
        var inQuotes = false
        var wasQuoted = false
        var problem: String?
        var atRecordStart = true
        // Swift reads CR LF as one Character, equal to neither "\r" nor "\n": Windows and Excel line
        // ends are made plain "\n" first (they read as one line holding the whole file otherwise).
        var chars = s.map { $0 == "\r\n" ? "\n" : $0 }
        if chars.last != "\n" { chars.append("\n") }
        var i = 0
        func endField() { fields.append(field); field = ""; wasQuoted = false }
        while i < chars.count {
            let c = chars[i]
            if atRecordStart { startLine = line; atRecordStart = false }
            if inQuotes {
                if c == "\"" {
                    if i + 1 < chars.count && chars[i + 1] == "\"" { field.append("\""); i += 2; continue }
                    inQuotes = false
                } else {
                    if c == "\n" { line += 1 }
                    if c == "\r" && i + 1 < chars.count && chars[i + 1] == "\n" { i += 1; line += 1; field.append("\n") } else { field.append(c) }
                }
                i += 1
                continue
            }
            switch c {
            case "\"":
                if field.isEmpty && !wasQuoted { inQuotes = true; wasQuoted = true } else {
                    problem = problem ?? "stray quote in field \(fields.count + 1) (quote the whole field and double the quote)"
                    field.append(c)
                }
            case separator:
                endField()
            case "\r", "\n":
                if c == "\r" && i + 1 < chars.count && chars[i + 1] == "\n" { i += 1 }
                endField()
                out.append(Record(line: startLine, fields: fields, problem: problem))
                fields = []; problem = nil
                line += 1
                atRecordStart = true
            default:
                if wasQuoted {
                    problem = problem ?? "text after the closing quote in field \(fields.count + 1)"
                }
                field.append(c)
            }
            i += 1
        }
        if inQuotes {
            endField()
            out.append(Record(line: startLine, fields: fields, problem: "a quote opened on this line is never closed"))
        }
        return out
    }

    /// Quotes a field for writing when it needs it.
    public static func escape(_ s: String, separator: Character = ",") -> String {
        if s.contains(separator) || s.contains("\"") || s.contains("\n") || s.contains("\r") || s.hasPrefix(" ") || s.hasSuffix(" ") {
            return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        }
        return s
    }

    public static func row(_ fields: [String]) -> String { fields.map { escape($0) }.joined(separator: ",") }
}
