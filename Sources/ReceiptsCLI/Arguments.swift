import Foundation
import ReceiptSupport

/// One option a command accepts.
public struct OptionSpec: Sendable {
    public var name: String            // "--json"
    public var short: String?          // "-j"
    public var valueName: String?      // "N" when it takes a value
    public var help: String
    public var repeatable: Bool

    public init(_ name: String, short: String? = nil, value: String? = nil, repeatable: Bool = false, help: String) {
        self.name = name; self.short = short; self.valueName = value; self.help = help; self.repeatable = repeatable
    }
}

public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A parsed command line for one command.
public struct Arguments: Sendable {
    public var values: [String: [String]] = [:]
    public var flags: Set<String> = []
    public var positionals: [String] = []

    public func flag(_ name: String) -> Bool { flags.contains(name) }
    public func value(_ name: String) -> String? { values[name]?.last }
    public func all(_ name: String) -> [String] { values[name] ?? [] }

    public func int(_ name: String, in range: ClosedRange<Int>? = nil) throws(UsageError) -> Int? {
        guard let s = value(name) else { return nil }
        guard let v = Int(s), range.map({ $0.contains(v) }) ?? true else {
            let r = range.map { " (\($0.lowerBound)…\($0.upperBound))" } ?? ""
            throw UsageError("\(name) takes a whole number\(r), not '\(s)'")
        }
        return v
    }

    public func double(_ name: String, in range: ClosedRange<Double>? = nil) throws(UsageError) -> Double? {
        guard let s = value(name) else { return nil }
        guard let v = Double(s), v.isFinite, range.map({ $0.contains(v) }) ?? true else {
            throw UsageError("\(name) takes a number, not '\(s)'")
        }
        return v
    }

    /// Parses `args` against `specs`. `--name=value` and `--name value` both work; `--` ends options.
    public static func parse(_ args: [String], specs: [OptionSpec]) throws(UsageError) -> Arguments {
        var result = Arguments()
        var i = 0
        var optionsEnded = false
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                result.positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq]); inline = String(arg[arg.index(after: eq)...])
            }
            guard let spec = specs.first(where: { $0.name == name || $0.short == name }) else {
                var msg = "unknown option '\(name)'"
                if let s = suggestion(for: name, among: specs.map(\.name) + ["--help"]) { msg += ". Did you mean '\(s)'?" }
                throw UsageError(msg)
            }
            if let valueName = spec.valueName {
                let v: String
                if let inline { v = inline } else {
                    guard i < args.count else { throw UsageError("\(spec.name) needs a value (\(valueName))") }
                    v = args[i]; i += 1
                }
                if !spec.repeatable, result.values[spec.name] != nil {
                    throw UsageError("\(spec.name) given twice")
                }
                result.values[spec.name, default: []].append(v)
            } else {
                if inline != nil { throw UsageError("\(spec.name) takes no value") }
                result.flags.insert(spec.name)
            }
        }
        return result
    }

    /// The closest known word within a small edit distance, or one that starts with `word`.
    public static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, EditDistance.levenshtein(word, $0, transpositions: true)) }.sorted { $0.1 < $1.1 }
        if let best = scored.first, best.1 <= max(2, word.count / 3) { return best.0 }
        return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
    }

}
