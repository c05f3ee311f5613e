public import Foundation
import Glibc

/// How a coordinator serves its registry.
public struct CoordinatorConfiguration: Sendable {
    /// The Unix socket's path.
    public var socketPath: String
    /// The largest frame payload accepted, in bytes (default 1 MiB).
    public var maximumFrame: Int = 1 << 20
    /// The most connections served at once (default 4096); one more is answered with an
    /// error and closed.
    public var maximumConnections: Int = 4096
    /// Bytes queued for one peer beyond which it is disconnected (default 8 MiB).
    public var writeQueueCap: Int = 8 << 20
    /// What `hello` answers as `server`.
    public var serverName: String = "scenectl/0.1.0"
    /// The uid allowed to connect (`SO_PEERCRED`); the default is this process's own.
    public var allowedUID: UInt32? = getuid()

    public init(socketPath: String) {
        self.socketPath = socketPath
    }

    /// `$XDG_RUNTIME_DIR/scenectl/<app>.sock`, else `/tmp/scenectl-<uid>/<app>.sock`.
    public static func defaultSocketPath(app: String, environment: [String: String] = ProcessInfo.processInfo.environment)
        -> String
    {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return "\(runtime)/scenectl/\(app).sock"
        }
        return "/tmp/scenectl-\(getuid())/\(app).sock"
    }
}
