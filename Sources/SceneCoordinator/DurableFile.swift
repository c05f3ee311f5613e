import Foundation
import Glibc
import SceneSocket

/// Durable file writes, shared by the state file and the journal.
enum DurableFile {
    /// Writes every byte of `bytes` to `fd`, retrying after signals; false (with `errno`
    /// set) when a write fails.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Replaces the file at `path` with `bytes`, so that it is always either the old file
    /// or the new one, on disk: a temporary file in the same folder, fsync, rename, fsync of
    /// the folder. Returns the new file, open for writing; the caller closes it.
    static func replace(_ path: String, with bytes: [UInt8]) throws(SocketError) -> Int32 {
        let temporary = "\(path).tmp-\(getpid())"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw SocketError("open \(temporary)") }
        func abandon(_ call: String) -> SocketError {
            let error = SocketError("\(call) \(temporary)")
            close(fd)
            unlink(temporary)
            return error
        }
        guard writeAll(fd, bytes) else { throw abandon("write") }
        guard fsync(fd) == 0 else { throw abandon("fsync") }
        guard rename(temporary, path) == 0 else { throw abandon("rename") }
        // The rename itself must survive a power cut before the new file counts.
        let folder = (path as NSString).deletingLastPathComponent
        let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderFD >= 0 {
            _ = fsync(folderFD)
            close(folderFD)
        }
        return fd
    }
}
