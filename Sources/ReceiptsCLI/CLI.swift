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
    /// What the environment and the config file set, read for the commands that take settings.
    public var settings: Settings?

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

/// One `receipts` command (or a group of subcommands, such as `items`), as the help, the man page
/// and completion see it, with the one closure that parses its command line and runs it.
public struct Command: Sendable {
    public var name: String
    public var summary: String
    public var discussion: String
    /// Every option, as declared (`--help` aside); `--config` too when the command reads settings.
    public var options: [OptionInfo]
    public var arguments: ArgumentInfo?
    public var subcommands: [Command]
    /// Reads the settings (environment, config file) for the options the command line leaves out.
    public var readsSettings: Bool
    var run: (@Sendable ([String], CommandContext) throws -> ExitCode)?

    /// A group of subcommands (`items`, `links`, `store`); `options` are the ones the group itself
    /// answers before any subcommand (`receipts --version`).
    init(name: String, summary: String, discussion: String = "", options: [OptionInfo] = [], subcommands: [Command]) {
        self.name = name; self.summary = summary; self.discussion = discussion
        self.options = options; arguments = nil; self.subcommands = subcommands; readsSettings = false; run = nil
    }

    /// A command that runs: its options fill an `O`, which `run` gets.
    init<O: ParsableArgs>(name: String, summary: String, discussion: String = "", options: OptionGroup<O> = OptionGroup([]),
                          arguments: Positionals<O>, readsSettings: Bool = false,
                          run: @escaping @Sendable (O, CommandContext) throws -> ExitCode) {
        let settings = readsSettings || options.options.contains { $0.info.setting != nil }
        let all = settings ? options + OptionGroup([Self.configOption()]) : options
        self.name = name; self.summary = summary; self.discussion = discussion
        self.options = all.options.map(\.info)
        self.arguments = arguments.path == nil ? nil : arguments.info
        subcommands = []
        self.readsSettings = settings
        self.run = { args, context in
            let tokens = try Tokens(args, options: all.options.map(\.info))
            var context = context
            if settings { context.settings = try Settings.load(explicitFile: tokens.value(of: "--config"), environment: context.environment) }
            return try run(try all.parse(tokens, arguments: arguments, settings: context.settings), context)
        }
    }

    /// A command that takes nothing and prints a text (`rules`, `man`).
    static func printing(_ name: String, summary: String, discussion: String, _ text: @escaping @Sendable () -> String) -> Command {
        Command(name: name, summary: summary, discussion: discussion, arguments: Positionals<NoArgs>.none("\(name) takes no arguments")) { _, ctx in
            ctx.console.outRaw(text())
            return .ok
        }
    }

    /// `--config FILE`: read before the other options, so it sets nothing itself.
    static func configOption<O: ParsableArgs>() -> Option<O> {
        Option("--config", value: "FILE", kind: .file,
               help: "Read settings from FILE instead of $RECEIPTS_CONFIG or $XDG_CONFIG_HOME/receipts/config (see `receipts config`).") { _, _, _ in }
    }

    /// "receipts parse [options] FILE..."
    func usage(path: String) -> String {
        if !subcommands.isEmpty { return "\(path) COMMAND [options] [arguments]" }
        return ([path] + (options.isEmpty ? [] : ["[options]"]) + [arguments?.usage].compactMap { $0 }).joined(separator: " ")
    }

    func helpText(path: String) -> String {
        var s = "\(summary)\n\nUsage: \(usage(path: path))\n"
        if !discussion.isEmpty { s += "\n\(discussion)\n" }
        if !subcommands.isEmpty {
            s += "\nCommands:\n"
            let w = subcommands.map(\.name.count).max() ?? 0
            for c in subcommands { s += "  \(c.name.padding(toLength: w + 2, withPad: " ", startingAt: 0))\(c.summary)\n" }
            s += "\nSee '\(path) COMMAND --help' for one command's options.\n"
        }
        if let a = arguments, !a.help.isEmpty { s += "\nArguments:\n" + Self.rows([(a.usage, a.help)]) }
        s += "\nOptions:\n" + Self.rows((options + [Self.help]).map { ($0.label, $0.help) })
        return s
    }

    /// Label and help in two columns, the help on its own line under a long label.
    static func rows(_ rows: [(String, String)]) -> String {
        let w = min(28, rows.map(\.0.count).max() ?? 0)
        return rows.map { label, help in
            let pad = label.count > w ? "\n" + String(repeating: " ", count: w + 4) : String(repeating: " ", count: w - label.count + 2)
            return "  \(label)\(pad)\(help)\n"
        }.joined()
    }

    /// `-h, --help`, which every command takes.
    static let help = Option<NoArgs>.flag("--help", short: "-h", \.never, help: "Show this help.").info

    /// The command at the end of `path` ("items import"), or nil.
    func find(_ path: [String]) -> Command? {
        guard let first = path.first else { return self }
        return subcommands.first { $0.name == first }?.find(Array(path.dropFirst()))
    }

    /// This command and every command under it, with their paths ("receipts items import").
    func walk(path: String) -> [(path: String, command: Command)] {
        [(path, self)] + subcommands.flatMap { $0.walk(path: "\(path) \($0.name)") }
    }
}

extension NoArgs {
    /// A flag with nowhere to go (`--help` is answered before any parsing).
    var never: Bool { get { false } set {} }
}

/// The `receipts` command line. `main.swift` calls `CLI.main()`; tests call `CLI.run`.
public enum CLI {
    public static let version = "0.1.0"

    public static let commands: [Command] = [
        ParseCommand.command, BatchCommand.command, EvalCommand.command, RulesCommand.command,
        ListCommand.command, ShowCommand.command, EditCommand.command, ReviewCommand.command, ShopsCommand.command,
        ItemsCommand.command, ReconcileCommand.command, LinksCommand.command, ExportCommand.command, StoreCommand.command,
        ConfigCommand.command, CompletionCommand.command, ManCommand.command,
    ]

    /// What `receipts --help` and the man page say about the environment.
    static let environment: [(name: String, meaning: String)] = [
        ("RECEIPTS_CONFIG", "the config file (default: $XDG_CONFIG_HOME/receipts/config, else ~/.config/receipts/config)"),
    ] + Setting.allCases.map { ($0.environment, "the \($0.key) setting (\($0.option.name))") } + [
        ("TESSDATA_PREFIX", "a folder searched first for the OCR models (.traineddata)"),
        ("PGHOST, PGUSER, PGPASSWORD, …", "libpq fills in what a postgres:// URL leaves out"),
        ("RECEIPTS_INTERRUPT_GRACE", "seconds the work in flight may take to finish after Ctrl-C (default 10)"),
    ]

    public static let root = Command(
        name: "receipts",
        summary: "receipts \(version): turns photos and scans of shop receipts into structured data (vendor, date, total, …).",
        discussion: """
        Exit codes:
        \(ExitCode.allCases.map { "  \($0.rawValue)".padding(toLength: 6, withPad: " ", startingAt: 0) + $0.meaning }.joined(separator: "\n"))

        Environment:
        \(Command.rows(environment.map { ($0.name, $0.meaning) }).dropLast())

        Settings (store, model, jobs, date order, …) come from the command line, then the environment,
        then the config file, then the built-in defaults: `receipts config` shows each one and where it came from.
        """,
        options: [Option<NoArgs>.flag("--version", \.never, help: "Print the version.").info],
        subcommands: commands)

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
                if let s = Tokens.suggestion(for: word, among: command.subcommands.map(\.name)) { msg += ". Did you mean '\(s)'?" }
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
                if let s = Tokens.suggestion(for: word, among: pool) { msg += ". Did you mean '\(s)'?" }
                console.error("\(msg) (see '\(path) --help')")
            } else {
                console.errRaw(command.helpText(path: path))
            }
            return ExitCode.usage.rawValue
        }
        do {
            return try run(Array(rest), context).rawValue
        } catch {
            let code = ExitCode(for: error)
            // A bad setting names its file and line (or variable): the command's help would not help.
            console.error(code == .usage && !(error is ConfigError) ? "\(error) (see '\(path) --help')" : "\(error)")
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
        case is UsageError, is ConfigError: self = .usage
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
