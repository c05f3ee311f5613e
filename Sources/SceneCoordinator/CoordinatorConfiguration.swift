public import Foundation
public import SceneCore
public import SceneSocket
import Glibc

/// How a coordinator serves its registry.
public struct CoordinatorConfiguration: Sendable {
    /// The Unix socket's path.
    public var socketPath: String
    /// The largest frame payload accepted, in bytes (default 1 MiB).
    public var maximumFrame: Int = 1 << 20
    /// The most connections served at once (default 4096); one more is answered with an
    /// error and closed. A scene process the coordinator started has one kept for it until
    /// it says hello (so do its descriptors under ``descriptorHeadroom``): a peer that
    /// would take it meanwhile is turned away the same way, and a process that would find
    /// none is not started (its open fails `launch_failed`).
    public var maximumConnections: Int = 4096
    /// Descriptors kept free below the open-file limit (default 16), for what the runtime
    /// opens on other threads: Dispatch, on Linux, ends the process when it cannot open a
    /// file it needs. Connections and scene processes may hold what the limit leaves once
    /// the coordinator listens, less these; what the app opens later comes out of them.
    /// A connection past that (or one whose descriptor number shows fewer free) is answered
    /// `too_many_connections` and closed; a scene process is not started: its open fails
    /// `launch_failed`, and a restart that cannot start counts as one more abnormal end.
    public var descriptorHeadroom: Int = 16
    /// Bytes queued for one peer, behind the frame being written to it, beyond which it is
    /// disconnected (default 8 MiB). One answer larger than this still goes out whole.
    public var writeQueueCap: Int = 8 << 20
    /// What `hello` answers as `server`.
    public var serverName: String = "scenectl/0.1.0"
    /// The uid allowed to connect (`SO_PEERCRED`); the default is this process's own.
    public var allowedUID: UInt32? = getuid()

    // Scene processes.

    /// How long a spawned scene process has to say `hello` (default 10 s) unless its
    /// scene's `launch.timeout` says otherwise.
    public var launchTimeout: Duration = .seconds(10)
    /// How often every scene process is pinged (default 5 s).
    public var heartbeatInterval: Duration = .seconds(5)
    /// How many heartbeats in a row may go unanswered before the process counts as dead
    /// and is killed (default 3).
    public var heartbeatMisses: Int = 3
    /// How long a scene has to answer `scene.close`, and then to exit (default 3 s).
    public var closeGrace: Duration = .seconds(3)
    /// How long an instance whose attached process lost its connection waits for it to
    /// attach again (default 30 s) unless its scene's `grace` says otherwise.
    public var attachGrace: Duration = .seconds(30)
    /// How long after SIGTERM before SIGKILL (default 2 s).
    public var terminateGrace: Duration = .seconds(2)
    /// How long a relayed `scene.call` waits for its answer unless the call says (default 10 s).
    public var callTimeout: Duration = .seconds(10)
    /// Where the coordinator keeps its state (`--state`): written within a second of any
    /// change of instances or paths, and at shutdown. Nil: nowhere.
    public var stateFile: String?
    /// With ``stateFile``: every event is journaled and made durable before the answer to
    /// the request that caused it is sent (`--durable`), so a crash loses no acknowledged
    /// change. Without it, a crash loses what changed after the last state write.
    public var durable = false
    /// How many of the last events are kept in memory for subscribers that resume with
    /// `since` (default 10,000); a durable coordinator also replays from its journal, as
    /// far back as its last compaction.
    public var historyLimit: Int = 10_000
    /// How many dismissed instances are kept, in memory and in the state file, for
    /// `scene.reopen` (default 20).
    public var reopenLimit: Int = 20
    /// The environment scene processes start from (their scene's `launch.env` and the
    /// `SCENE_*` variables are added); the coordinator's own by default.
    public var processEnvironment: [String: String] = ProcessInfo.processInfo.environment
    /// The clock the coordinator's loop timers run on and its time-driven rules read: scene
    /// processes' heartbeats, launch timeouts, staged stops, relayed call timeouts and
    /// restart windows, the hello throttle and the state write's debounce. The system's by
    /// default; a test passes `LoopClock.manual()` and advances it instead of waiting. A
    /// manual clock is also the registry's time source, so in-process behaviours'
    /// timeouts (``sceneTimeouts``), close grace and restart windows follow it too.
    public var clock: LoopClock = .system

    /// What the registry's in-process scenes get, as processes do: ``launchTimeout`` to
    /// start, ``callTimeout`` for calls and ``closeGrace`` to answer an interactive close.
    public var sceneTimeouts: SceneTimeouts { SceneTimeouts(start: launchTimeout, call: callTimeout, close: closeGrace) }

    /// A configuration serving at `socketPath`, everything else at its default.
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
