import Foundation
import Glibc
import SceneSync

/// The one small logger of the daemon side: lines to standard error, filtered by the
/// level in `SCENE_LOG` (`debug`, `info`, `warn`, `error`; default `warn`), read once.
public enum Log {
    /// How much is logged.
    public enum Level: Int, Comparable, Sendable {
        /// From most to least verbose; a level logs its own lines and every level above it.
        case debug, info, warn, error

        public static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }

        var name: String {
            switch self {
            case .debug: return "debug"
            case .info: return "info"
            case .warn: return "warn"
            case .error: return "error"
            }
        }
    }

    /// The level in force, read from `SCENE_LOG` on first use.
    public static let level: Level = {
        switch ProcessInfo.processInfo.environment["SCENE_LOG"]?.lowercased() {
        case "debug": return .debug
        case "info": return .info
        case "error": return .error
        default: return .warn
        }
    }()

    /// Serialises writes to standard error; it counts the lines written. (Not a lock of
    /// `Void`: ThreadSanitizer reports the exclusive access to a zero-sized value as racing
    /// with another thread's, whatever lock is held.)
    private static let output = Locked(0)

    /// Writes `message` when `level` is at or above the level in force.
    public static func write(_ level: Level, _ message: @autoclosure () -> String) {
        guard level >= Log.level else { return }
        let line = "scene[\(level.name)] \(message())\n"
        output.withLock { written in
            if emit(line, to: STDERR_FILENO) { written += 1 }
        }
    }

    /// Writes `line` whole to `fd` (standard error for the log), retrying after signals;
    /// `false` when a write fails.
    ///
    /// A log line that cannot be written is dropped: a daemon whose standard error is closed, a
    /// pipe no one reads any more, or a full disk goes on serving. (Foundation's
    /// `FileHandle.write(_:)` traps on a failed write, so one lost log line would stop the
    /// coordinator, and a durable one before it could say why.)
    public static func emit(_ line: String, to fd: Int32) -> Bool {
        var line = line
        return line.withUTF8 { Processes.writeAll(fd, UnsafeRawBufferPointer($0)) }
    }

    /// Writes `message` at level `debug`; it is not even built unless that level is in force.
    public static func debug(_ message: @autoclosure () -> String) { write(.debug, message()) }
    /// Writes `message` at level `info`.
    public static func info(_ message: @autoclosure () -> String) { write(.info, message()) }
    /// Writes `message` at level `warn`.
    public static func warn(_ message: @autoclosure () -> String) { write(.warn, message()) }
    /// Writes `message` at level `error`.
    public static func error(_ message: @autoclosure () -> String) { write(.error, message()) }
}
