import CSceneSystem
import Foundation
import Glibc

/// What a listener tells its owner. Called on the loop thread.
public protocol ListenerHandler: AnyObject {
    /// A peer connected and passed the uid check. The owner sets the connection's handler.
    func listener(_ listener: SocketListener, didAccept connection: SocketConnection)
    /// A peer of another user was refused and disconnected.
    func listener(_ listener: SocketListener, didRefusePeer uid: UInt32, pid: Int32)
}

/// A Unix listening socket on an event loop. Loop thread only, except `bind`.
///
/// - Peers whose uid (`SO_PEERCRED`) differs from `allowedUID` are refused at once.
/// - The socket file is mode 0600 in a folder of mode 0700.
public final class SocketListener: LoopHandler {
    /// The event loop it accepts on, and its connections run on.
    public let loop: EventLoop
    /// The socket file's path.
    public let path: String
    /// The largest frame payload each accepted connection reads, in bytes.
    public let maximumFrame: Int
    /// The uid allowed to connect; `nil` lets anyone the file mode lets in.
    public let allowedUID: UInt32?
    /// Who hears about accepted and refused peers; held weakly.
    public weak var handler: (any ListenerHandler)?
    private var fd: Int32
    private var token: UInt64 = 0
    private var closed = false
    /// Closed to make room when descriptors run out, so one waiting peer can be accepted
    /// and turned away instead of the loop spinning on a listener it cannot serve.
    private var reserve: Int32 = scene_open_reserve()

    init(fd: Int32, path: String, loop: EventLoop, maximumFrame: Int, allowedUID: UInt32?) {
        self.fd = fd
        self.path = path
        self.loop = loop
        self.maximumFrame = maximumFrame
        self.allowedUID = allowedUID
    }

    /// Binds a listening socket at `path` and starts accepting on `loop`. Call on the loop
    /// thread.
    ///
    /// - The folder is created (mode 0700) if needed; the socket file gets mode 0600.
    /// - A stale socket file is replaced only when nothing answers on it; a live one is
    ///   ``SocketPlacementError/inUse(_:)``.
    public static func listen(
        path: String, loop: EventLoop, maximumFrame: Int = 1 << 20, allowedUID: UInt32? = SocketPlacement.currentUID,
        fileMode: UInt32 = 0o600
    ) throws(SocketPlacementError) -> SocketListener {
        try SocketPlacement.prepare(path)
        let fd = scene_unix_listen(path, 512)
        guard fd >= 0 else { throw .system(SocketError("bind(\(path))")) }
        guard chmod(path, mode_t(fileMode)) == 0 else {
            let error = SocketError("chmod(\(path))")
            Glibc.close(fd)
            throw .system(error)
        }
        let listener = SocketListener(fd: fd, path: path, loop: loop, maximumFrame: maximumFrame, allowedUID: allowedUID)
        do {
            listener.token = try loop.register(fd, events: UInt32(SCENE_EPOLLIN), handler: listener)
        } catch {
            Glibc.close(fd)
            throw .system(error)
        }
        return listener
    }

    /// Stops accepting and removes the socket file.
    public func close() {
        guard !closed else { return }
        closed = true
        loop.deregister(fd, token: token)
        Glibc.close(fd)
        if reserve >= 0 { Glibc.close(reserve) }
        unlink(path)
    }

    func loopDidStop() { close() }

    func handle(events: UInt32) {
        while !closed {
            let client = scene_accept(fd)
            guard client >= 0 else {
                if errno == EMFILE || errno == ENFILE { turnAwayOne() }
                return  // EAGAIN, or a transient accept error
            }
            let peer = SocketConnection.peer(of: client)
            if let allowedUID, peer?.uid != allowedUID {
                Glibc.close(client)
                handler?.listener(self, didRefusePeer: peer?.uid ?? UInt32.max, pid: peer?.pid ?? 0)
                continue
            }
            let connection = SocketConnection(fd: client, loop: loop, maximumFrame: maximumFrame, peer: peer)
            do {
                try connection.start()
            } catch {
                continue
            }
            handler?.listener(self, didAccept: connection)
        }
    }

    /// Out of descriptors: accept one waiting peer with the reserve's slot and close it.
    private func turnAwayOne() {
        Log.error("out of file descriptors: turning a connection away")
        if reserve >= 0 { Glibc.close(reserve) }
        let client = scene_accept(fd)
        if client >= 0 { Glibc.close(client) }
        reserve = scene_open_reserve()
    }
}

/// Why a socket could not be placed at its path.
public enum SocketPlacementError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path is longer than a Unix socket address holds.
    case pathTooLong(String, limit: Int)
    /// Something answers on the socket already: another server runs there.
    case inUse(String)
    /// Something other than a socket is at the path.
    case notASocket(String)
    /// The folder is not a directory, or anyone could replace files in it.
    case unsafeFolder(String)
    /// A system call failed.
    case system(SocketError)

    public var description: String {
        switch self {
        case .pathTooLong(let path, let limit):
            return "socket path is \(path.utf8.count) bytes, longer than the \(limit) a Unix socket allows: \(path)"
        case .inUse(let path): return "a server already answers on \(path)"
        case .notASocket(let path): return "\(path) exists and is not a socket; not replacing it"
        case .unsafeFolder(let path): return "socket folder \(path) is not a directory, or others could replace a socket in it"
        case .system(let error): return error.description
        }
    }
}

/// Where sockets go and how their folder is made safe.
public enum SocketPlacement {
    /// This process's user id.
    public static var currentUID: UInt32 { getuid() }

    /// The longest socket path Linux accepts (107 bytes).
    public static var maximumPathLength: Int { Int(scene_unix_path_max()) }

    /// Creates the folder (0700) and clears a stale socket file at `path`.
    static func prepare(_ path: String) throws(SocketPlacementError) {
        guard path.utf8.count <= maximumPathLength else {
            throw .pathTooLong(path, limit: maximumPathLength)
        }
        let folder = (path as NSString).deletingLastPathComponent
        if !folder.isEmpty {
            var info = stat()
            if stat(folder, &info) != 0 {
                // A folder made here is private: 0700.
                guard mkdir(folder, 0o700) == 0 || errno == EEXIST else {
                    throw .system(SocketError("mkdir(\(folder))"))
                }
            } else if (info.st_mode & S_IFMT) != S_IFDIR {
                throw .unsafeFolder(folder)
            } else if info.st_uid != getuid(), info.st_mode & 0o002 != 0, info.st_mode & S_ISVTX == 0 {
                // Anyone could replace the socket there (writable by all, not sticky).
                throw .unsafeFolder(folder)
            } else if info.st_uid == getuid(), info.st_mode & 0o077 != 0 {
                // An existing folder keeps its mode; the socket's own 0600 still guards it.
                Log.warn("socket folder \(folder) is open to others (mode \(String(info.st_mode & 0o777, radix: 8))); the socket itself is 0600")
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path) }
        let probe = scene_unix_connect(path, 0)
        if probe >= 0 {
            Glibc.close(probe)
            throw .inUse(path)
        }
        unlink(path)
    }
}
