import Foundation
import ReceiptSupport

// Each command's options are declared once, as typed values: a struct of properties with their
// defaults (`ParseArgs`, `BatchArgs`, …) and one list binding each option's spelling, value name,
// help and kind to a key path (or setter) into that struct. Parsing fills the struct, and a bad
// value is a usage error before the command runs; `--help`, the man page (`receipts man`) and shell
// completion (`receipts completion`) are all made from the same declarations, so they cannot disagree.
// Options that several commands share (the pipeline's, `--store`, `--jobs`, the receipt filters) are
// an `OptionGroup` declared once and embedded in each command's struct by a key path.

/// What an option's value (or a command's arguments) is: what completion offers for it, and how
/// the help and the man page describe it.
public enum ValueKind: Sendable, Hashable {
    /// No value: the option is a flag.
    case flag
    case file
    case directory
    /// A file or a folder.
    case path
    /// A store: a SQLite file or a postgres:// URL.
    case store
    /// A number in a range.
    case number(ClosedRange<Double>)
    /// One word of a fixed set.
    case oneOf([String])
    /// An OCR model: `receipt` or a Tesseract language installed here.
    case model
    /// A receipt: its id in the store, or an image file that was read.
    case receipt
    /// A link's id in the store.
    case link
    /// A shell pattern on file names.
    case glob
    /// Anything else: a name, a date, an amount, a list.
    case text
}

/// The bad command line: an unknown option, a missing or invalid value, a missing argument.
public struct UsageError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A structure filled from a command line: a command's options (`ParseArgs`) or a group of them
/// (`PipelineArgs`). Every property has its default, so `init()` is the command line with no options.
public protocol ParsableArgs: Sendable {
    init()
}

/// One option as the help, the man page and completion see it: no type, no key path.
public struct OptionInfo: Sendable {
    /// "--json"
    public var name: String
    /// "-j"
    public var short: String?
    /// "N" when the option takes a value; nil for a flag.
    public var valueName: String?
    public var help: String
    public var kind: ValueKind
    /// Given several times, each value counts (`--include GLOB`); otherwise twice is an error.
    public var repeatable: Bool
    /// Another spelling of the option named here (`--lang` of `--model`): giving both is an error.
    public var sameAs: String?
    /// The setting (config file, environment) that gives this option's value when the command line does not.
    public var setting: Setting?
    /// Checks `value` as the option takes it; `spelled` names it in the message (`--jobs`, `jobs`, `RECEIPTS_JOBS`).
    public let check: @Sendable (_ value: String, _ spelled: String) throws -> Void

    /// `-j, --jobs N`
    public var label: String { [short, name].compactMap { $0 }.joined(separator: ", ") + (valueName.map { " \($0)" } ?? "") }
    /// The option whose value this one gives (itself unless it is another spelling).
    var canonical: String { sameAs ?? name }
}

/// One option of the arguments `O`: how it is spelled and described, and how a value given for it
/// lands in `O`.
public struct Option<O: ParsableArgs>: Sendable {
    public var info: OptionInfo
    /// Puts `value` (empty for a flag) into the arguments, or throws a `UsageError` naming `spelled`.
    let apply: @Sendable (_ args: inout O, _ value: String, _ spelled: String) throws -> Void

    init(_ name: String, short: String? = nil, value valueName: String?, kind: ValueKind, repeatable: Bool = false,
         sameAs: String? = nil, setting: Setting? = nil, help: String,
         apply: @escaping @Sendable (_ args: inout O, _ value: String, _ spelled: String) throws -> Void) {
        self.init(info: OptionInfo(name: name, short: short, valueName: valueName, help: help, kind: kind, repeatable: repeatable,
                                   sameAs: sameAs, setting: setting, check: { value, spelled in var o = O(); try apply(&o, value, spelled) }),
                  apply: apply)
    }

    private init(info: OptionInfo, apply: @escaping @Sendable (_ args: inout O, _ value: String, _ spelled: String) throws -> Void) {
        self.info = info; self.apply = apply
    }

    /// The message of a value an option does not take: "--psm takes 3, 4, 6, 7, 8 or 11, not '99'".
    static func bad(_ spelled: String, _ expected: String, _ value: String) -> UsageError {
        UsageError("\(spelled) takes \(expected), not '\(value)'")
    }

    /// A flag: true when given.
    static func flag(_ name: String, short: String? = nil, _ path: WritableKeyPath<O, Bool> & Sendable, help: String) -> Option {
        Option(name, short: short, value: nil, kind: .flag, help: help) { o, _, _ in o[keyPath: path] = true }
    }

    /// A value kept as it is given.
    static func string(_ name: String, short: String? = nil, value: String, _ path: WritableKeyPath<O, String?> & Sendable,
                       kind: ValueKind = .text, sameAs: String? = nil, setting: Setting? = nil, help: String) -> Option {
        Option(name, short: short, value: value, kind: kind, sameAs: sameAs, setting: setting, help: help) { o, v, _ in o[keyPath: path] = v }
    }

    /// A value made into a `V` by `parse`; a value it refuses (nil) is "NAME takes `expected`, not 'VALUE'".
    static func value<V: Sendable>(_ name: String, short: String? = nil, value: String, _ path: WritableKeyPath<O, V?> & Sendable,
                                   kind: ValueKind = .text, sameAs: String? = nil, setting: Setting? = nil, help: String,
                                   expected: String, parse: @escaping @Sendable (String) -> V?) -> Option {
        Self.value(name, short: short, value: value, kind: kind, sameAs: sameAs, setting: setting, help: help,
                   expected: expected, parse: parse) { o, v in o[keyPath: path] = v }
    }

    /// A value made into a `V` by `parse` and handed to `set` (for arguments that keep it in a form of their own).
    static func value<V: Sendable>(_ name: String, short: String? = nil, value: String, kind: ValueKind = .text, sameAs: String? = nil,
                                   setting: Setting? = nil, help: String, expected: String, parse: @escaping @Sendable (String) -> V?,
                                   set: @escaping @Sendable (inout O, V) -> Void) -> Option {
        Option(name, short: short, value: value, kind: kind, sameAs: sameAs, setting: setting, help: help) { o, v, spelled in
            guard let parsed = parse(v) else { throw bad(spelled, expected, v) }
            set(&o, parsed)
        }
    }

    /// A whole number in `range`.
    static func int(_ name: String, short: String? = nil, value: String, _ path: WritableKeyPath<O, Int?> & Sendable,
                    in range: ClosedRange<Int>, setting: Setting? = nil, help: String) -> Option {
        int(name, short: short, value: value, in: range, setting: setting, help: help) { o, v in o[keyPath: path] = v }
    }

    static func int(_ name: String, short: String? = nil, value: String, in range: ClosedRange<Int>, setting: Setting? = nil, help: String,
                    set: @escaping @Sendable (inout O, Int) -> Void) -> Option {
        Self.value(name, short: short, value: value, kind: .number(Double(range.lowerBound)...Double(range.upperBound)), setting: setting,
                   help: help, expected: "a whole number (\(range.lowerBound)…\(range.upperBound))",
                   parse: { s in Int(s).flatMap { range.contains($0) ? $0 : nil } }, set: set)
    }

    /// A number in `range`.
    static func double(_ name: String, value: String, _ path: WritableKeyPath<O, Double?> & Sendable,
                       in range: ClosedRange<Double>, setting: Setting? = nil, help: String) -> Option {
        double(name, value: value, in: range, setting: setting, help: help) { o, v in o[keyPath: path] = v }
    }

    static func double(_ name: String, value: String, in range: ClosedRange<Double>, setting: Setting? = nil, help: String,
                       set: @escaping @Sendable (inout O, Double) -> Void) -> Option {
        Self.value(name, value: value, kind: .number(range), setting: setting, help: help, expected: "a number",
                   parse: { s in Double(s).flatMap { $0.isFinite && range.contains($0) ? $0 : nil } }, set: set)
    }

    /// A value given as often as wanted, each one kept (`--include GLOB`).
    static func list(_ name: String, value: String, _ path: WritableKeyPath<O, [String]> & Sendable, kind: ValueKind = .text,
                     help: String) -> Option {
        Option(name, value: value, kind: kind, repeatable: true, help: help) { o, v, _ in o[keyPath: path].append(v) }
    }

    /// The same option for arguments `P` that hold these arguments at `path` (a group embedded in a command).
    func embedded<P: ParsableArgs>(in path: WritableKeyPath<P, O> & Sendable) -> Option<P> {
        let apply = self.apply
        return Option<P>(info: info) { p, v, spelled in try apply(&p[keyPath: path], v, spelled) }
    }
}

/// Options declared together, with the checks that look at several of them at once (`--to` not
/// before `--from`): a command's own, or a group several commands embed.
public struct OptionGroup<O: ParsableArgs>: Sendable {
    public var options: [Option<O>]
    var checks: [@Sendable (O) throws -> Void]

    init(_ options: [Option<O>], checks: [@Sendable (O) throws -> Void] = []) {
        self.options = options; self.checks = checks
    }

    /// The group inside arguments `P`, at `path`; `where` leaves options out (`review` has no `--status`).
    func embedded<P: ParsableArgs>(in path: WritableKeyPath<P, O> & Sendable, where keep: (OptionInfo) -> Bool = { _ in true }) -> OptionGroup<P> {
        OptionGroup<P>(options.filter { keep($0.info) }.map { $0.embedded(in: path) },
                       checks: checks.map { check in { p in try check(p[keyPath: path]) } })
    }

    static func + (a: OptionGroup, b: OptionGroup) -> OptionGroup { OptionGroup(a.options + b.options, checks: a.checks + b.checks) }

    /// The same options bound to no setting: a command that must run whatever the config file says.
    func withoutSettings() -> OptionGroup {
        OptionGroup(options.map { o in var o = o; o.info.setting = nil; return o }, checks: checks)
    }
}

/// What a command takes besides options: how many, what they are, and where they go.
public struct Positionals<O: ParsableArgs>: Sendable {
    public var info: ArgumentInfo
    let path: (WritableKeyPath<O, [String]> & Sendable)?

    init(_ name: String, kind: ValueKind, count: ArgumentCount, help: String, _ path: WritableKeyPath<O, [String]> & Sendable) {
        info = ArgumentInfo(name: name, kind: kind, count: count, help: help); self.path = path
    }
    private init(none message: String) { info = ArgumentInfo(name: "", kind: .text, count: .none(message), help: ""); path = nil }

    /// The command takes no arguments: `message` says so.
    static func none(_ message: String) -> Positionals { Positionals(none: message) }

    func store(_ values: [String], in o: inout O) throws {
        switch info.count {
        case .none(let m) where !values.isEmpty: throw UsageError(m)
        case .one(let m) where values.count != 1: throw UsageError(m)
        case .atLeastOne(let m) where values.isEmpty: throw UsageError(m)
        default: break
        }
        if let path { o[keyPath: path] = values }
    }
}

/// How many arguments a command takes.
public enum ArgumentCount: Sendable {
    /// None: the message says what to do instead.
    case none(String)
    /// Exactly one; the message when there are more or fewer.
    case one(String)
    /// One or more; the message when there are none.
    case atLeastOne(String)
    /// Any number (the command decides).
    case any
}

/// A command's arguments as the help, the man page and completion see them.
public struct ArgumentInfo: Sendable {
    public var name: String
    public var kind: ValueKind
    public var count: ArgumentCount
    public var help: String

    /// "FILE...", "[DIR|FILE...]", "ID|FILE", or "" when the command takes none.
    public var usage: String {
        switch count {
        case .none: ""
        case .one: name
        case .atLeastOne: name + "..."
        case .any: "[\(name)...]"
        }
    }
}

/// Arguments of a command that has no options of its own.
public struct NoArgs: ParsableArgs { public init() {} }

/// A command line cut into options (each with its value) and positional arguments, before any value is applied.
struct Tokens {
    var given: [(option: OptionInfo, index: Int, value: String, spelled: String)] = []
    var positionals: [String] = []

    func value(of name: String) -> String? { given.last { $0.option.name == name }?.value }
    func gives(_ info: OptionInfo) -> Bool { given.contains { $0.option.canonical == info.canonical } }

    /// `--name=value` and `--name value` both work; `--` ends the options.
    init(_ args: [String], options: [OptionInfo]) throws {
        var i = 0
        var optionsEnded = false
        var seen: [String: String] = [:]  // canonical name → as spelled
        while i < args.count {
            let arg = args[i]
            i += 1
            if optionsEnded || arg == "-" || !arg.hasPrefix("-") {
                positionals.append(arg)
                continue
            }
            if arg == "--" { optionsEnded = true; continue }
            var name = arg
            var inline: String?
            if arg.hasPrefix("--"), let eq = arg.firstIndex(of: "=") {
                name = String(arg[..<eq]); inline = String(arg[arg.index(after: eq)...])
            }
            guard let index = options.firstIndex(where: { $0.name == name || $0.short == name }) else {
                var msg = "unknown option '\(name)'"
                if let s = Self.suggestion(for: name, among: options.map(\.name) + ["--help"]) { msg += ". Did you mean '\(s)'?" }
                throw UsageError(msg)
            }
            let spec = options[index]
            var value = ""
            if let valueName = spec.valueName {
                if let inline { value = inline } else {
                    guard i < args.count else { throw UsageError("\(spec.name) needs a value (\(valueName))") }
                    value = args[i]; i += 1
                }
            } else if inline != nil {
                throw UsageError("\(spec.name) takes no value")
            }
            if !spec.repeatable, let before = seen[spec.canonical] {
                if before == spec.name { throw UsageError("\(spec.name) given twice") }
                throw UsageError("\(spec.canonical) and \([before, spec.name].first { $0 != spec.canonical } ?? spec.name) name the same thing: give one")
            }
            seen[spec.canonical] = spec.name
            given.append((spec, index, value, spec.name))
        }
    }

    /// The closest known word within a small edit distance, or one that starts with `word`.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, EditDistance.levenshtein(word, $0, transpositions: true)) }.sorted { $0.1 < $1.1 }
        if let best = scored.first, best.1 <= max(2, word.count / 3) { return best.0 }
        return candidates.first { $0.hasPrefix(word) && word.count >= 3 }
    }
}

extension OptionGroup {
    /// Fills arguments from a command line: first the settings (environment, config file) for the
    /// options the command line leaves out, then the command line, then the arguments and the checks.
    func parse(_ tokens: Tokens, arguments: Positionals<O>, settings: Settings?) throws -> O {
        var o = O()
        if let settings {
            for option in options {
                guard let setting = option.info.setting, !tokens.gives(option.info), let v = settings.values[setting] else { continue }
                do { try option.apply(&o, v.text, v.source.spelling(setting)) } catch let e as UsageError {
                    throw ConfigError(v.source.prefix + e.message)
                }
            }
        }
        for t in tokens.given { try options[t.index].apply(&o, t.value, t.spelled) }
        try arguments.store(tokens.positionals, in: &o)
        for check in checks { try check(o) }
        return o
    }
}

extension OptionGroup {
    /// These options alone, from a command line without settings or arguments (a group on its own).
    func parse(_ args: [String]) throws -> O {
        try parse(Tokens(args, options: options.map(\.info)), arguments: .none("no arguments here: \(args)"), settings: nil)
    }
}
