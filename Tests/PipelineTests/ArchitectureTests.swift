import Foundation
import Testing

/// docs/architecture.md's rules of the house, checked against the tree: every module in
/// `Sources/` has its row in the layout and in "what may import what", every file imports only
/// what its module may, and C is called only from the files the doc names.
@Suite("Architecture: the rules of the house hold")
struct ArchitectureTests {
    static let doc = (try? String(contentsOfFile: Repo.path("docs/architecture.md"), encoding: .utf8)) ?? ""
    /// Imports every module may use.
    static let always: Set<String> = ["Foundation", "Glibc", "Synchronization", "Dispatch", "Testing"]

    /// Module folders under Sources/.
    static var modules: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Repo.path("Sources"))) ?? []).filter { name in
            var dir: ObjCBool = false
            return FileManager.default.fileExists(atPath: Repo.path("Sources/\(name)"), isDirectory: &dir) && dir.boolValue
        }.sorted()
    }

    /// "may import" from the doc's table: module → allowed modules ("every Receipt* …" → nil: anything of ours).
    static func allowed() -> [String: Set<String>?] {
        var out: [String: Set<String>?] = [:]
        guard let start = doc.range(of: "| module | may import |") else { return out }
        for line in doc[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count >= 2 else { continue }
            let names = cells[0].split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }
            let may: Set<String>? = cells[1].hasPrefix("every") ? nil
                : Set(cells[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { $0.first?.isLetter == true && !$0.hasPrefix("(") })
            for n in names { out[n] = may }
        }
        return out
    }

    /// The modules a Swift file imports (`import X`, `internal import X`, `@testable import X`).
    static func imports(_ file: String) -> Set<String> {
        let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
        var out: Set<String> = []
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let i = words.firstIndex(of: "import"), i + 1 < words.count,
                  words[..<i].allSatisfy({ ["internal", "public", "private", "@testable", "@_implementationOnly"].contains($0) }) else { continue }
            out.insert(String(words[i + 1]))
        }
        return out.subtracting(always)
    }

    static func swiftFiles(in module: String) -> [String] {
        let root = Repo.path("Sources/\(module)")
        let all = FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []
        return all.filter { $0.hasSuffix(".swift") }.sorted().map { root + "/" + $0 }
    }

    @Test func everyModuleHasItsRowsInTheDoc() {
        #expect(!Self.modules.isEmpty)
        let allowed = Self.allowed()
        #expect(allowed.count > 10, "the doc's 'may import' table was not found")
        for m in Self.modules {
            #expect(Self.doc.contains("`Sources/\(m)/"), "docs/architecture.md: no row for Sources/\(m)/ in the layout")
            #expect(allowed.keys.contains(m), "docs/architecture.md: \(m) is missing from 'what may import what'")
        }
    }

    @Test func everyFileImportsOnlyWhatItsModuleMay() {
        let allowed = Self.allowed()
        let ours = Set(Self.modules)
        for m in Self.modules {
            guard let entry = allowed[m] else { continue }  // reported by the test above
            for file in Self.swiftFiles(in: m) {
                let used = Self.imports(file)
                if let may = entry {
                    let extra = used.subtracting(may)
                    #expect(extra.isEmpty, "\(file) imports \(extra.sorted()), which \(m) may not (docs/architecture.md)")
                } else {
                    let foreign = used.filter { !ours.contains($0) && !$0.hasPrefix("C") }
                    #expect(foreign.isEmpty, "\(file) imports \(foreign.sorted()), which is no module of ours")
                }
            }
        }
    }

    /// C modules are imported only where the doc says, `internal` (never re-exported to users of the module).
    @Test func cIsCalledOnlyWhereTheDocSays() {
        let cWrappers: Set<String> = [
            "ReceiptIngest/Leptonica.swift", "ReceiptIngest/HEIFDecoder.swift", "ReceiptIngest/PDFDecoder.swift",
            "ReceiptOCR/TesseractEngine.swift", "ReceiptStore/SQLite.swift", "ReceiptStore/Postgres.swift",
        ]
        var found: Set<String> = []
        for m in Self.modules {
            for file in Self.swiftFiles(in: m) where Self.imports(file).contains(where: { $0.count > 1 && $0.first == "C" && $0.dropFirst().first!.isUppercase }) {
                let rel = String(file.dropFirst(Repo.path("Sources").count + 1))
                found.insert(rel)
                let text = (try? String(contentsOfFile: file, encoding: .utf8)) ?? ""
                #expect(!text.contains("\nimport C") && !text.hasPrefix("import C"), "\(rel): a C module imported without `internal`")
            }
        }
        #expect(found == cWrappers, "C is imported by \(found.sorted()); docs/architecture.md allows \(cWrappers.sorted())")
        for f in cWrappers { #expect(Self.doc.contains(String(f.split(separator: "/").last!)), "docs/architecture.md does not name \(f)") }
    }
}
