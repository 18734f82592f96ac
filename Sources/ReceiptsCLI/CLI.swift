import Foundation
import Synchronization
import ReceiptPipeline
import ReceiptEval
import ReceiptModel
import ReceiptOCR
import ReceiptStore
import ReceiptSupport

/// What a command gets besides its arguments.
public struct CommandContext: Sendable {
    public var console: Console
    public var environment: [String: String]
    /// Set when the user asks to stop (Ctrl-C / SIGTERM); long commands check it.
    public var interruption: Interruption
    /// Where interactive commands (`review`) read the user's answers.
    public var input: Input

    public init(console: Console, environment: [String: String] = ProcessInfo.processInfo.environment,
                interruption: Interruption = Interruption(), input: Input = .standard()) {
        self.console = console; self.environment = environment; self.interruption = interruption; self.input = input
    }
}

/// Lines typed by the user, and whether they come from a terminal.
public struct Input: Sendable {
    public var isTerminal: Bool
    public var readLine: @Sendable () -> String?
    /// All the bytes left (`parse -`), at most `limit` of them: nil when more are there, or none could be read.
    public var readAll: @Sendable (_ limit: Int) -> Data?

    public init(isTerminal: Bool, readLine: @escaping @Sendable () -> String?,
                readAll: @escaping @Sendable (_ limit: Int) -> Data? = { _ in nil }) {
        self.isTerminal = isTerminal; self.readLine = readLine; self.readAll = readAll
    }

    /// The process's standard input.
    public static func standard() -> Input {
        Input(isTerminal: isatty(0) != 0, readLine: { Swift.readLine(strippingNewline: true) }, readAll: { limit in
            guard let data = try? FileHandle.standardInput.read(upToCount: limit + 1) else { return nil }
            return data.count > limit ? nil : data
        })
    }
    /// No input at all (not a terminal): what tests and embedding use by default.
    public static let none = Input(isTerminal: false, readLine: { nil })
}

/// A flag raised by a signal handler and read by workers.
public final class Interruption: Sendable {
    private let raised = Atomic<Bool>(false)
    public init() {}
    public var isRaised: Bool { raised.load(ordering: .acquiring) }
    public func raise() { raised.store(true, ordering: .releasing) }
}

/// One `receipts` command (or a group of subcommands, such as `items`).
public struct Command: Sendable {
    public var name: String
    public var summary: String
    public var usage: String
    public var discussion: String
    public var options: [OptionSpec]
    public var subcommands: [Command]
    public var run: (@Sendable (Arguments, CommandContext) throws -> ExitCode)?

    public init(name: String, summary: String, usage: String, discussion: String = "", options: [OptionSpec] = [],
                subcommands: [Command] = [], run: (@Sendable (Arguments, CommandContext) throws -> ExitCode)? = nil) {
        self.name = name; self.summary = summary; self.usage = usage; self.discussion = discussion
        self.options = options; self.subcommands = subcommands; self.run = run
    }

    func helpText(path: String) -> String {
        var s = "\(summary)\n\nUsage: \(usage)\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        if !subcommands.isEmpty {
            s += "\nCommands:\n"
            let w = subcommands.map(\.name.count).max() ?? 0
            for c in subcommands { s += "  \(c.name.padding(toLength: w + 2, withPad: " ", startingAt: 0))\(c.summary)\n" }
            s += "\nSee '\(path) COMMAND --help' for one command's options.\n"
        }
        let all = options + [OptionSpec("--help", short: "-h", help: "Show this help.")]
        s += "\nOptions:\n"
        let labels = all.map { o in
            [o.short, o.name].compactMap { $0 }.joined(separator: ", ") + (o.valueName.map { " \($0)" } ?? "")
        }
        let w = min(28, labels.map(\.count).max() ?? 0)
        for (o, label) in zip(all, labels) {
            let pad = label.count >= w ? "\n" + String(repeating: " ", count: w + 4) : String(repeating: " ", count: w - label.count + 2)
            s += "  \(label)\(pad)\(o.help)\n"
        }
        return s
    }
}

/// The `receipts` command line. `main.swift` calls `CLI.main()`; tests call `CLI.run`.
public enum CLI {
    public static let version = "0.1.0"

    public static var commands: [Command] {
        [ParseCommand.command, BatchCommand.command, EvalCommand.command, RulesCommand.command,
         ListCommand.command, ShowCommand.command, EditCommand.command, ReviewCommand.command,
         ItemsCommand.command, ReconcileCommand.command, LinksCommand.command, ExportCommand.command, StoreCommand.command]
    }

    static var root: Command {
        Command(name: "receipts",
                summary: "receipts \(version): turns photos and scans of shop receipts into structured data (vendor, date, total, …).",
                usage: "receipts COMMAND [options] [arguments]",
                discussion: """
                Exit codes:
                \(ExitCode.allCases.map { "  \($0.rawValue)".padding(toLength: 6, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n"))

                Environment:
                  TESSDATA_PREFIX   a folder of .traineddata files searched first (the receipt model, eng, osd)
                  RECEIPTS_STORE    the store: a SQLite file or a postgres:// URL (default: $XDG_DATA_HOME/receipts/receipts.sqlite)
                  PGHOST, PGUSER, PGPASSWORD, …  libpq fills in what a postgres:// URL leaves out
                """,
                options: [OptionSpec("--version", help: "Print the version.")],
                subcommands: commands)
    }

    /// Runs one command line (without the program name) and returns the exit code.
    public static func run(_ args: [String], context: CommandContext) -> Int32 {
        let console = context.console
        var command = root
        var path = "receipts"
        var rest = args[...]
        // Walk down to the (sub)command named by the leading words.
        while !command.subcommands.isEmpty, let word = rest.first, !word.hasPrefix("-") {
            guard let sub = command.subcommands.first(where: { $0.name == word }) else {
                var msg = "unknown command '\(word)'"
                if let s = Arguments.suggestion(for: word, among: command.subcommands.map(\.name)) { msg += ". Did you mean '\(s)'?" }
                console.error("\(msg) (see '\(path) --help')")
                return ExitCode.usage.rawValue
            }
            command = sub
            path += " \(word)"
            rest = rest.dropFirst()
        }
        if rest.contains("--help") || rest.contains("-h") {
            console.outRaw(command.helpText(path: path))
            return ExitCode.ok.rawValue
        }
        if command.name == "receipts", rest.first == "--version" {
            console.out("receipts \(version)")
            return ExitCode.ok.rawValue
        }
        guard let run = command.run else {
            if let word = rest.first {
                var msg = word.hasPrefix("-") ? "unknown option '\(word)'" : "unknown command '\(word)'"
                let pool = word.hasPrefix("-") ? ["--help", "--version"] : command.subcommands.map(\.name)
                if let s = Arguments.suggestion(for: word, among: pool) { msg += ". Did you mean '\(s)'?" }
                console.error("\(msg) (see '\(path) --help')")
            } else {
                console.errRaw(command.helpText(path: path))
            }
            return ExitCode.usage.rawValue
        }
        do {
            let parsed = try Arguments.parse(Array(rest), specs: command.options)
            return try run(parsed, context).rawValue
        } catch {
            let code = ExitCode(for: error)
            console.error(code == .usage ? "\(error) (see '\(path) --help')" : "\(error)")
            return code.rawValue
        }
    }

    /// The command line without the program name, each argument's bytes kept (a file name that
    /// is not UTF-8 stays openable: `PathBytes`); `CommandLine.arguments` would replace them.
    static func arguments() -> [String] {
        (1..<Int(CommandLine.argc)).compactMap { i in
            CommandLine.unsafeArgv[i].map { p in PathBytes.string(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self), count: strlen(p))) }
        }
    }

    /// Entry point of the `receipts` executable.
    public static func main() -> Never {
        ProcessSetup.prepare()
        // A file-size limit (ulimit -f) reached by a store write: the write fails (SQLite: "database or
        // disk is full", rolled back, exit 5) instead of the signal killing the process mid-command.
        signal(SIGXFSZ, SIG_IGN)
        let interruption = Interruption()
        SignalHandling.install(interruption)
        let code = run(arguments(),
                       context: CommandContext(console: .standard(), interruption: interruption))
        exit(code)
    }
}

/// An error that ends a command with a given exit code and a message for stderr.
public struct CLIFailure: Error, Sendable, ReportableFailure, CustomStringConvertible {
    public var code: ExitCode
    public var message: String
    public init(_ code: ExitCode, _ message: String) { self.code = code; self.message = message }
    public var failureMessage: String { message }
    public var description: String { message }
}

extension ExitCode {
    /// The one place an error that ends a command becomes its exit code.
    public init(for error: Error) {
        switch error {
        case is UsageError: self = .usage
        case let e as CLIFailure: self = e.code
        case let e as EvalError: self = e.kind == .usage ? .usage : .inputError
        case let e as OCRError:
            switch e {
            case .missingLanguageData, .initFailed: self = .missingDependency
            case .recognitionFailed, .timedOut: self = .inputError
            }
        case let e as StoreError:
            switch e.category {
            case .request: self = .usage
            case .notFound: self = .inputError
            case .store: self = .storeError
            }
        default: self = .inputError
        }
    }
}
