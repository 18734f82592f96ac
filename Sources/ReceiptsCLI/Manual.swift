import Foundation
import ReceiptOCR

/// receipts(1), in mdoc: made from the same declarations as `--help` (every command, its
/// arguments and options, the exit codes, the environment), so the two cannot disagree.
/// `mandoc -Tlint` finds nothing to say about it (a test runs it).
enum Manual {
    /// The date the page carries: the release's, so the same binary always prints the same page.
    static let date = "November 25, 2026"

    /// Real command lines, each with what it does.
    static let examples: [(what: String, command: String)] = [
        ("Read two receipts and print what they say:", "receipts parse SampleReceipts/us-hardware-01.png SampleReceipts/uk-diy-01.png"),
        ("The same as JSON Lines, with the evidence of each value:", "receipts parse --json --explain scan.jpg"),
        ("A folder into the store, in parallel; run it again to resume:", "receipts batch ~/Scans/receipts --store receipts.sqlite"),
        ("What needs review, and why one receipt was read as it was:", "receipts list --status needs-review\nreceipts show 21 --annotate 21.png"),
        ("Correct a field (kept over later re-reads):", "receipts edit 21 --vendor \"RESTORAN NASI KANDAR\" --by sam"),
        ("Link receipts to the inventory, then export an hledger journal:",
         "receipts items import inventory.csv\nreceipts reconcile\nreceipts export --output receipts.journal"),
        ("Set the store and the date order once, and see where each setting comes from:",
         "mkdir -p ~/.config/receipts\nprintf 'store = ~/receipts.sqlite\\ndate-order = day-first\\n' > ~/.config/receipts/config\nreceipts config"),
        ("Completion for the running shell (bash; zsh and fish the same way):", "source <(receipts completion bash)"),
    ]

    static func page() -> String {
        var m = Roff()
        m.macro(#".\" receipts(1): made by `receipts man` from the option declarations; edit those, not this."#)
        m.macro(".Dd \(date)")
        m.macro(".Dt RECEIPTS 1")
        m.macro(".Os")
        m.macro(".Sh NAME")
        m.macro(".Nm receipts")
        m.macro(".Nd turn photos and scans of shop receipts into structured data")
        m.macro(".Sh SYNOPSIS")
        m.macro(".Nm"); m.macro(".Ar command"); m.macro(".Op Ar options"); m.macro(".Op Ar arguments")
        m.macro(".Nm"); m.macro(".Op Ar command"); m.macro(".Fl -help")
        m.macro(".Nm"); m.macro(".Fl -version")

        m.macro(".Sh DESCRIPTION")
        m.text("""
        receipts reads photos and scans of shop receipts (JPEG, PNG, TIFF, BMP, GIF, WebP, PNM, HEIC/HEIF, AVIF, PDF) \
        with Tesseract and says what each one holds: vendor, date, total, and also subtotal, tax, currency, time, receipt \
        number, payment method, card digits and line items. Each value comes with its confidence (0 to 1) and the line of \
        the receipt it was read from. Receipts go into a store (a SQLite file, or a PostgreSQL database), where they can be \
        listed, corrected, linked to the things they bought in an inventory, and exported.
        """)
        m.macro(".Pp")
        m.text("""
        Results go to standard output, everything else (errors, warnings, progress) to standard error. \
        Every command that prints results takes --json for one JSON object per result, keys sorted.
        """)
        m.macro(".Pp")
        m.text("""
        Settings (the store, the OCR model, the date order, the number of jobs, …) come from the command line, \
        else from the environment, else from the config file, else they are built in; \
        receipts config prints each one with its value and where it came from.
        """)

        m.macro(".Sh COMMANDS")
        m.macro(".Bl -tag -width Ds")
        for (path, c) in CLI.root.walk(path: "receipts").dropFirst() where c.run != nil {
            command(c, path: path, into: &m)
        }
        m.macro(".El")

        m.macro(".Sh ENVIRONMENT")
        m.macro(".Bl -tag -width Ds")
        for e in CLI.environment {
            m.macro(".It " + e.name.split(separator: ",").map { "Ev \($0.trimmingCharacters(in: .whitespaces))" }.joined(separator: " , "))
            m.text(e.meaning.prefix(1).uppercased() + e.meaning.dropFirst() + ".")
        }
        m.macro(".El")

        m.macro(".Sh FILES")
        m.macro(".Bl -tag -width Ds")
        m.macro(".It Pa $XDG_CONFIG_HOME/receipts/config")
        m.text("""
        The config file (~/.config/receipts/config when XDG_CONFIG_HOME is unset): one key = value a line, # for comments; \
        the keys are \(Setting.allCases.map(\.key).joined(separator: ", ")). See receipts config --help.
        """)
        m.macro(".It Pa $XDG_DATA_HOME/receipts/receipts.sqlite")
        m.text("The store when none is named (~/.local/share/receipts/receipts.sqlite when XDG_DATA_HOME is unset).")
        m.macro(".It Pa ../share/receipts/\(Tessdata.receiptModel).traineddata")
        m.text("""
        The receipt line model (--model \(Tessdata.receiptModel)), found beside the binary's bin folder, where make install \
        puts it; Tesseract's own models (--model eng) come from its packages.
        """)
        m.macro(".El")

        m.macro(".Sh EXIT STATUS")
        m.macro(".Bl -tag -width Ds")
        for code in ExitCode.allCases {
            m.macro(".It \(code.rawValue)")
            m.text(code.meaning.prefix(1).uppercased() + code.meaning.dropFirst() + ".")
        }
        m.macro(".El")

        m.macro(".Sh EXAMPLES")
        for (i, e) in examples.enumerated() {
            if i > 0 { m.macro(".Pp") }
            m.text(e.what)
            m.literal(e.command)
        }
        return m.out
    }

    /// One command: its synopsis as the item's head, then its summary, discussion, arguments and options.
    static func command(_ c: Command, path: String, into m: inout Roff) {
        let words = path.split(separator: " ").dropFirst().map { "Cm \($0)" }.joined(separator: " ")
        var head = ".It Nm \(words)"
        if !c.options.isEmpty { head += " Oo Ar options Oc" }
        if let a = c.arguments {
            switch a.count {
            case .none: break
            case .one: head += " Ar \(a.name)"
            case .atLeastOne: head += " Ar \(a.name) ..."
            case .any: head += " Op Ar \(a.name) ..."
            }
        }
        m.macro(head)
        m.text(c.summary)
        if !c.discussion.isEmpty { m.macro(".Pp"); m.prose(c.discussion) }
        guard !c.options.isEmpty || c.arguments.map({ !$0.help.isEmpty }) == true else { return }
        m.macro(".Bl -tag -width Ds")
        if let a = c.arguments, !a.help.isEmpty {
            m.macro(".It Ar \(a.name)")
            m.text(a.help)
        }
        for o in c.options {
            var item = ".It " + ([o.short.map { "Fl \($0.dropFirst())" }, "Fl \(o.name.dropFirst())"].compactMap { $0 }.joined(separator: " , "))
            if let v = o.valueName { item += " Ar \(v)" }
            m.macro(item)
            m.text(o.help)
            if case .oneOf(let words) = o.kind, !words.allSatisfy(o.help.contains) {
                m.text("One of: \(words.joined(separator: ", ")).")
            }
            if let s = o.setting { m.text("Setting: \(s.key) in the config file, \(s.environment) in the environment.") }
        }
        m.macro(".El")
    }
}

/// mdoc text as mandoc -Tlint wants it: one sentence a line, lines of at most 80 bytes,
/// backslashes escaped, no text line that starts like a request.
struct Roff {
    var out = ""

    mutating func macro(_ line: String) { out += line + "\n" }

    /// Running text: each sentence on lines of its own.
    mutating func text(_ s: String) {
        for sentence in Self.sentences(s) {
            for line in Self.wrap(sentence) { out += Self.escape(line) + "\n" }
        }
    }

    /// Lines shown as they are.
    mutating func literal(_ s: String) {
        macro(".Bd -literal -offset indent")
        for line in s.split(separator: "\n", omittingEmptySubsequences: false) { out += Self.escape(String(line)) + "\n" }
        macro(".Ed")
    }

    /// A discussion from `--help`: paragraphs of text, and indented lines (examples, tables) shown as they are.
    mutating func prose(_ s: String) {
        var paragraph: [String] = [], block: [String] = []
        func flush() {
            if !paragraph.isEmpty { text(paragraph.joined(separator: " ")); paragraph = [] }
            if !block.isEmpty { literal(block.map { String($0.dropFirst(2)) }.joined(separator: "\n")); block = [] }
        }
        for line in s.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.trimmingCharacters(in: .whitespaces).isEmpty {
                flush()
                macro(".Pp")
            } else if line.hasPrefix("  ") {
                if !paragraph.isEmpty { flush() }
                block.append(line)
            } else {
                if !block.isEmpty { flush() }
                paragraph.append(line)
            }
        }
        flush()
    }

    /// Sentences end at '.', '!' or '?' before a space and a capital (not after an abbreviation like "e.g.").
    static func sentences(_ s: String) -> [String] {
        let chars = Array(s)
        var out: [String] = [], current = ""
        var i = 0
        while i < chars.count {
            current.append(chars[i])
            if ".!?".contains(chars[i]), i + 2 < chars.count, chars[i + 1] == " ", chars[i + 2].isUppercase,
               i >= 2, chars[i - 1].isLetter || chars[i - 1].isNumber, chars[i - 2] != "." {
                out.append(current); current = ""; i += 2; continue
            }
            i += 1
        }
        if !current.isEmpty { out.append(current) }
        return out.map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// Words on lines of at most `width` bytes as mandoc counts them (a longer word stands alone).
    static func wrap(_ s: String, width: Int = 78) -> [String] {
        var lines: [String] = [], line = ""
        for word in s.split(separator: " ") {
            if !line.isEmpty, length(line) + 1 + length(word) > width { lines.append(line); line = "" }
            line += (line.isEmpty ? "" : " ") + word
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// mandoc reads a character beyond ASCII as its escape, `\[u2026]`, and counts that.
    static func length(_ s: some StringProtocol) -> Int {
        s.unicodeScalars.reduce(0) { $0 + ($1.isASCII ? 1 : $1.value > 0xFFFF ? 10 : 8) }
    }

    /// `\` as `\e`; a line that would start with '.' or '\'' (a request) behind `\&`.
    static func escape(_ line: String) -> String {
        let s = line.replacingOccurrences(of: "\\", with: "\\e")
        return s.hasPrefix(".") || s.hasPrefix("'") ? "\\&" + s : s
    }
}

/// `receipts man`: the manual page.
enum ManCommand {
    static let command = Command.printing(
        "man",
        summary: "Print the manual page, receipts(1), made from the same declarations as --help (man -l <(receipts man) shows it).",
        discussion: "make install writes it to share/man/man1/receipts.1.", Manual.page)
}
