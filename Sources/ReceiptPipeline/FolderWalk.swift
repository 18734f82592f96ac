import Foundation
import ReceiptIngest
import ReceiptModel
#if canImport(Glibc)
import Glibc
import ReceiptSupport
#endif

/// Which files under the roots a batch reads: every file that looks like a receipt, by its
/// extension (`ImageDecoders.receiptExtensions`: those of the formats the decoders read, and
/// of image and document formats they do not, so such a file fails with its reason instead of
/// vanishing) or by its first bytes (a JPEG named `.heic` or `.dat`, a PDF without extension);
/// `--include`/`--exclude` globs on the name or the path below the root; hidden files skipped.
/// Everything else is an "other file", reported with its extension.
public struct FolderWalk: Sendable {
    public var include: [String]
    public var exclude: [String]
    /// The extensions taken without opening the file (from `decoders`).
    public var extensions: Set<String>
    /// Reads the first bytes of a file with another extension and says whether a decoder knows them.
    public var decoders: ImageDecoders
    /// Files never opened to sniff them (standardized paths): the batch's own store and its
    /// journal. Closing any descriptor of a SQLite file drops the locks this process holds
    /// on it (POSIX advisory locks belong to the process, not the descriptor).
    public var neverOpen: Set<String> = []

    /// Extensions of files that are never opened to sniff them: databases and their journals
    /// (see `neverOpen`), whoever has them open.
    public static let neverSniffed: Set<String> = ["sqlite", "sqlite3", "db", "db3", "sqlite-wal", "sqlite-shm", "sqlite-journal",
                                                   "db-wal", "db-shm", "db-journal", "wal", "shm", "journal"]

    public init(include: [String] = [], exclude: [String] = [], decoders: ImageDecoders = .standard) {
        self.include = include; self.exclude = exclude; self.decoders = decoders
        extensions = decoders.receiptExtensions
    }

    /// Calls `visit` for each receipt under `root` (or `root` itself when it is not a folder: a
    /// file named on the command line is always tried, so a bad one gets a clear error), in name
    /// order per folder, and `other` with the lower-case extension ("" for none) of each file that
    /// is not taken. Stops when `visit` returns false.
    /// Names are read as bytes (`PathBytes`: one that is not UTF-8 is kept and still opens);
    /// symbolic links to folders are not followed, so a link loop cannot make the walk endless.
    public func walk(_ root: String, other: (String) -> Void = { _ in }, _ visit: (String) -> Bool) {
        guard Self.isFolder(root, followingLinks: true) else {
            _ = visit(root)
            return
        }
        _ = walkFolder(root, relative: "", other: other, visit)
    }

    /// False when `visit` asked to stop.
    private func walkFolder(_ folder: String, relative: String, other: (String) -> Void, _ visit: (String) -> Bool) -> Bool {
        for name in Self.entries(folder) {
            let rel = relative.isEmpty ? name : relative + "/" + name
            let path = folder.hasSuffix("/") ? folder + name : folder + "/" + name
            let isFolder = Self.isFolder(path, followingLinks: false)
            if matches(exclude, name, rel) { continue }
            if isFolder {
                if !walkFolder(path, relative: rel, other: other, visit) { return false }
                continue
            }
            if name.hasPrefix(".") { continue }
            let ext = (name as NSString).pathExtension.lowercased()
            guard include.isEmpty || matches(include, name, rel) else {
                other(ext)
                continue
            }
            guard extensions.contains(ext) || looksLikeAnImage(path) else {
                other(ext)
                continue
            }
            if !visit(path) { return false }
        }
        return true
    }

    /// The names in a folder (not "." and ".."), sorted; empty when it cannot be read.
    static func entries(_ folder: String) -> [String] {
        guard let dir = PathBytes.withCString(folder, { opendir($0) }) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                PathBytes.string(raw.prefix(while: { $0 != 0 }))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func isFolder(_ path: String, followingLinks: Bool) -> Bool {
        var st = stat()
        let rc = PathBytes.withCString(path) { followingLinks ? stat($0, &st) : lstat($0, &st) }
        return rc == 0 && st.st_mode & S_IFMT == S_IFDIR
    }

    /// Whether anything (a file, folder, link, even a dangling one) has this name.
    public static func exists(_ path: String) -> Bool {
        var st = stat()
        return PathBytes.withCString(path) { lstat($0, &st) } == 0
    }

    /// Whether the file's first bytes are a format a decoder reads.
    func looksLikeAnImage(_ path: String) -> Bool {
        guard !Self.neverSniffed.contains((path as NSString).pathExtension.lowercased()),
              !neverOpen.contains((path as NSString).standardizingPath) else { return false }
        // Opened without blocking and only when it is a regular file: a FIFO in the folder must not hang the walk.
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
        var head = [UInt8](repeating: 0, count: 4096)
        let n = head.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard n > 0 else { return false }
        return decoders.sniff(Data(head.prefix(n))) != nil
    }

    private func matches(_ globs: [String], _ name: String, _ rel: String) -> Bool {
        globs.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }
    }
}
