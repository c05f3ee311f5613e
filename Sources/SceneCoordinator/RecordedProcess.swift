import SceneSocket

/// A scene process as the state file records it, so that a coordinator started again can
/// end what the previous run left behind (and nothing else: the start time must match).
public struct RecordedProcess: Codable, Hashable, Sendable {
    /// The instance it ran, as its id string (`notes-2`).
    public var instance: String
    /// The pid, which is also its process group id.
    public var pid: Int32
    /// The start time in clock ticks after boot (`/proc/<pid>/stat`, field 22).
    public var started: UInt64?

    /// A record with every member given.
    public init(instance: String, pid: Int32, started: UInt64?) {
        self.instance = instance
        self.pid = pid
        self.started = started
    }

    /// Field 22 of `/proc/<pid>/stat`, or nil when the process does not exist.
    public static func startTime(of pid: Int32) -> UInt64? {
        statFields(of: pid).flatMap { UInt64($0[19]) }
    }

    /// The fields of `/proc/<pid>/stat` from field 3 on (index 0 is field 3), when there
    /// are at least 22; nil when the process does not exist.
    static func statFields(of pid: Int32) -> [Substring]? {
        guard let fields = Processes.statFields(of: pid) else { return nil }
        return fields.count > 19 ? fields : nil
    }
}
