import Foundation
import ReceiptModel
import ReceiptOCR
import ReceiptStore
import Testing
@testable import ReceiptsCLI

/// Options declared once as typed values: parsing fills each command's structure, and the
/// help is made from the same declarations.
@Suite("options: declared once, parsed into typed values")
struct OptionTests {
    @Test func aCommandLineFillsTheStructure() throws {
        let a = try ParseArgs.options.parse(Tokens(["--json", "--psm=4", "a.png", "--date-order", "month-first", "--", "-b.png"],
                                                    options: ParseArgs.options.options.map(\.info)),
                                             arguments: ParseArgs.arguments, settings: nil)
        #expect(a.json && !a.explain)
        #expect(a.pipeline.layout == .singleColumn && a.pipeline.dateOrder == .monthFirst)
        #expect(a.files == ["a.png", "-b.png"])
        let b = try BatchArgs.options.parse(["--include", "*.jpg", "--include", "*.png", "-j", "3", "--reparse"])
        #expect(b.include == ["*.jpg", "*.png"] && b.jobs.jobs == 3 && b.reparse)
        let e = try EditArgs.options.parse(["--total", "12.30", "--clear", "tax", "--by", "sam"])
        #expect(e.changes == [FieldChange(field: .total, value: "12.30"), FieldChange(field: .tax, value: nil)] && e.by.by == "sam")
    }

    @Test(arguments: [
        (["--psm"], "--psm needs a value (N)"),
        (["--json=yes"], "--json takes no value"),
        (["--psm", "6", "--psm", "4"], "--psm given twice"),
        (["--lang", "eng", "--model", "receipt"], "--model and --lang name the same thing: give one"),
        (["--jsn"], "unknown option '--jsn'. Did you mean '--json'?"),
        (["--time-limit", "0"], "--time-limit takes a number, not '0'"),
        (["--max-pixels", "lots"], "--max-pixels takes a whole number (1…1000000000), not 'lots'"),
        (["--model", "../x"], "--model takes names like receipt, eng or eng+deu, not '../x'"),
        (["--currency", "euro"], "--currency takes a 3-letter ISO code such as EUR, not 'euro'"),
    ])
    func badCommandLinesAreUsageErrorsSayingWhy(_ args: [String], _ message: String) {
        #expect(throws: UsageError.self) { try ParseArgs.options.parse(args) }
        do { _ = try ParseArgs.options.parse(args) } catch { #expect("\(error)" == message) }
    }

    /// The checks that look at several options run after parsing, before the command.
    @Test func checksAcrossOptions() {
        func message(_ group: OptionGroup<some ParsableArgs>, _ args: [String]) -> String? {
            do { _ = try group.parse(args); return nil } catch { return "\(error)" }
        }
        #expect(message(ListArgs.options, ["--from", "2024-05-01", "--to", "2024-04-01"]) == "--to 2024-04-01 is before --from 2024-05-01")
        #expect(message(ListArgs.options, ["--min", "20", "--max", "10"]) == "--max 10.00 is below --min 20.00")
        #expect(message(EditArgs.options, ["--total", "1.00", "--clear", "total"]) == "--clear total and a new total value: give one")
        #expect(message(EditArgs.options, ["--undo", "tax", "--vendor", "X"]) == "--undo cannot be combined with new values; run edit twice")
        #expect(message(BatchArgs.options, []) == "no folders or files to read")
    }

    /// A shared group is declared once: list, export and review take the same filters (review
    /// without --status), parse, batch and eval the same pipeline options, every store command --store.
    @Test func sharedGroupsAreTheSameDeclarations() throws {
        let commands = CLI.root.walk(path: "receipts")
        func options(_ path: String) throws -> [String] { try #require(commands.first { $0.path == path }).command.options.map(\.name) }
        let filters = FilterArgs.group.options.map(\.info.name)
        for c in ["receipts list", "receipts export"] { #expect(Set(filters).isSubset(of: try options(c)), "\(c)") }
        #expect(Set(filters.filter { $0 != "--status" }).isSubset(of: try options("receipts review")))
        #expect(try !options("receipts review").contains("--status"))
        let pipeline = PipelineArgs.group.options.map(\.info.name)
        for c in ["receipts parse", "receipts batch", "receipts eval"] { #expect(Set(pipeline).isSubset(of: try options(c)), "\(c)") }
        for (path, c) in commands where c.run != nil && !["receipts parse", "receipts eval", "receipts rules", "receipts config", "receipts man"].contains(path) {
            #expect(c.options.contains { $0.name == "--store" }, "\(path) has no --store")
        }
    }

    /// No command spells two options the same, every option says what it does, and --help lists
    /// every option and the command's arguments.
    @Test func everyCommandsHelpListsItsDeclarations() {
        for (path, c) in CLI.root.walk(path: "receipts") {
            let names = c.options.flatMap { [$0.name] + [$0.short].compactMap { $0 } } + ["--help", "-h"]
            #expect(Set(names).count == names.count, "\(path): an option spelled twice: \(names)")
            let help = c.helpText(path: path)
            for o in c.options {
                #expect(!o.help.isEmpty, "\(path) \(o.name) has no help")
                #expect(help.contains(o.label), "\(path) --help lacks \(o.label)")
            }
            if let a = c.arguments { #expect(help.contains("Usage: \(path) [options] \(a.usage)"), "\(path): \(help.prefix(200))") }
            #expect(c.readsSettings == c.options.contains { $0.name == "--config" })
        }
    }
}
