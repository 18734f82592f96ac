import Foundation
import ReceiptIngest
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
    public func walk(_ root: String, other: () -> Void = {}, _ visit: (String) -> Bool) {
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
            guard extensions.contains((name as NSString).pathExtension.lowercased()),
                  include.isEmpty || matches(include, name, rel) else {
                other()
                continue
            }
            if !visit((root as NSString).appendingPathComponent(rel)) { return }
        }
    }

    private func matches(_ globs: [String], _ name: String, _ rel: String) -> Bool {
        globs.contains { fnmatch($0, name, 0) == 0 || fnmatch($0, rel, 0) == 0 }
    }
}
