import Foundation
import ReceiptIngest
#if canImport(Glibc)
import Glibc
#endif

/// Which files under the roots a batch reads: every file that looks like a receipt, by its
/// extension (those of the formats the decoders read, and of image and document formats
/// they do not, so such a file fails with its reason instead of vanishing) or by its first
/// bytes (a JPEG named `.heic` or `.dat`, a PDF without extension); `--include`/`--exclude`
/// globs on the name or the path below the root; hidden files skipped. Everything else is
/// an "other file", reported with its extension.
public struct FolderWalk: Sendable {
    public var include: [String]
    public var exclude: [String]
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

    /// Extensions of image and document formats people keep receipts in, whether or not a
    /// decoder here reads them (`.jxl`, `.dng` …): such a file is tried, and fails saying why
    /// when nothing reads it, never counted away as an "other file".
    public static let receiptExtensions: Set<String> = [
        "heic", "heif", "hif", "avif", "pdf", "jxl", "jp2", "j2k", "jpf", "dng", "cr2", "cr3", "nef", "arw", "orf", "rw2",
        "raf", "psd", "svg", "eps", "xps", "oxps", "djvu", "djv", "ofd",
    ]

    public init(include: [String] = [], exclude: [String] = [], decoders: ImageDecoders = .standard) {
        self.include = include; self.exclude = exclude; self.decoders = decoders
        extensions = decoders.fileExtensions.union(Self.receiptExtensions)
    }

    /// Calls `visit` for each receipt under `root` (or `root` itself when it is not a folder: a
    /// file named on the command line is always tried, so a bad one gets a clear error), in name
    /// order per folder, and `other` with the lower-case extension ("" for none) of each file that
    /// is not taken. Stops when `visit` returns false.
    public func walk(_ root: String, other: (String) -> Void = { _ in }, _ visit: (String) -> Bool) {
        var isDir: ObjCBool = false
        if !FileManager.default.fileExists(atPath: root, isDirectory: &isDir) || !isDir.boolValue {
            _ = visit(root)
            return
        }
        guard let e = FileManager.default.enumerator(atPath: root) else { return }
        while let rel = e.nextObject() as? String {
            let name = (rel as NSString).lastPathComponent
            let isFolder = (e.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory
            if matches(exclude, name, rel) {
                if isFolder { e.skipDescendants() }
                continue
            }
            if isFolder || name.hasPrefix(".") { continue }
            let path = (root as NSString).appendingPathComponent(rel)
            let ext = (name as NSString).pathExtension.lowercased()
            guard include.isEmpty || matches(include, name, rel) else {
                other(ext)
                continue
            }
            guard extensions.contains(ext) || looksLikeAnImage(path) else {
                other(ext)
                continue
            }
            if !visit(path) { return }
        }
    }

    /// Whether the file's first bytes are a format a decoder reads.
    func looksLikeAnImage(_ path: String) -> Bool {
        guard !Self.neverSniffed.contains((path as NSString).pathExtension.lowercased()),
              !neverOpen.contains((path as NSString).standardizingPath) else { return false }
        guard let h = FileHandle(forReadingAtPath: path) else { return false }
        defer { try? h.close() }
        guard let head = try? h.read(upToCount: 4096), !head.isEmpty else { return false }
        return decoders.sniff(head) != nil
    }

    private func matches(_ globs: [String], _ name: String, _ rel: String) -> Bool {
        globs.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }
    }
}
