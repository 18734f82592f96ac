import Foundation
import ReceiptIngest
import ReceiptModel
#if canImport(Glibc)
import Glibc
#endif

/// Which files under the roots a batch reads: images by extension (those of the formats the
/// decoders read), `--include`/`--exclude` globs on the name or the path below the root,
/// hidden files skipped.
public struct FolderWalk: Sendable {
    public var include: [String]
    public var exclude: [String]
    public var extensions: Set<String>

    public init(include: [String] = [], exclude: [String] = [], decoders: ImageDecoders = .standard) {
        self.include = include; self.exclude = exclude; extensions = decoders.fileExtensions
    }

    /// Calls `visit` for each image under `root` (or `root` itself when it is not a folder: a file
    /// named on the command line is always tried, so a bad one gets a clear error), in name order
    /// per folder, and `other` for each file that is not taken. Stops when `visit` returns false.
    /// Names are read as bytes (`PathBytes`: one that is not UTF-8 is kept and still opens);
    /// symbolic links to folders are not followed, so a link loop cannot make the walk endless.
    public func walk(_ root: String, other: () -> Void = {}, _ visit: (String) -> Bool) {
        guard Self.isFolder(root, followingLinks: true) else {
            _ = visit(root)
            return
        }
        _ = walkFolder(root, relative: "", other: other, visit)
    }

    /// False when `visit` asked to stop.
    private func walkFolder(_ folder: String, relative: String, other: () -> Void, _ visit: (String) -> Bool) -> Bool {
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
            guard extensions.contains((name as NSString).pathExtension.lowercased()),
                  include.isEmpty || matches(include, name, rel) else {
                other()
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

    private func matches(_ globs: [String], _ name: String, _ rel: String) -> Bool {
        globs.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }
    }
}
