import Foundation
import ReceiptOCR
import ReceiptStore

/// A setting that may come from the command line, the environment, the config file, or the
/// built-in default, in that order. Each is bound to the option that takes it (`OptionInfo.setting`):
/// the option's own parsing checks its value wherever it comes from.
public enum Setting: String, CaseIterable, Sendable {
    case store, rules, vendors, model, tessdata, psm
    case dateOrder = "date-order"
    case currency, jobs
    case timeLimit = "time-limit"

    /// The key in the config file.
    public var key: String { rawValue }
    /// The environment variable: RECEIPTS_DATE_ORDER.
    public var environment: String { "RECEIPTS_" + rawValue.uppercased().replacingOccurrences(of: "-", with: "_") }
    /// A file or folder: relative to the config file's folder when written there (`~/` is the home folder).
    var isPath: Bool { [.store, .rules, .vendors, .tessdata].contains(self) }

    /// What holds when nothing gives a value.
    func builtIn(_ environment: [String: String]) -> String {
        switch self {
        case .store: StoreLocation.resolve(explicit: nil, environment: environment.filter { $0.key != Setting.store.environment })
        case .rules: "the built-in rules (receipts rules)"
        case .vendors: "none"
        case .model: OCROptions().language
        case .tessdata: "searched (see --tessdata)"
        case .psm: String(OCROptions().layout.psm)
        case .dateOrder: "auto"
        case .currency: "none (what the receipt shows)"
        case .jobs: "\(ProcessInfo.processInfo.activeProcessorCount) (the number of cores)"
        case .timeLimit: String(Int(OCROptions().timeLimit))
        }
    }

    /// The option that takes this setting on the command line, as declared.
    var option: OptionInfo { Setting.options[self]! }

    /// The options bound to settings: the groups that declare them.
    static let options: [Setting: OptionInfo] = {
        let infos = PipelineArgs.group.options.map(\.info) + StoreArgs.group.options.map(\.info) + JobsArgs.group.options.map(\.info)
        return Dictionary(infos.compactMap { i in i.setting.map { ($0, i) } }, uniquingKeysWith: { a, _ in a })
    }()
}

/// A value given in the config file or given to the command that does not fit: exit code 2,
/// naming the file, the line and the key (or the environment variable).
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// The settings the environment and the config file give (the command line comes on top, per command).
public struct Settings: Sendable {
    public enum Source: Sendable, Hashable {
        case commandLine(option: String)
        case environment(String)
        case file(path: String, line: Int)
        case builtIn

        /// How a value is named in a message about it: the option, the variable, or the key.
        func spelling(_ setting: Setting) -> String {
            switch self {
            case .commandLine(let option): option
            case .environment(let name): name
            case .file, .builtIn: setting.key
            }
        }

        /// What goes before a message about a value from here: "FILE:LINE: ".
        var prefix: String {
            if case .file(let path, let line) = self { return "\(path):\(line): " }
            return ""
        }

        public var description: String {
            switch self {
            case .commandLine(let option): "command line (\(option))"
            case .environment(let name): "environment (\(name))"
            case .file(let path, let line): "\(path):\(line)"
            case .builtIn: "built-in"
            }
        }
    }

    public struct Value: Sendable {
        public var text: String
        public var source: Source
    }

    /// The config file read, or the one looked for when there is none.
    public var file: String?
    public var fileExists = false
    /// The environment's values, and the file's for what the environment leaves out.
    public var values: [Setting: Value] = [:]

    /// The config file: `--config FILE`, else `RECEIPTS_CONFIG`, else `$XDG_CONFIG_HOME/receipts/config`
    /// (`~/.config/receipts/config` when XDG_CONFIG_HOME is unset). The first two must exist.
    /// Only the environment given is read (no HOME, no file: nothing), so a test's environment is all there is.
    static func configFile(explicit: String?, environment: [String: String]) -> (path: String?, required: Bool) {
        if let explicit { return (explicit, true) }
        if let p = environment["RECEIPTS_CONFIG"], !p.isEmpty { return (p, true) }
        if let x = environment["XDG_CONFIG_HOME"], x.hasPrefix("/") { return ("\(x)/receipts/config", false) }
        if let home = environment["HOME"], home.hasPrefix("/") { return ("\(home)/.config/receipts/config", false) }
        return (nil, false)
    }

    /// Reads the environment and the config file. Every value is checked by its option, so a bad
    /// one fails here, whichever command runs.
    public static func load(explicitFile: String?, environment: [String: String]) throws -> Settings {
        var s = Settings()
        let (path, required) = configFile(explicit: explicitFile, environment: environment)
        s.file = path
        if let path {
            // Read as a stream, so RECEIPTS_CONFIG=/dev/null (or a pipe) works: no settings from a file.
            if let handle = isDirectory(path) ? nil : FileHandle(forReadingAtPath: path) {
                defer { try? handle.close() }
                guard let data = try? handle.readToEnd() ?? Data() else { throw ConfigError("\(path): cannot read the config file") }
                s.fileExists = true
                guard let text = String(data: data, encoding: .utf8) else { throw ConfigError("\(path): the config file is not UTF-8 text") }
                for (setting, value) in try parse(text, file: path, environment: environment) { s.values[setting] = value }
            } else if required || FileManager.default.fileExists(atPath: path) {
                throw ConfigError("\(path): cannot read the config file\(FileManager.default.fileExists(atPath: path) ? "" : " (no such file)")")
            }
        }
        for setting in Setting.allCases {
            guard let v = environment[setting.environment], !v.isEmpty else { continue }
            do { try setting.option.check(v, setting.environment) } catch let e as UsageError { throw ConfigError(e.message) }
            s.values[setting] = Value(text: v, source: .environment(setting.environment))
        }
        return s
    }

    static func isDirectory(_ path: String) -> Bool {
        var dir: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &dir) && dir.boolValue
    }

    /// `key = value` lines; `#` starts a comment line; a value may be "quoted" (TOML's basic string:
    /// `\"`, `\\`, `\t`) or 'quoted' (as written), else it runs to the end of the line or to a ` #` comment.
    /// Keys are the settings' (`date-order` or `date_order`), each at most once.
    static func parse(_ text: String, file: String, environment: [String: String]) throws -> [(Setting, Value)] {
        var out: [(Setting, Value)] = []
        var lineOf: [Setting: Int] = [:]
        for (n, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = n + 1
            let where_ = "\(file):\(line)"
            let t = raw.trimmingCharacters(in: .whitespacesAndNewlines)
            if t.isEmpty || t.hasPrefix("#") { continue }
            guard let eq = t.firstIndex(of: "=") else { throw ConfigError("\(where_): expected `key = value`, not '\(t)'") }
            let key = t[..<eq].trimmingCharacters(in: .whitespaces)
            guard let setting = Setting(rawValue: key.lowercased().replacingOccurrences(of: "_", with: "-")) else {
                var msg = "\(where_): unknown key '\(key)'"
                if let s = Tokens.suggestion(for: key, among: Setting.allCases.map(\.key)) { msg += ". Did you mean '\(s)'?" }
                throw ConfigError(msg + " (keys: \(Setting.allCases.map(\.key).joined(separator: ", ")))")
            }
            if let first = lineOf[setting] { throw ConfigError("\(where_): \(setting.key) given twice (first on line \(first))") }
            lineOf[setting] = line
            var value = try unquote(t[t.index(after: eq)...].trimmingCharacters(in: .whitespaces), at: where_, key: setting.key)
            guard !value.isEmpty else { throw ConfigError("\(where_): \(setting.key) has no value") }
            if setting.isPath { value = resolve(value, relativeTo: (file as NSString).deletingLastPathComponent, environment: environment) }
            do { try setting.option.check(value, setting.key) } catch let e as UsageError { throw ConfigError("\(where_): \(e.message)") }
            out.append((setting, Value(text: value, source: .file(path: file, line: line))))
        }
        return out
    }

    static func unquote(_ v: String, at where_: String, key: String) throws -> String {
        guard let q = v.first, q == "\"" || q == "'" else {
            // A bare value: a '#' after a space starts a comment.
            let cut = v.range(of: #"\s#"#, options: .regularExpression).map { v[..<$0.lowerBound] } ?? v[...]
            return cut.trimmingCharacters(in: .whitespaces)
        }
        var out = ""
        var i = v.index(after: v.startIndex)
        while i < v.endIndex {
            let c = v[i]
            if c == q {
                let rest = v[v.index(after: i)...].trimmingCharacters(in: .whitespaces)
                guard rest.isEmpty || rest.hasPrefix("#") else { throw ConfigError("\(where_): \(key): text after the closing quote") }
                return out
            }
            if q == "\"", c == "\\" {
                i = v.index(after: i)
                guard i < v.endIndex, let e = ["\"": "\"", "\\": "\\", "t": "\t", "n": "\n"][v[i]] else {
                    throw ConfigError("\(where_): \(key): unknown escape in a \"quoted\" value (use \\\\ for a backslash)")
                }
                out.append(e)
            } else {
                out.append(c)
            }
            i = v.index(after: i)
        }
        throw ConfigError("\(where_): \(key): no closing \(q)")
    }

    /// `~/x` in the home folder; a relative path in the config file's folder; a URL as it is.
    static func resolve(_ value: String, relativeTo folder: String, environment: [String: String]) -> String {
        if value.contains("://") || value.hasPrefix("/") { return value }
        if value.hasPrefix("~/"), let home = environment["HOME"], home.hasPrefix("/") { return home + value.dropFirst() }
        return ((folder as NSString).appendingPathComponent(value) as NSString).standardizingPath
    }
}
