import Foundation
import Glibc
import SceneSocket
import Synchronization

/// Durable file writes, shared by the state file and the journal.
enum DurableFile {
    /// Writes every byte of `bytes` to `fd`, retrying after signals; false (with `errno`
    /// set) when a write fails.
    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { Processes.writeAll(fd, $0) }
    }

    /// Replaces the file at `path` with `bytes`, so that it is always either the old file
    /// or the new one, on disk: a temporary file in the same folder, fsync, rename, fsync of
    /// the folder. Returns the new file, open for writing; the caller closes it.
    static func replace(_ path: String, with bytes: [UInt8]) throws(SocketError) -> Int32 {
        let replacement = try Replacement(path, writing: bytes)
        let fd = try replacement.commit()
        replacement.syncFolder()
        return fd
    }

    /// A file that replaces `path` in two steps: most of it written and made durable
    /// first, then the rest added and the file put in place (``commit(adding:)``), so that a
    /// caller holds a lock only for the second, short step.
    struct Replacement {
        /// Makes temporary names unique within the process: two writes of one file at once
        /// never share one.
        static let counter = Atomic<Int>(0)
        let path: String
        let temporary: String
        let fd: Int32

        /// Writes `bytes` to a temporary file beside `path` and fsyncs it.
        init(_ path: String, writing bytes: [UInt8]) throws(SocketError) {
            self.path = path
            temporary = "\(path).tmp-\(getpid())-\(Replacement.counter.add(1, ordering: .relaxed).newValue)"
            fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            guard fd >= 0 else { throw SocketError("open \(temporary)") }
            guard writeAll(fd, bytes) else { throw abandon("write") }
            guard fsync(fd) == 0 else { throw abandon("fsync") }
        }

        /// Appends `more`, fsyncs, and renames the file over `path`; ``syncFolder()`` then
        /// makes the rename durable. Returns the new file, open for writing; the caller
        /// closes it.
        func commit(adding more: [UInt8] = []) throws(SocketError) -> Int32 {
            if !more.isEmpty {
                guard writeAll(fd, more) else { throw abandon("write") }
                guard fsync(fd) == 0 else { throw abandon("fsync") }
            }
            guard rename(temporary, path) == 0 else { throw abandon("rename") }
            return fd
        }

        /// Fsyncs the folder: the rename itself must survive a power cut before the new file
        /// counts.
        func syncFolder() {
            let folder = (path as NSString).deletingLastPathComponent
            let folderFD = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
            if folderFD >= 0 {
                _ = fsync(folderFD)
                close(folderFD)
            }
        }

        /// Gives the temporary file up.
        func abandon(_ call: String) -> SocketError {
            let error = SocketError("\(call) \(temporary)")
            close(fd)
            unlink(temporary)
            return error
        }
    }
}
