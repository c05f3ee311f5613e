/// Whatever backs the instances of a scene: starts and stops it, asks it to close, and
/// carries calls to it.
///
/// A registry has one for each kind of hosting its declarations use (see
/// ``SceneHosting``): the behaviours it hosts itself for `inProcess` scenes, and the one
/// an embedding program gives for `process` scenes (a coordinator's supervisor). A
/// `virtual` scene has none: its instances open at once, close without being asked, and
/// calls to them are answered `not_connected`.
public protocol SceneBacking: Sendable {
    /// Starts what backs `instance` and returns once it is ready; the instance stays
    /// `opening` until then, while other requests go on.
    ///
    /// - Throws: ``RegistryRejection`` (such as `launch_failed`) when it cannot start; the
    ///   instance is then dismissed and the open fails with that reason.
    func launch(_ instance: InstanceID) async throws(RegistryRejection)

    /// Stops what backs `instance`; called when it is dismissed, also while opening (then
    /// possibly twice: once for the dismiss, once when its launch returns).
    func stop(_ instance: InstanceID) async

    /// Asks what backs `instance` whether it may close; `force` says it will close
    /// whatever the answer. Answers `false` for a veto. The default accepts.
    func close(_ instance: InstanceID, force: Bool) async -> Bool

    /// Carries `call` to `instance` and answers its result; `timeout` bounds the wait.
    /// The default answers `not_connected`.
    func call(_ call: SceneCall, on instance: InstanceID, timeout: Duration) async throws(SceneError) -> ScenePayload

    /// Delivers a notification to `instance`. The default answers `not_connected`.
    func notify(_ call: SceneCall, on instance: InstanceID) async throws(SceneError)

    /// Stops what backs `instance` and starts it again, the instance and its path kept (a
    /// supervision group's strategy). Answers false when nothing runs for it that could
    /// restart. The default answers false.
    func restart(_ instance: InstanceID) async -> Bool
}

extension SceneBacking {
    /// Accepts every close, so a backing that never vetoes need not implement it.
    public func close(_ instance: InstanceID, force: Bool) async -> Bool { true }

    /// Answers every call `not_connected`: a backing without a channel to its instances
    /// need not implement it.
    public func call(_ call: SceneCall, on instance: InstanceID, timeout: Duration) async throws(SceneError) -> ScenePayload {
        throw .notConnected(instance)
    }

    /// Answers every notification `not_connected`, as ``call(_:on:timeout:)`` does.
    public func notify(_ call: SceneCall, on instance: InstanceID) async throws(SceneError) {
        throw .notConnected(instance)
    }

    /// Restarts nothing: a backing that cannot restart need not implement it.
    public func restart(_ instance: InstanceID) async -> Bool { false }
}

/// How long a registry waits for the code behind an instance.
public struct SceneTimeouts: Hashable, Sendable {
    /// How long an in-process behaviour has to start (default 10 s, as a process has to say
    /// hello); a longer start fails the open `launch_timeout`.
    public var start: Duration
    /// How long a call waits for its answer unless the caller says (default 10 s).
    public var call: Duration
    /// How long an instance has to answer an interactive close; no answer in time counts
    /// as accepted (default 3 s).
    public var close: Duration

    /// Creates timeouts; each defaults to the protocol's (10 s, 10 s, 3 s).
    public init(start: Duration = .seconds(10), call: Duration = .seconds(10), close: Duration = .seconds(3)) {
        self.start = start
        self.call = call
        self.close = close
    }

    /// The defaults: 10 s to start, 10 s per call, 3 s to answer a close.
    public static let standard = SceneTimeouts()
}
