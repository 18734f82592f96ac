import Foundation

/// `receipts config` options: every setting's option, as the commands that take it declare it.
struct ConfigArgs: ParsableArgs {
    /// The settings given on this command line, with the option that gave each.
    var given: [Setting: (value: String, option: String)] = [:]

    static let options = OptionGroup<ConfigArgs>(Setting.allCases.map { setting in
        let o = setting.option
        return Option(o.name, short: o.short, value: o.valueName, kind: o.kind, help: o.help) { a, v, spelled in
            try o.check(v, spelled)
            a.given[setting] = (v, spelled)
        }
    })
}

/// `receipts config`: every setting, its value, and where the value came from.
enum ConfigCommand {
    static let command = Command(
        name: "config",
        summary: "Show every setting (store, model, jobs, date order, …), its value and where it came from.",
        discussion: """
        A setting comes from the command line, else from the environment (RECEIPTS_STORE, …), else from
        the config file, else it is built in. The config file is --config FILE, else $RECEIPTS_CONFIG,
        else $XDG_CONFIG_HOME/receipts/config (~/.config/receipts/config when XDG_CONFIG_HOME is unset):
        one `key = value` a line, `#` for comments, values bare or "quoted" (as in TOML); a relative
        path is relative to the file's folder, ~/ is the home folder. A bad line is exit code 2, naming
        the file, the line and the key.

        Keys (and environment variables):
        \(Setting.allCases.map { "  \($0.key.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.environment.padding(toLength: 22, withPad: " ", startingAt: 0))\($0.option.name)" }.joined(separator: "\n"))

        Example (~/.config/receipts/config):
          store = ~/receipts/receipts.sqlite
          date-order = day-first
          currency = EUR
          jobs = 2

        Options given here show as they would for another command: `receipts config --store x.sqlite`.
        """,
        options: ConfigArgs.options, arguments: .none("config takes no arguments"), readsSettings: true, run: run)

    static func run(_ args: ConfigArgs, _ ctx: CommandContext) throws -> ExitCode {
        let settings = ctx.settings ?? Settings()
        if let file = settings.file {
            ctx.console.out("config file: \(file)\(settings.fileExists ? "" : " (not there: nothing read)")")
        } else {
            ctx.console.out("config file: none (neither XDG_CONFIG_HOME nor HOME is set)")
        }
        let rows: [(String, String, String)] = Setting.allCases.map { s in
            if let g = args.given[s] { return (s.key, g.value, Settings.Source.commandLine(option: g.option).description) }
            if let v = settings.values[s] { return (s.key, v.text, v.source.description) }
            return (s.key, s.builtIn(ctx.environment), Settings.Source.builtIn.description)
        }
        let kw = rows.map(\.0.count).max() ?? 0, vw = min(48, rows.map(\.1.count).max() ?? 0)
        for (k, v, from) in rows {
            ctx.console.out("\(StoreSupport.pad(k, kw))  \(StoreSupport.pad(v, vw))  \(from)")
        }
        return .ok
    }
}
