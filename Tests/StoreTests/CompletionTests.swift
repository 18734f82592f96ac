import Foundation
import ReceiptTestSupport
import Testing

/// `receipts completion bash|zsh|fish` in the real shells: the scripts load, and bash and fish
/// complete commands, options, fixed values, files, OCR models and the store's receipt ids.
@Suite("shell completion", .serialized)
struct CompletionTests {
    /// A folder to complete in (a file, a folder, a store with two receipts) and the environment
    /// the shells run with: the built `receipts` first on PATH, a home of their own.
    struct Scene {
        let tmp: TempDir
        let env: [String: String]
        let receipts: String
        init(name: String = #function) throws {
            tmp = try TempDir(name)
            receipts = try #require(Repo.executable("receipts"), "build the receipts executable first (swift build)")
            _ = FileManager.default.createFile(atPath: tmp.path("a-scan.png"), contents: Data())
            try FileManager.default.createDirectory(atPath: tmp.path("scans"), withIntermediateDirectories: true)
            let store = try openStore(tmp.path("s.sqlite"))
            try save(store, try parsedFromSidecar("us-hardware-01"), hash: "h", path: "us-hardware-01.png")
            try save(store, try parsedFromSidecar("de-moebel-01"), hash: "m", path: "de-moebel-01.png")
            _ = try store.checkpoint()
            let bin = (receipts as NSString).deletingLastPathComponent
            env = ["PATH": bin + ":/usr/bin:/bin", "HOME": tmp.url.path, "XDG_CONFIG_HOME": tmp.path(".config"),
                   "XDG_DATA_HOME": tmp.path(".local/share"), "OMP_THREAD_LIMIT": "1", "LANG": "C.UTF-8"]
        }

        /// Runs `shell` with `args` in the scene's folder.
        func run(_ shell: String, _ args: [String]) throws -> ProcessOutput {
            try runProcess(shell, args, environment: env, currentDirectory: tmp.url.path)
        }
    }

    @Test func bashLoadsAndCompletes() throws {
        let bash = try requiredTool("bash", package: "bash")
        let scene = try Scene()
        let cases: [([String], [String])] = [
            (["receipts", "pa"], ["parse"]),
            (["receipts", "parse", "--ps"], ["--psm"]),
            (["receipts", "parse", "--psm", ""], ["3", "4", "6", "7", "8", "11"]),
            (["receipts", "parse", "--date-order", "=", "m"], ["month-first"]),
            (["receipts", "export", "--format", ""], ["csv", "json", "ledger"]),
            (["receipts", "list", "--status", ""], ["parsed", "needs-review", "corrected", "duplicate"]),
            (["receipts", "items", ""], ["import", "list"]),
            (["receipts", "links", "con"], ["confirm"]),
            (["receipts", "parse", "a-"], ["a-scan.png"]),
            (["receipts", "batch", "--ocr-cache", "sc"], ["scans"]),
            (["receipts", "parse", "--model", "e"], ["eng"]),
            (["receipts", "show", "--store", "s.sqlite", "1"], ["1"]),
            (["receipts", "show", "--store=s.sqlite", "2"], ["2"]),
            (["receipts", "edit", "--store", "s.sqlite", "--clear", "ta"], ["tax"]),
        ]
        // Each case as bash completion calls the function: COMP_WORDS and COMP_CWORD set, COMPREPLY read.
        var script = "source <(receipts completion bash) || exit 9\ncomplete -p receipts\n"
        for (words, _) in cases {
            script += "COMP_WORDS=(\(words.map { "'\($0)'" }.joined(separator: " "))); COMP_CWORD=\(words.count - 1); COMPREPLY=(); _receipts\n"
            script += "printf '%s\\n' \"${COMPREPLY[*]}\"\n"
        }
        let r = try scene.run(bash, ["--norc", "--noprofile", "-c", script])
        #expect(r.code == 0 && r.err.isEmpty, "\(r.err)")
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "complete -F _receipts receipts")
        for (i, (words, expected)) in cases.enumerated() {
            let got = i + 1 < lines.count ? lines[i + 1].split(separator: " ").map(String.init) : []
            #expect(Set(expected).isSubset(of: got), "\(words.joined(separator: " ")): got \(got)")
        }
        // The store's receipt ids (no file name starts with a digit here).
        #expect(lines.count > 12 && lines[12] == "1", "\(lines)")
    }

    @Test func zshLoadsBothWays() throws {
        let zsh = try requiredTool("zsh", package: "zsh")
        let scene = try Scene()
        // Sourced into a running shell…
        let sourced = try scene.run(zsh, ["-f", "-c", """
            autoload -Uz compinit && compinit -u -D || exit 9
            source <(receipts completion zsh) || exit 8
            print -r -- "$_comps[receipts] $+functions[_receipts] $+functions[_receipts_values]"
            """])
        #expect(sourced.code == 0 && sourced.err.isEmpty, "\(sourced.err)")
        #expect(sourced.out == "_receipts 1 1\n")
        // …and installed as _receipts in a folder on $fpath, found by its #compdef line.
        let dir = scene.tmp.path("zfunc")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let script = try scene.run(try requiredTool("sh", package: "dash"), ["-c", "receipts completion zsh"])
        try script.out.write(toFile: dir + "/_receipts", atomically: true, encoding: .utf8)
        let installed = try scene.run(zsh, ["-f", "-c", "fpath=(\(dir) $fpath); autoload -Uz compinit && compinit -u -D; print -r -- $_comps[receipts]; zsh -n \(dir)/_receipts"])
        #expect(installed.code == 0 && installed.err.isEmpty, "\(installed.err)")
        #expect(installed.out == "_receipts\n")
    }

    @Test func fishLoadsAndCompletes() throws {
        let fish = try requiredTool("fish", package: "fish")
        let scene = try Scene()
        func complete(_ line: String) throws -> [String] {
            let r = try scene.run(fish, ["--no-config", "-c", "receipts completion fish | source; or exit 9; complete -C '\(line)'"])
            #expect(r.code == 0 && r.err.isEmpty, "\(line): \(r.err)")
            return r.out.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        }
        #expect(try complete("receipts pa") == ["parse"])
        #expect(try complete("receipts items ") == ["import", "list"])
        #expect(try complete("receipts parse --ps") == ["--psm"])
        #expect(try Set(complete("receipts list --status ")) == ["parsed", "needs-review", "corrected", "duplicate"])
        #expect(try complete("receipts export --format ").sorted() == ["csv", "json", "ledger"])
        #expect(try complete("receipts parse a-") == ["a-scan.png"])
        #expect(try Set(complete("receipts parse --model ")).isSuperset(of: ["receipt", "eng"]))
        let ids = try complete("receipts show --store s.sqlite ")
        #expect(ids.starts(with: ["1", "2"]) && ids.contains("a-scan.png"), "\(ids)")
    }
}
