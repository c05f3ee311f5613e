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

    /// The soft open-file limit (`Int.max` when there is none), or nil when it cannot be read.
    public static var openFileLimit: Int? {
        let limit = scene_open_file_limit()
        return limit < 0 ? nil : Int(limit)
    }

    /// How many descriptors this process has open now, or nil when that cannot be told.
    public static func openDescriptorCount() -> Int? {
        let count = scene_open_descriptor_count()
        return count < 0 ? nil : Int(count)
    }
}
