import CSceneSystem
import Glibc

/// A system call failed; carries the call's name and `errno`.
public struct SocketError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The call that failed: `bind`, `connect`, `epoll_ctl`, …
    public let operation: String
    /// The `errno` it left.
    public let code: Int32

    /// The failure of `operation`, with the `errno` it left.
    public init(_ operation: String) {
        self.init(operation, code: errno)
    }

    /// The failure of `operation` with an `errno` already read.
    public init(_ operation: String, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The system's text for the error.
    public var message: String { String(cString: strerror(code)) }

    public var description: String { "\(operation): \(message) (errno \(code))" }
}

/// Process-wide limits a server adjusts.
public enum SocketLimits {
    /// Raises the soft open-file limit to the hard one; returns the new soft limit, or -1.
    @discardableResult
    public static func raiseOpenFileLimit() -> Int {
        Int(scene_raise_open_file_limit())
    }
}
