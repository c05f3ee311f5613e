import Glibc

/// How a coordinator starts the process behind each instance of a scene.
///
/// A scene without one is virtual: its instances live only in the registry.
public struct LaunchSpec: Hashable, Sendable {
    /// The executable (searched in `PATH` when it has no slash) and its arguments.
    public var command: [String]
    /// Variables added to the coordinator's own environment.
    public var environment: [String: String]
    /// The working directory; the coordinator's own when nil.
    public var workingDirectory: String?
    /// How long the process has to say `hello`, in seconds; the coordinator's default
    /// when nil. For an attach-only scene, how long an instance opened waits for a process
    /// to attach.
    public var timeout: Double?
    /// How long an instance whose attached process lost its connection waits for it to
    /// attach again, in seconds; the coordinator's default when nil.
    public var grace: Double?

    /// Creates a launch spec; only the command is required.
    public init(
        command: [String], environment: [String: String] = [:], workingDirectory: String? = nil, timeout: Double? = nil,
        grace: Double? = nil
    ) {
        self.command = command
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.timeout = timeout
        self.grace = grace
    }

    /// The spec of a scene whose processes are only ever started elsewhere and attach with
    /// a token (the manifest's `attach`): the coordinator never starts one.
    public static func attachOnly(timeout: Double? = nil, grace: Double? = nil) -> LaunchSpec {
        LaunchSpec(command: [], timeout: timeout, grace: grace)
    }

    /// Whether processes only attach: there is no command to start.
    public var isAttachOnly: Bool { command.isEmpty }
}

/// When a scene's process is restarted after it ends, as OTP supervisors decide.
public struct RestartPolicy: Hashable, Sendable {
    /// Which ends are followed by a restart.
    public enum Mode: String, Hashable, Sendable, CaseIterable {
        /// Always restarted.
        case permanent
        /// Restarted after an abnormal end (a non-zero status, a signal, a lost
        /// connection); a clean exit dismisses the instance.
        case transient
        /// Never restarted: any end dismisses the instance.
        case temporary
    }

    /// Which ends are followed by a restart.
    public var mode: Mode
    /// The most restarts allowed within ``withinSeconds``, per instance.
    public var maxRestarts: Int
    /// The sliding window, in seconds, that ``maxRestarts`` counts restarts in.
    public var withinSeconds: Double
    /// The wait between an end and the restart that follows, growing with each end in a
    /// row; nil: restart at once.
    public var backoff: Backoff?

    /// How long a restart waits: `initial` seconds after the first end, times `factor` after
    /// each further end in a row, at most `max`; a process that stayed up longer than `max`
    /// starts the row again.
    public struct Backoff: Hashable, Sendable {
        /// The first wait, in seconds.
        public var initial: Double
        /// The longest wait, in seconds; also how long a process must stay up to reset it.
        public var max: Double
        /// How much each end in a row multiplies the wait by (at least 1).
        public var factor: Double

        /// A backoff from its members.
        public init(initial: Double, max: Double, factor: Double) {
            self.initial = initial
            self.max = max
            self.factor = factor
        }

        /// The wait before the restart that follows the `count`-th end in a row (0: the first).
        public func delay(after count: Int) -> Double {
            Swift.min(initial * pow(factor, Double(count)), max)
        }
    }

    /// Transient, at most 3 restarts in 30 seconds.
    public static let standard = RestartPolicy(mode: .transient, maxRestarts: 3, withinSeconds: 30)

    /// Creates a policy; the intensity defaults to 3 restarts in 30 seconds.
    public init(mode: Mode, maxRestarts: Int = 3, withinSeconds: Double = 30, backoff: Backoff? = nil) {
        self.mode = mode
        self.maxRestarts = maxRestarts
        self.withinSeconds = withinSeconds
        self.backoff = backoff
    }
}

/// How a scene process ended.
public enum ProcessExit: Hashable, Sendable, CustomStringConvertible {
    /// It exited with this status.
    case exited(Int32)
    /// A signal ended it.
    case signalled(Int32)

    /// A clean exit: status 0.
    public var isClean: Bool { self == .exited(0) }

    public var description: String {
        switch self {
        case .exited(let status): return "exited with status \(status)"
        case .signalled(let signal): return "ended by signal \(signal)"
        }
    }
}

/// What a supervisor does after an instance's process ended.
public enum SupervisionDecision: Hashable, Sendable {
    /// Start the process again after `after` seconds (0: at once); the instance keeps its
    /// path.
    case restart(after: Double)
    /// Dismiss the instance, for this reason.
    case dismiss(DismissReason)
}

/// One instance's restarts, and the rule that decides the next one.
///
/// A value: the supervisor keeps one per process-backed instance and asks it after every
/// end of the process.
public struct RestartHistory: Hashable, Sendable {
    /// The scene's restart policy.
    public let policy: RestartPolicy
    /// When each restart happened, in seconds on the caller's clock, oldest first.
    public private(set) var restarts: [Double] = []
    /// Ends in a row, for the backoff: reset when a process stayed up longer than its max.
    public private(set) var endsInARow = 0
    /// When the current process started, in seconds on the caller's clock.
    public private(set) var lastStart: Double?

    /// A process started at `now`.
    public mutating func started(at now: Double) {
        lastStart = now
    }

    /// Creates an empty history under `policy`.
    public init(policy: RestartPolicy) {
        self.policy = policy
    }

    /// Decides what follows an end at time `now`, and records a restart when that is
    /// the decision.
    ///
    /// - `clean` is a status-0 exit; anything else (a status, a signal, a lost
    ///   connection, missed heartbeats) is abnormal.
    /// - More than `maxRestarts` restarts within `withinSeconds` dismisses with
    ///   `restart_intensity`.
    public mutating func decide(clean: Bool, now: Double) -> SupervisionDecision {
        switch policy.mode {
        case .temporary:
            return .dismiss(.processExited)
        case .transient where clean:
            return .dismiss(.processExited)
        case .transient, .permanent:
            restarts.removeAll { now - $0 >= policy.withinSeconds }
            guard restarts.count < policy.maxRestarts else { return .dismiss(.restartIntensity) }
            restarts.append(now)
            guard let backoff = policy.backoff else { return .restart(after: 0) }
            if let lastStart, now - lastStart > backoff.max { endsInARow = 0 }
            defer { endsInARow += 1 }
            return .restart(after: backoff.delay(after: endsInARow))
        }
    }
}
