import Foundation
import ReceiptModel
#if canImport(Glibc)
import Glibc
import ReceiptSupport
#endif

/// Reading an image file's bytes: opened once and judged from the open descriptor (no
/// check-then-open race), never blocking on a FIFO, refusing what is not a regular file.
public enum ImageFile {
    public static func read(path: String, maxBytes: Int) throws(IngestError) -> Data {
        // The name's own bytes (PathBytes: a name that is not UTF-8 still opens).
        // O_NONBLOCK: opening a FIFO with no writer returns at once instead of waiting for one.
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_NONBLOCK | O_CLOEXEC) }
        guard fd >= 0 else { throw IngestError(file: path, reason: reason(errno: errno)) }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw IngestError(file: path, reason: reason(errno: errno)) }
        switch st.st_mode & S_IFMT {
        case S_IFREG: break
        case S_IFDIR: throw IngestError(file: path, reason: .isDirectory)
        default: throw IngestError(file: path, reason: .notRegularFile)
        }
        let size = Int(st.st_size)
        guard size <= maxBytes else { throw IngestError(file: path, reason: .fileTooLarge(bytes: size, limit: maxBytes)) }
        // Read to the end (a file may change size under us), never past the limit.
        var data = Data(count: size + 1)
        var used = 0
        while true {
            if used == data.count {
                guard data.count <= maxBytes else { throw IngestError(file: path, reason: .fileTooLarge(bytes: used, limit: maxBytes)) }
                data.count = min(2 * data.count + 4096, maxBytes + 1)
            }
            let n = data.withUnsafeMutableBytes { buf in Glibc.read(fd, buf.baseAddress! + used, buf.count - used) }
            if n < 0 {
                if errno == EINTR { continue }
                throw IngestError(file: path, reason: reason(errno: errno))
            }
            if n == 0 { break }
            used += n
        }
        data.count = used
        return data
    }

    static func reason(errno e: Int32) -> IngestError.Reason {
        switch e {
        case ENOENT, ENOTDIR: .missing
        case EACCES, EPERM: .unreadable("permission denied")
        case EISDIR: .isDirectory
        default: .unreadable(String(cString: strerror(e)))
        }
    }
}
