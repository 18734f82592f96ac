import Foundation
import ReceiptOCR
import ReceiptStore

/// Shell completion scripts for bash, zsh and fish, made from the same declarations as `--help`:
/// the commands and subcommands, each command's options, the values an option takes when they are
/// a fixed set, files and folders where a value is one, and receipt and link ids and OCR models
/// asked of `receipts completion --values` while completing.
enum Completion {
    enum Shell: String, CaseIterable, Sendable { case bash, zsh, fish }

    /// Every command, with the path the scripts name it by ("receipts items import").
    static var commands: [(path: String, command: Command)] { CLI.root.walk(path: "receipts") }

    /// What completes a value of this kind, as a word the scripts switch on.
    static func kindWord(_ kind: ValueKind) -> String? {
        switch kind {
        case .flag, .number, .glob, .text: nil
        case .file, .store: "file"
        case .path: "path"
        case .directory: "directory"
        case .oneOf(let words): "oneOf:" + words.joined(separator: " ")
        case .model: "model"
        case .receipt: "receipt"
        case .link: "link"
        }
    }

    /// The help's first sentence, for the shells that show a description.
    static func summary(_ help: String) -> String {
        let s = Roff.sentences(help).first ?? help
        return s.hasSuffix(".") ? String(s.dropLast()) : s
    }

    static func script(_ shell: Shell) -> String {
        switch shell {
        case .bash: bash()
        case .zsh: zsh()
        case .fish: fish()
        }
    }

    /// `'…'` for bash and zsh.
    static func quoted(_ s: String) -> String { "'" + s.replacingOccurrences(of: "'", with: #"'\''"#) + "'" }

    /// The `case` pattern that matches a command's own words after its parent: 'receipts items'|'receipts links'.
    static var commandPattern: String {
        commands.dropFirst().map { quoted($0.path) }.joined(separator: "|")
    }

    static var header: String { "made by `receipts completion` (receipts \(CLI.version)) from the option declarations; do not edit" }

    // MARK: bash

    static func bash() -> String {
        var s = """
        # bash completion for receipts: \(header).
        # Load it with: source <(receipts completion bash)

        _receipts_subcommands() {
            case $1 in

        """
        for (path, c) in commands where !c.subcommands.isEmpty {
            s += "        \(quoted(path))) echo \(quoted(c.subcommands.map(\.name).joined(separator: " "))) ;;\n"
        }
        s += """
            esac
        }

        _receipts_options() {
            case $1 in

        """
        for (path, c) in commands {
            let names = (c.options + [Command.help]).flatMap { [$0.name] + [$0.short].compactMap { $0 } }
            s += "        \(quoted(path))) echo \(quoted(names.joined(separator: " "))) ;;\n"
        }
        s += """
            esac
        }

        # COMMAND OPTION: what the option's value is (nothing for a flag, or a value with nothing to offer).
        _receipts_kind() {
            case "$1 $2" in

        """
        for (path, c) in commands {
            for o in c.options where o.valueName != nil {
                guard let k = kindWord(o.kind) else { continue }
                let patterns = ([o.name] + [o.short].compactMap { $0 }).map { quoted("\(path) \($0)") }.joined(separator: "|")
                s += "        \(patterns)) echo \(quoted(k)) ;;\n"
            }
        }
        s += """
            esac
        }

        _receipts_argument() {
            case $1 in

        """
        for (path, c) in commands {
            if let a = c.arguments, let k = kindWord(a.kind) { s += "        \(quoted(path))) echo \(quoted(k)) ;;\n" }
        }
        s += """
            esac
        }

        # Receipt or link ids, or OCR models, from the program being completed (and the store named on the line).
        _receipts_values() {
            "$_receipts_prog" completion --values "$1" "${store[@]}" 2>/dev/null | cut -f1
        }

        # KIND: the completions of a value of that kind, for the word being completed ($cur).
        _receipts_complete() {
            case $1 in
                file|path)
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -f -- "$cur") ;;
                directory)
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -d -- "$cur") ;;
                oneOf:*) mapfile -t COMPREPLY < <(compgen -W "${1#oneOf:}" -- "$cur") ;;
                model) mapfile -t COMPREPLY < <(compgen -W "$(_receipts_values models)" -- "$cur") ;;
                link) mapfile -t COMPREPLY < <(compgen -W "$(_receipts_values links)" -- "$cur") ;;
                receipt)
                    compopt -o filenames 2>/dev/null
                    mapfile -t COMPREPLY < <(compgen -W "$(_receipts_values receipts)" -- "$cur"; compgen -f -- "$cur") ;;
                *) COMPREPLY=() ;;
            esac
        }

        _receipts() {
            local cur=${COMP_WORDS[COMP_CWORD]} prev= cmd=receipts i option kind
            local _receipts_prog=${COMP_WORDS[0]}
            local -a store=()
            COMPREPLY=()
            (( COMP_CWORD > 0 )) && prev=${COMP_WORDS[COMP_CWORD-1]}
            # The leading words that name a command and its subcommand.
            for (( i = 1; i < COMP_CWORD; i++ )); do
                case "$cmd ${COMP_WORDS[i]}" in
                    \(commandPattern)) cmd="$cmd ${COMP_WORDS[i]}" ;;
                    *) break ;;
                esac
            done
            # The store named on the line, for its receipt and link ids.
            for (( i = 1; i < COMP_CWORD; i++ )); do
                case ${COMP_WORDS[i]} in
                    --store) store=(--store "${COMP_WORDS[i+1]}") ;;
                    --store=*) store=("${COMP_WORDS[i]}") ;;
                esac
            done
            # The value of an option: `--psm 6`, or `--psm=6` (bash splits it at the '=').
            option=$prev
            if [[ $prev == = ]] && (( COMP_CWORD > 1 )); then option=${COMP_WORDS[COMP_CWORD-2]}; fi
            if [[ $cur == = ]]; then option=$prev; cur=; fi
            if [[ $option == -* ]]; then
                kind=$(_receipts_kind "$cmd" "$option")
                if [[ -n $kind ]]; then _receipts_complete "$kind"; return 0; fi
            fi
            if [[ $cur == -* ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$(_receipts_options "$cmd")" -- "$cur")
                return 0
            fi
            local subcommands
            subcommands=$(_receipts_subcommands "$cmd")
            if [[ -n $subcommands ]]; then
                mapfile -t COMPREPLY < <(compgen -W "$subcommands" -- "$cur")
                return 0
            fi
            _receipts_complete "$(_receipts_argument "$cmd")"
            return 0
        }

        complete -F _receipts receipts

        """
        return s
    }

    // MARK: zsh

    /// Text inside an `_arguments` description: brackets and backslashes escaped.
    static func zshDescription(_ s: String) -> String {
        summary(s).replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "[", with: "\\[").replacingOccurrences(of: "]", with: "\\]")
    }

    static func zshAction(_ kind: ValueKind) -> String {
        switch kind {
        case .file, .store, .path: "_files"
        case .directory: "_files -/"
        case .oneOf(let words): "(\(words.joined(separator: " ")))"
        case .model: "_receipts_values models model"
        case .receipt: "_receipts_values receipts receipt"
        case .link: "_receipts_values links link"
        case .flag, .number, .glob, .text: " "
        }
    }

    /// One option as `_arguments` takes it.
    static func zshSpecs(_ o: OptionInfo) -> [String] {
        let spellings = [o.short, o.name].compactMap { $0 }
        let exclusion = o.repeatable ? "*" : spellings.count > 1 || o.sameAs != nil
            ? "(\(([o.canonical] + [o.short].compactMap { $0 } + (o.sameAs == nil ? [] : [o.name])).joined(separator: " ")))" : ""
        return spellings.map { spelling in
            var spec = exclusion + spelling
            if let v = o.valueName {
                spec += spelling.hasPrefix("--") ? "=" : "+"
                spec += "[\(zshDescription(o.help))]:\(v.replacingOccurrences(of: ":", with: "\\:")):\(zshAction(o.kind))"
            } else {
                spec += "[\(zshDescription(o.help))]"
            }
            return quoted(spec)
        }
    }

    static func zsh() -> String {
        var s = """
        #compdef receipts
        # zsh completion for receipts: \(header).
        # Install it as _receipts in a folder on $fpath, or load it with: source <(receipts completion zsh)

        # KIND DESCRIPTION: receipt or link ids, or OCR models, from the program being completed.
        _receipts_values() {
            local -a values
            values=( ${(f)"$($_receipts_prog completion --values $1 $_receipts_store 2>/dev/null)"} )
            values=( ${values//$'\\t'/:} )
            _describe -t $1 $2 values
        }

        _receipts() {
            local _receipts_prog=${words[1]} cmd=receipts i=2 j
            local -a _receipts_store
            for (( j = 2; j < CURRENT; j++ )); do
                case ${words[j]} in
                    (--store) _receipts_store=(--store ${words[j+1]}) ;;
                    (--store=*) _receipts_store=(${words[j]}) ;;
                esac
            done
            # The leading words that name a command and its subcommand; _arguments then sees the rest.
            while (( i < CURRENT )); do
                case "$cmd ${words[i]}" in
                    (\(commandPattern)) cmd="$cmd ${words[i]}"; (( i++ )) ;;
                    (*) break ;;
                esac
            done
            (( CURRENT -= i - 2 ))
            words=( ${words[1]} ${words[i,-1]} )
            case $cmd in

        """
        for (path, c) in commands {
            s += "        (\(quoted(path))"
            let options = (c.options + [Command.help]).flatMap(zshSpecs).joined(separator: " \\\n                ")
            if !c.subcommands.isEmpty {
                let subs = c.subcommands.map { quoted("\($0.name):\(summary($0.summary).replacingOccurrences(of: ":", with: "\\:"))") }
                s += """
                )
                            if [[ ${words[CURRENT]} == -* ]]; then
                                _arguments -s : \\
                                    \(options)
                            else
                                local -a commands=(\(subs.joined(separator: " ")))
                                _describe -t commands 'receipts command' commands
                            fi ;;

                """
            } else {
                var specs = options
                if let a = c.arguments, case let count = a.count {
                    let repeated: String
                    switch count {
                    case .none: repeated = ""
                    case .one: repeated = "1"
                    case .atLeastOne, .any: repeated = "*"
                    }
                    if !repeated.isEmpty {
                        specs += " \\\n                " + quoted("\(repeated):\(a.name.replacingOccurrences(of: ":", with: "\\:")):\(zshAction(a.kind))")
                    }
                }
                s += """
                )
                            _arguments -s -S : \\
                                \(specs) ;;

                """
            }
        }
        s += """
            esac
        }

        if [ "$funcstack[1]" = "_receipts" ]; then
            _receipts "$@"
        else
            compdef _receipts receipts
        fi

        """
        return s
    }

    // MARK: fish

    /// `'…'` for fish: backslashes and quotes escaped.
    static func fishQuoted(_ s: String) -> String {
        "'" + s.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// What follows `complete` for an option's value (`-r`: the option takes one) or a command's arguments.
    static func fishValues(_ kind: ValueKind, option: Bool) -> String {
        let r = option ? "-r " : ""
        return switch kind {
        case .file, .store, .path: r + "-F"
        case .directory: "-x -a '(__fish_complete_directories (commandline -ct))'"
        case .oneOf(let words): "-x -a \(fishQuoted(words.joined(separator: " ")))"
        case .model: "-x -a '(__receipts_values models)'"
        case .receipt: r + "-a '(__receipts_values receipts)' -F"
        case .link: "-x -a '(__receipts_values links)'"
        case .flag, .number, .glob, .text: "-x"
        }
    }

    static func fish() -> String {
        var s = """
        # fish completion for receipts: \(header).
        # Install it as receipts.fish in a completions folder, or load it with: receipts completion fish | source

        # The command named so far: receipts, receipts items, receipts items import, …
        function __receipts_command
            set -l cmd receipts
            for w in (commandline -opc)[2..-1]
                switch "$cmd $w"
                    case \(commands.dropFirst().map { fishQuoted($0.path) }.joined(separator: " "))
                        set cmd "$cmd $w"
                    case '*'
                        break
                end
            end
            echo $cmd
        end

        function __receipts_is --argument-names wanted
            test (__receipts_command) = "$wanted"
        end

        # Receipt or link ids, or OCR models, from the program being completed (and the store named on the line).
        function __receipts_values --argument-names kind
            set -l words (commandline -opc)
            set -l store
            for i in (seq (count $words))
                if test "$words[$i]" = --store; and test $i -lt (count $words)
                    set store --store $words[(math $i + 1)]
                else if string match -q -- '--store=*' $words[$i]
                    set store $words[$i]
                end
            end
            $words[1] completion --values $kind $store 2>/dev/null
        end

        complete -c receipts -f

        """
        for (path, c) in commands {
            let when = "-n " + fishQuoted("__receipts_is \(quoted(path))")
            for sub in c.subcommands {
                s += "complete -c receipts \(when) -a \(fishQuoted(sub.name)) -d \(fishQuoted(summary(sub.summary)))\n"
            }
            for o in c.options + [Command.help] {
                var line = "complete -c receipts \(when)"
                if let short = o.short { line += " -s \(short.dropFirst())" }
                line += " -l \(o.name.dropFirst(2))"
                if o.valueName != nil { line += " " + fishValues(o.kind, option: true) }
                s += line + " -d \(fishQuoted(summary(o.help)))\n"
            }
            if let a = c.arguments, kindWord(a.kind) != nil {
                s += "complete -c receipts \(when) \(fishValues(a.kind, option: false))\n"
            }
        }
        return s
    }

    // MARK: values asked while completing

    /// OCR models: the receipt model, then every Tesseract language found where models are looked for.
    static func models(environment: [String: String]) -> [String] {
        var seen: Set<String> = [Tessdata.receiptModel]
        var out = ["\(Tessdata.receiptModel)\tthe receipt line model"]
        for dir in Tessdata.candidates(environment: environment) {
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".traineddata") }.sorted()
            for n in names {
                let lang = String(n.dropLast(".traineddata".count))
                guard lang != "osd", seen.insert(lang).inserted else { continue }
                out.append("\(lang)\tTesseract model in \(dir)")
            }
        }
        return out
    }
}

/// `receipts completion` options.
struct CompletionArgs: ParsableArgs {
    var store = StoreArgs()
    var values: String?
    var shell: [String] = []

    static let kinds = ["receipts", "links", "models"]

    static let options = OptionGroup<CompletionArgs>([
        .value("--values", value: "KIND", \.values, kind: .oneOf(kinds),
               help: "Print the values the scripts offer while completing (receipts or links: ids from the store, with what each is; models: the OCR models here), one a line.",
               expected: kinds.joined(separator: ", ")) { kinds.contains($0) ? $0 : nil },
    ], checks: [{ a in
        if a.values != nil, !a.shell.isEmpty { throw UsageError("--values takes no shell") }
        if a.values == nil, a.shell.count != 1 { throw UsageError("completion takes one shell: bash, zsh or fish") }
        if let sh = a.shell.first, Completion.Shell(rawValue: sh) == nil { throw UsageError("completion takes bash, zsh or fish, not '\(sh)'") }
    }]) + StoreArgs.group.embedded(in: \.store).withoutSettings()
}

/// `receipts completion bash|zsh|fish`: the completion script for a shell.
enum CompletionCommand {
    static let command = Command(
        name: "completion",
        summary: "Print the shell completion script for bash, zsh or fish, made from the same declarations as --help.",
        discussion: """
        Load it into the running shell:
          source <(receipts completion bash)
          source <(receipts completion zsh)
          receipts completion fish | source
        make install puts the three scripts where each shell looks (share/bash-completion/completions,
        share/zsh/vendor-completions or site-functions, share/fish/vendor_completions.d).
        The scripts complete commands, options, the values of options that take a fixed set, files
        and folders, OCR models, and receipt and link ids from the store (asked of receipts completion --values).
        """,
        options: CompletionArgs.options,
        arguments: Positionals("SHELL", kind: .oneOf(Completion.Shell.allCases.map(\.rawValue)), count: .any,
                               help: "bash, zsh or fish.", \.shell),
        run: run)

    static func run(_ args: CompletionArgs, _ ctx: CommandContext) throws -> ExitCode {
        guard let kind = args.values else {
            ctx.console.outRaw(Completion.script(Completion.Shell(rawValue: args.shell[0])!))
            return .ok
        }
        if kind == "models" {
            for m in Completion.models(environment: ctx.environment) { ctx.console.out(m) }
            return .ok
        }
        // The store named, else the one the settings name (a bad config file does not stop completion:
        // this command reads no settings up front, so that making a script never depends on them).
        var named = args.store
        if named.store == nil { named.store = (try? Settings.load(explicitFile: nil, environment: ctx.environment))?.values[.store]?.text }
        // Only a store that is there: completing never makes one.
        let store = try StoreSupport.open(named, ctx)
        if kind == "receipts" {
            for r in try StoreSupport.attempt("reading receipts", { try store.listReceipts(ReceiptFilter()) }) {
                let what = [r.date?.iso, r.vendor, r.total.map { "\($0)" + (r.currency.map { " \($0)" } ?? "") }].compactMap { $0 }
                ctx.console.out("\(r.id.rawValue)\t\(what.isEmpty ? StoreSupport.file(r.files.first) : what.joined(separator: " "))")
            }
        } else {
            for l in try StoreSupport.attempt("reading links", { try store.links() }) {
                ctx.console.out("\(l.id.rawValue)\t\(l.status.rawValue): receipt \(l.receiptID.rawValue) ↔ item \(l.itemID.rawValue)")
            }
        }
        return .ok
    }
}
