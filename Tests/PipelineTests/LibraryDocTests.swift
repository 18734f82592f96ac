import Foundation
import Testing

/// docs/library.md shows the example that `make test` builds and runs, as it is.
@Suite("docs/library.md")
struct LibraryDocTests {
    /// The page's fenced code blocks, without their fences.
    static func blocks(_ text: String) -> [String] {
        var out: [String] = [], current: [Substring]?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") {
                if let c = current { out.append(c.joined(separator: "\n") + "\n"); current = nil } else { current = [] }
            } else {
                current?.append(line)
            }
        }
        return out
    }

    @Test(arguments: ["Examples/embed/Sources/embed/main.swift", "Examples/embed/Package.swift"])
    func thePageShowsTheExampleFile(_ file: String) throws {
        let page = try String(contentsOfFile: Repo.path("docs/library.md"), encoding: .utf8)
        let source = try String(contentsOfFile: Repo.path(file), encoding: .utf8)
        #expect(Self.blocks(page).contains(source), "docs/library.md does not show \(file) as it is")
    }
}
