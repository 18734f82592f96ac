import Foundation
import ReceiptStore
@testable import ReceiptsCLI
import Testing

/// The config file and the environment, under the command line: each command sees one value,
/// and `receipts config` says where it came from.
@Suite("config file, environment, command line")
struct ConfigTests {
    /// A home with `$XDG_CONFIG_HOME/receipts/config` holding `text`.
    struct Home {
        let tmp: TempDir
        let file: String
        var env: [String: String] { ["HOME": tmp.url.path, "XDG_CONFIG_HOME": tmp.path("config")] }
        init(_ text: String, name: String = #function) throws {
            tmp = try TempDir(name)
            try FileManager.default.createDirectory(atPath: tmp.path("config/receipts"), withIntermediateDirectories: true)
            file = try tmp.write("config/receipts/config", text)
        }
    }

    /// `receipts config` as rows: key → (value, where from).
    func settings(_ args: [String] = [], env: [String: String]) throws -> [String: (value: String, from: String)] {
        let r = cli(["config"] + args, env: env)
        #expect(r.code == 0, "\(r.err)")
        var rows: [String: (String, String)] = [:]
        for line in r.out.split(separator: "\n").dropFirst() {
            let cells = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard let key = cells.first, Setting(rawValue: key) != nil else { continue }
            // The value and its source are separated by two spaces or more.
            let parts = line.dropFirst(key.count).trimmingCharacters(in: .whitespaces).components(separatedBy: "  ").filter { !$0.isEmpty }
            rows[key] = (parts.first ?? "", parts.dropFirst().joined().trimmingCharacters(in: .whitespaces))
        }
        return rows
    }

    @Test func storeFromTheFileThenTheEnvironmentThenTheCommandLine() throws {
        let home = try Home("# where my receipts live\nstore = receipts.sqlite   # beside this file\ndate-order = \"day-first\"\n")
        let inFile = home.tmp.path("config/receipts/receipts.sqlite")
        var s = try settings(env: home.env)
        #expect(s["store"]?.value == inFile && s["store"]?.from == "\(home.file):2")
        #expect(s["date-order"]?.value == "day-first" && s["date-order"]?.from == "\(home.file):3")
        #expect(s["model"]?.value == "receipt" && s["model"]?.from == "built-in")
        #expect(s.count == Setting.allCases.count)

        // The file's store is the one a command uses.
        #expect(cli(["items", "import", Repo.path("SampleReceipts/inventory.csv")], env: home.env).code == 0)
        #expect(try SQLReceiptStore(path: inFile).items().count == 18)
        #expect(cli(["store", "info"], env: home.env).out.contains("items     18"))

        // The environment comes before the file, the command line before both.
        var env = home.env
        env["RECEIPTS_STORE"] = home.tmp.path("env.sqlite")
        s = try settings(env: env)
        #expect(s["store"]?.value == home.tmp.path("env.sqlite") && s["store"]?.from == "environment (RECEIPTS_STORE)")
        let none = cli(["store", "info"], env: env)
        #expect(none.code == 5 && none.err.contains("no store at \(home.tmp.path("env.sqlite"))"))
        let given = cli(["store", "info", "--store", inFile], env: env)
        #expect(given.code == 0 && given.out.contains("items     18"))
        s = try settings(["--store", "x.sqlite", "--date-order", "month-first"], env: env)
        #expect(s["store"]?.value == "x.sqlite" && s["store"]?.from == "command line (--store)")
        #expect(s["date-order"]?.from == "command line (--date-order)")
        // --config FILE instead of the usual place.
        let other = try home.tmp.write("other.conf", "jobs = 3\n")
        s = try settings(["--config", other], env: home.env)
        #expect(s["jobs"]?.value == "3" && s["jobs"]?.from == "\(other):1")
        #expect(s["store"]?.from == "built-in")
    }

    /// The date order the file sets is the one the parser uses; the command line overrides it.
    @Test func dateOrderFromTheFileReachesTheParser() throws {
        let home = try Home("date-order = day-first\n")
        func date(_ args: [String]) throws -> String? {
            let r = cli(["parse", "--json"] + args + [Repo.samples + "/us-hardware-01.png"], env: home.env)
            #expect(r.code == 0, "\(r.err)")
            let obj = try #require(try JSONSerialization.jsonObject(with: Data(r.out.utf8)) as? [String: Any])
            return (obj["date"] as? [String: Any])?["value"] as? String
        }
        // The receipt reads 03/04/2024 and is in dollars: month-first by its own evidence, day-first as told.
        #expect(try date([]) == "2024-04-03")
        #expect(try date(["--date-order", "auto"]) == "2024-03-04")
    }

    @Test(arguments: [
        ("colour = blue\n", 1, "unknown key 'colour'"),
        ("store = a.sqlite\n\njobs = many\n", 3, "jobs takes a whole number (1…64), not 'many'"),
        ("date_order = sideways\n", 1, "date-order takes auto, day-first or month-first, not 'sideways'"),
        ("model = eng\nmodel = receipt\n", 2, "model given twice (first on line 1)"),
        ("currency\n", 1, "expected `key = value`"),
        ("rules = \"unclosed\n", 1, "rules: no closing \""),
        ("psm =\n", 1, "psm has no value"),
    ])
    func aBadFileIsAUsageErrorNamingFileLineAndKey(_ text: String, _ line: Int, _ message: String) throws {
        let home = try Home(text)
        for args in [["config"], ["list"], ["parse", "x.png"]] {
            let r = cli(args, env: home.env)
            #expect(r.code == 2, "\(args): \(r.err)")
            #expect(r.err.hasPrefix("error: \(home.file):\(line): \(message)"), "\(args): \(r.err)")
        }
        // A command that reads no settings does not read the file: making the man page and the
        // completion scripts never depends on it.
        for args in [["rules"], ["man"], ["completion", "bash"]] { #expect(cli(args, env: home.env).code == 0, "\(args)") }
    }

    @Test func badEnvironmentAndMissingFilesAreUsageErrors() throws {
        let tmp = try TempDir()
        let jobs = cli(["config"], env: ["RECEIPTS_JOBS": "0"])
        #expect(jobs.code == 2 && jobs.err == "error: RECEIPTS_JOBS takes a whole number (1…64), not '0'\n")
        let missing = cli(["list", "--config", tmp.path("nope")], env: [:])
        #expect(missing.code == 2 && missing.err.contains("\(tmp.path("nope")): cannot read the config file (no such file)"))
        let named = cli(["config"], env: ["RECEIPTS_CONFIG": tmp.path("nope")])
        #expect(named.code == 2)
        // No file where it is looked for by default: nothing is read, and config says so.
        let plain = cli(["config"], env: ["HOME": tmp.url.path])
        #expect(plain.code == 0 && plain.out.hasPrefix("config file: \(tmp.url.path)/.config/receipts/config (not there: nothing read)"))
    }

    /// Every setting is some option's, and its environment variable follows from its key.
    @Test func everySettingHasAnOptionAndAVariable() {
        for s in Setting.allCases {
            #expect(s.option.setting == s)
            #expect(s.environment == "RECEIPTS_" + s.key.uppercased().replacingOccurrences(of: "-", with: "_"))
        }
        #expect(Setting.store.environment == "RECEIPTS_STORE")
    }
}
