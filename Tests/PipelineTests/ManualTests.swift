import Foundation
import ReceiptTestSupport
import Testing
@testable import ReceiptsCLI

/// receipts(1): made from the declarations, clean for mandoc's linter, and man shows it.
@Suite("man page")
struct ManualTests {
    static let page = Manual.page()

    func written() throws -> (TempDir, String) {
        let dir = try TempDir()
        let file = dir.file("receipts.1")
        try Self.page.write(toFile: file, atomically: true, encoding: .utf8)
        return (dir, file)
    }

    @Test func mandocLintFindsNothing() throws {
        let mandoc = try requiredTool("mandoc", package: "mandoc")
        let (dir, file) = try written()
        let r = try runProcess(mandoc, ["-Tlint", file])
        withExtendedLifetime(dir) {}
        #expect(r.code == 0 && r.out.isEmpty && r.err.isEmpty, "mandoc -Tlint: \(r.out)\(r.err)")
    }

    @Test func manShowsEverySection() throws {
        let man = try requiredTool("man", package: "man-db")
        let (dir, file) = try written()
        var env = ProcessInfo.processInfo.environment
        env["MANWIDTH"] = "80"; env["MANPAGER"] = "cat"; env["PAGER"] = "cat"
        let r = try runProcess(man, ["-l", file], environment: env)
        withExtendedLifetime(dir) {}
        #expect(r.code == 0, "\(r.err)")
        for section in ["NAME", "SYNOPSIS", "DESCRIPTION", "COMMANDS", "ENVIRONMENT", "FILES", "EXIT STATUS", "EXAMPLES"] {
            #expect(r.out.contains("\n\(section)\n"), "no \(section) section")
        }
        #expect(r.out.contains("receipts items import [options] FILE ..."))
    }

    /// The page lists what --help lists: every command with every option, every exit code, every variable.
    @Test func thePageHoldsEveryDeclaration() {
        let lines = Set(Self.page.split(separator: "\n").map(String.init))
        for (path, c) in CLI.root.walk(path: "receipts").dropFirst() where c.run != nil {
            let words = path.split(separator: " ").dropFirst().map { "Cm \($0)" }.joined(separator: " ")
            #expect(lines.contains { $0.hasPrefix(".It Nm \(words)") }, "\(path) is not in the page")
            for o in c.options {
                let item = ".It " + ([o.short.map { "Fl \($0.dropFirst())" }, "Fl \(o.name.dropFirst())"].compactMap { $0 }.joined(separator: " , "))
                    + (o.valueName.map { " Ar \($0)" } ?? "")
                #expect(lines.contains(item), "\(path) \(o.name): no '\(item)'")
            }
        }
        for code in ExitCode.allCases { #expect(lines.contains(".It \(code.rawValue)")) }
        for s in Setting.allCases { #expect(lines.contains(".It Ev \(s.environment)")) }
    }
}
