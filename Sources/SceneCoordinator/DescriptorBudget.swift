import SceneSocket

/// The descriptors a coordinator's connections and scene processes may hold together, so
/// that ``CoordinatorConfiguration/descriptorHeadroom`` of them stay free below the
/// open-file limit.
///
/// Why: the runtime opens files of its own on other threads, and Dispatch, on Linux, ends
/// the process when it cannot (once a second, when work waits for one of its threads, it
/// reads `/proc/<tid>/stat` of each).
///
/// - The budget is counted once, when the coordinator starts listening: the soft limit,
///   less the descriptors open then, less the headroom. What is opened later and kept open
///   (by the app that embeds the coordinator, by another coordinator in the same process,
///   by the runtime) comes out of the headroom.
/// - ``crowds(_:)`` is the live check beside it: a descriptor just given out whose number
///   shows that fewer than the headroom are free.
struct DescriptorBudget {
    /// The soft open-file limit; nil when there is none to keep below (unlimited, or the
    /// descriptors open could not be counted).
    let limit: Int?
    /// How many to leave free.
    let headroom: Int
    /// How many connections and unreaped scene processes may be held together.
    let ceiling: Int

    /// The budget of a coordinator that starts listening now.
    init(headroom: Int) {
        self.headroom = max(0, headroom)
        guard let limit = SocketLimits.openFileLimit, limit != Int.max else {
            (self.limit, ceiling) = (nil, .max)
            return
        }
        guard let open = SocketLimits.openDescriptorCount() else {
            Log.warn("cannot count the descriptors open (no /proc/self/fd): connections and scene processes are not kept below the open-file limit")
            (self.limit, ceiling) = (nil, .max)
            return
        }
        self.limit = limit
        ceiling = max(0, limit - open - self.headroom)
        if ceiling == 0 {
            Log.warn("\(open) of the \(limit) descriptors allowed are open already: no connection or scene process can be taken while \(self.headroom) stay free")
        } else {
            Log.info("connections and scene processes may hold \(ceiling) descriptors (\(limit) allowed, \(open) open, \(self.headroom) kept free)")
        }
    }

    /// Whether `fd`, just given out, shows that fewer than the headroom are free: the
    /// lowest free number is given out, so every number below it is in use.
    func crowds(_ fd: Int32) -> Bool {
        guard let limit, fd >= 0 else { return false }
        return Int(fd) >= limit - headroom
    }

    /// Why a connection or a spawn is refused.
    var refusal: String {
        "the coordinator keeps the last \(headroom) of its \(limit.map(String.init) ?? "?") descriptors free"
    }
}
