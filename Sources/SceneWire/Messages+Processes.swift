public import SceneCore
import SceneFlow
public import SceneJSON

/// `scene.phase` {instance, phase}: a scene reports its own phase.
public struct ScenePhaseParams: Codable, Hashable, Sendable {
    /// The instance whose phase changed (wire member `instance`); a scene connection may
    /// leave it out, and its own is filled in.
    public var instance: String
    /// The phase reported: `active`, `inactive` or `background`; another phase is
    /// `invalid_phase`, a name that is no phase -32602; `active` or `inactive` for a window
    /// a pushed one covers is `covered_by_pushed_window`.
    public var phase: String
    /// Params for `scene.phase`, with every member given.
    public init(instance: String, phase: String) {
        self.instance = instance
        self.phase = phase
    }
}

/// Whom a `scene.call` or `scene.notify` is for: an instance id, or `{"scene": id}`, the
/// most recently focused instance of that scene.
public enum CallTarget: Codable, Hashable, Sendable, CustomStringConvertible {
    /// An instance id, written as a plain string.
    case instance(String)
    /// A scene id, written `{"scene": id}`: its most recently focused open instance (its
    /// newest when none was focused).
    case scene(String)

    /// Reads an instance id, or `{"scene": id}`.
    public init(from decoder: any Decoder) throws {
        switch try TargetForm(from: decoder) {
        case .instance(let id): self = .instance(id)
        case .scene(let scene): self = .scene(scene)
        }
    }

    /// Writes an instance as its id, a scene as `{"scene": id}`.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .instance(let id): try TargetForm.instance(id).encode(to: encoder)
        case .scene(let scene): try TargetForm.scene(scene).encode(to: encoder)
        }
    }

    public var description: String {
        switch self {
        case .instance(let id): return id
        case .scene(let scene): return "the most recent instance of \(scene)"
        }
    }
}

/// `scene.call` / `scene.notify` {to, method, params?, timeout?}.
public struct SceneCallParams: Codable, Hashable, Sendable {
    /// Whom the call is for (wire member `to`): an instance id, or `{"scene": id}`.
    public var to: CallTarget
    /// The method the target receives; names that begin with `scene.` or `flow.` are
    /// `reserved_method`.
    public var method: String
    /// The params the target receives as the caller gave them; nil when absent or `null`.
    public var params: JSONValue?
    /// Seconds to wait for the answer (`scene.call`); the coordinator's default when nil.
    public var timeout: Double?
    /// The calling instance; a scene connection's own when omitted.
    public var from: String?

    /// Params for `scene.call` or `scene.notify`, with `from` left out.
    public init(to: CallTarget, method: String, params: JSONValue? = nil, timeout: Double? = nil) {
        self.to = to
        self.method = method
        self.params = params
        self.timeout = timeout
    }

    /// Params for a call or notification of `method` to `target`, its `timeout` in seconds:
    /// how the package's Swift callers write `scene.call` and `scene.notify`.
    package init(to target: SceneTarget, method: String, params: JSONValue?, timeout: Duration? = nil) {
        let to: CallTarget
        switch target {
        case .instance(let id): to = .instance(id.description)
        case .scene(let scene): to = .scene(scene)
        }
        let seconds = timeout.map { Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18 }
        self.init(to: to, method: method, params: params, timeout: seconds)
    }

    /// The longest `timeout` a call may ask for, in seconds (one hour).
    public static let maximumTimeout: Double = 3600

    /// Writes `scene.call` / `scene.notify` params straight into bytes: the JSON the
    /// `Encodable` conformance gives (members sorted, absent ones left out), with `params`
    /// written by itself (a typed call's arguments, say, without a tree of values on the way).
    package static func write(
        to target: CallTarget, method: String, params: (some WireWritable)?, timeout: Double?, from: String?,
        into output: inout [UInt8]
    ) {
        var object = ObjectWriter()
        if let from {
            object.key("from", to: &output)
            JSONValue.writeQuoted(from, to: &output)
        }
        object.key("method", to: &output)
        JSONValue.writeQuoted(method, to: &output)
        if let params {
            object.key("params", to: &output)
            params.write(to: &output)
        }
        if let timeout {
            object.key("timeout", to: &output)
            JSONValue.double(timeout).write(to: &output)
        }
        object.key("to", to: &output)
        switch target {
        case .instance(let id):
            JSONValue.writeQuoted(id, to: &output)
        case .scene(let scene):
            var inner = ObjectWriter()
            inner.key("scene", to: &output)
            JSONValue.writeQuoted(scene, to: &output)
            inner.end(&output)
        }
        object.end(&output)
    }

    /// The members of `scene.call` / `scene.notify` params read straight from the
    /// message, `params` left as the bytes to relay.
    public struct Scanned: Sendable {
        /// `to`: an instance id, or `{"scene": id}`.
        public var to: CallTarget
        /// `method`, the name to relay.
        public var method: String
        /// `timeout` in seconds, not yet range-checked (see `refusal(method:timeout:)`); nil
        /// when absent or `null`.
        public var timeout: Double?
        /// `from`, when given (as a string); a scene connection's must name its own instance.
        public var from: String?
        /// The caller's `params` as it wrote them; nil when absent or `null`.
        public var params: RawJSON?
    }

    /// Reads `scene.call` params at `range` of `message` (a range an ``Envelope`` scan
    /// checked) without building the caller's `params`. Returns nil for anything but the
    /// plain, well-typed shape, which the `Decodable` path then reports precisely.
    public static func scan(_ message: UnsafeRawBufferPointer, range: Range<Int>) -> Scanned? {
        var parser = JSONParser(params: UnsafeRawBufferPointer(rebasing: message[range]))
        var to: CallTarget?
        var method: String?
        var timeout: Double?
        var from: String?
        var params: Range<Int>?
        let read = parser.readObject(keys: ["to", "method", "params", "timeout", "from"]) { parser, key throws(JSONParseError) in
            switch key {
            case 0?:
                switch try parser.parseValue() {
                case .string(let id): to = .instance(id)
                case .object(let members):
                    guard case .string(let scene)? = members["scene"] else { return false }
                    to = .scene(scene)
                default: return false
                }
            case 1?:
                guard let name = try parser.readString() else { return false }
                method = name
            case 2?:
                let start = parser.offset
                try parser.skipValue()
                params = start..<parser.offset
            case 3?:
                switch try parser.parseValue() {
                case .integer(let seconds): timeout = Double(seconds)
                case .double(let seconds): timeout = seconds
                case .null: timeout = nil
                default: return false
                }
            case 4?:
                // Given as anything but a string (null too), it is the general path's to
                // judge: a scene connection's `from` must name its own instance.
                guard let id = try parser.readString() else { return false }
                from = id
            default:
                try parser.skipValue()
            }
            return true
        }
        guard read, let to, let method else { return nil }
        var raw: RawJSON?
        if let params {
            let text = RawJSON(checked: Array(UnsafeRawBufferPointer(rebasing: message[range])[params]))
            raw = text.isNull ? nil : text
        }
        return Scanned(to: to, method: method, timeout: timeout, from: from, params: raw)
    }

    /// Why a call with `method` and `timeout` is refused before any target is looked up
    /// (`reserved_method`, or -32602 for a timeout out of range); nil when it is not.
    public static func refusal(method: String, timeout: Double?) -> WireError? {
        if isReserved(method) {
            return .domain(
                reason: .reservedMethod,
                message: "\(method): names that begin with scene. or flow. are the coordinator's own",
                data: ["method": .string(method)])
        }
        if let timeout, !(timeout > 0 && timeout <= maximumTimeout) {
            return .invalidParams("timeout: must be a positive number of seconds, at most \(Int(maximumTimeout))")
        }
        return nil
    }

    /// Whether `method` is reserved for the coordinator: `scene.…` and `flow.…` names.
    public static func isReserved(_ method: String) -> Bool {
        method.hasPrefix("scene.") || method.hasPrefix("flow.")
    }
}

/// `scene.close` {force}, coordinator → scene.
public struct SceneCloseParams: Codable, Hashable, Sendable {
    /// Whether the close is forced: a forced close cannot be vetoed, an interactive one
    /// (`false`) may be.
    public var force: Bool
    /// Params for `scene.close`, forced or interactive.
    public init(force: Bool) { self.force = force }
}

/// The answer to `scene.close`: {accepted}.
public struct SceneCloseResult: Codable, Hashable, Sendable {
    /// Whether the scene agrees to close; `false` vetoes an interactive close, and a
    /// forced one goes ahead anyway.
    public var accepted: Bool
    /// A scene's answer to `scene.close`.
    public init(accepted: Bool) { self.accepted = accepted }
}

/// What the coordinator sends a scene process: requests it answers, and notifications.
public enum CoordinatorMethod {
    /// Request `{}`: the heartbeat; any answer, even an error, counts as alive.
    public static let ping = "scene.ping"
    /// Request `{force}`: asks the scene to close; it answers `{accepted}`.
    public static let close = "scene.close"
    /// Request: decide a route request at run time (a scene declared `"decides": true`);
    /// params `{route, path}`, answered `{decision: "present", style}`, `{decision: "pass"}`
    /// or `{decision: "reject", reason}`.
    public static let decide = "scene.decide"
    /// Notification `{path, queue, cause, seq}`: the scene's path changed.
    public static let flowChanged = "flow.changed"
    /// Notification `{}`: the instance that presented this one (`scene.present`) was
    /// dismissed; this one is dismissed next.
    public static let parentDismissed = "scene.parent_dismissed"
    /// Notification `{phase}`: the scene's phase changed.
    public static let phaseChanged = "scene.phase_changed"
}

/// `scene.status` {instance}: an instance and, for a process scene, its process.
public struct StatusParams: Codable, Hashable, Sendable {
    /// The instance (a scene connection's own when left out).
    public var instance: String
    /// Params for `scene.status`.
    public init(instance: String) { self.instance = instance }
}

/// How an instance's process is doing, as `systemctl status` tells a unit's.
public struct ProcessStatus: Codable, Hashable, Sendable {
    /// How the last process ended: its status or signal, and why it was killed, if it was.
    public struct End: Codable, Hashable, Sendable {
        /// Its exit status; nil when a signal ended it.
        public var status: Int32?
        /// The signal that ended it; nil when it exited.
        public var signal: Int32?
        /// Why the coordinator killed it (`killed: 3 heartbeats in a row unanswered`); nil
        /// when it ended by itself.
        public var killed: String?
        /// An end from its members.
        public init(status: Int32?, signal: Int32?, killed: String?) {
            self.status = status
            self.signal = signal
            self.killed = killed
        }
    }

    /// `starting` (spawned, no hello yet), `connected`, `unreachable` (its connection
    /// went; it is being stopped), `waiting` (for a process to attach, or to attach again)
    /// or `idle` (no process: waiting for a restart, or none).
    public var stage: String
    /// The running process's pid; nil when none runs, and for a process that attached
    /// with a token (the coordinator did not start it).
    public var pid: Int32?
    /// Seconds since the running process started (or attached); nil when none runs.
    public var uptime: Double?
    /// Seconds since it last answered (its hello or a heartbeat); nil before its hello.
    public var heartbeatAge: Double?
    /// Processes started for the instance (in this coordinator's life).
    public var starts: Int
    /// Restarts among them: `starts - 1`, or 0.
    public var restarts: Int
    /// How the last process ended; nil while the first runs.
    public var lastExit: End?
    /// The launch command.
    public var command: [String]

    /// A status from its members.
    public init(
        stage: String, pid: Int32?, uptime: Double?, heartbeatAge: Double?, starts: Int, lastExit: End?, command: [String]
    ) {
        self.stage = stage
        self.pid = pid
        self.uptime = uptime
        self.heartbeatAge = heartbeatAge
        self.starts = starts
        self.restarts = max(starts - 1, 0)
        self.lastExit = lastExit
        self.command = command
    }
}

/// The `scene.status` result: {instance, process}, `process` null for a virtual or
/// in-process instance.
public struct StatusResult: Codable, Hashable, Sendable {
    /// The instance.
    public var instance: InstanceObject
    /// Its process; nil (written null) when no process backs it.
    public var process: ProcessStatus?
    /// The result, with every member given.
    public init(instance: InstanceObject, process: ProcessStatus?) {
        self.instance = instance
        self.process = process
    }

    private enum CodingKeys: String, CodingKey { case instance, process }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(instance, forKey: .instance)
        if let process { try container.encode(process, forKey: .process) } else { try container.encodeNil(forKey: .process) }
    }
}

/// `scene.restart` {instance}: restarts an instance's process now.
public struct RestartParams: Codable, Hashable, Sendable {
    /// The instance (a scene connection's own when left out).
    public var instance: String
    /// Params for `scene.restart`.
    public init(instance: String) { self.instance = instance }
}

extension SceneCallParams: WireWritable {
    /// Appends the params' JSON: what their `Encodable` conformance gives, without an
    /// encoder.
    public func write(to output: inout [UInt8]) {
        Self.write(to: to, method: method, params: params, timeout: timeout, from: from, into: &output)
    }
}
