public import SceneFlow
public import SceneJSON
public import SceneWire
import Foundation
import SceneSync

/// Which events a subscription takes: its topics, and the filters an event must match
/// (every one given).
public struct EventFilter: Hashable, Sendable {
    /// The topics; nil takes every topic.
    public var topics: [WireTopic]?
    /// Only events about these instances, when given.
    public var instances: [String]?
    /// Only events about instances of these scenes, when given.
    public var scenes: [String]?
    /// Only these signals, when given (other events do not pass).
    public var signals: [String]?

    /// A filter from its members: by default, every event.
    public init(topics: [WireTopic]? = nil, instances: [String]? = nil, scenes: [String]? = nil, signals: [String]? = nil) {
        self.topics = topics
        self.instances = instances
        self.scenes = scenes
        self.signals = signals
    }

    /// The `subscribe` params for this filter, resuming after `since` when given.
    public func params(since: UInt64? = nil) -> SubscribeParams {
        SubscribeParams(topics: topics?.map(\.rawValue), instances: instances, scenes: scenes, signals: signals, since: since)
    }
}

/// A `signal.emitted` event: what a scene announced.
public struct SignalEvent: Hashable, Sendable {
    /// The event's number.
    public let seq: UInt64
    /// The instance that emitted it.
    public let instance: String
    /// Its scene.
    public let scene: String
    /// The signal's name.
    public let signal: String
    /// What came with it (`null` when nothing did).
    public let payload: JSONValue

    /// The payload as a `T`.
    ///
    /// - Throws: the decoding error when it does not fit.
    public func payload<T: Decodable>(as type: T.Type) throws -> T {
        try payload.decoded(as: T.self)
    }
}

extension WireEvent {
    /// The signal this event carries, when it is a `signal.emitted`.
    public var signal: SignalEvent? {
        guard type == "signal.emitted", let instance = params["instance"]?.stringValue, let name = params["signal"]?.stringValue
        else { return nil }
        return SignalEvent(
            seq: seq, instance: instance, scene: params["scene"]?.stringValue ?? "", signal: name, payload: params["payload"] ?? .null)
    }
}

extension SceneConnection {
    /// Subscribes to what `filter` takes and returns the current sequence number and the
    /// stream of events after it.
    ///
    /// - With `since`, the events after it that the filter takes come first in the stream
    ///   (they are sent before the answer), then the live ones, with no gap and no
    ///   duplicate. Older than the coordinator keeps: ``ClientError/remote(_:)`` with
    ///   reason `history_gone` and `data.oldest`. `origin`, the one the client's events came
    ///   with, makes a coordinator that numbers them afresh say so (`history_gone`) rather
    ///   than replay events that only share their numbers.
    public func subscribe(
        _ filter: EventFilter, since: UInt64? = nil, origin: String? = nil, buffering: EventBuffering = .unbounded
    ) async throws(ClientError) -> (seq: UInt64, events: EventStream<WireEvent>) {
        // Registered before the request, so nothing sent before its answer is missed.
        let stream = link.events.subscribe(buffering: buffering)
        var params = filter.params(since: since)
        params.origin = origin
        let result: SubscribeResult = try await call(WireCalls.subscribe, params)
        return (result.seq, stream)
    }

    /// `scene.emit`: announces `signal` with `payload` (a scene connection for its own
    /// instance; a control connection names `instance`).
    public func emit(_ signal: String, payload: JSONValue? = nil, instance: String? = nil) async throws(ClientError) {
        // Built directly: signals are sent often, and the encoder is not needed for three members.
        var params: [String: JSONValue] = ["signal": .string(signal)]
        if let payload { params["payload"] = payload }
        if let instance { params["instance"] = .string(instance) }
        _ = try await call(WireMethod.sceneEmit.rawValue, params: .object(params))
    }

    /// `scene.emit` with a payload of any encodable type.
    public func emit(_ signal: String, with payload: some Encodable, instance: String? = nil) async throws(ClientError) {
        let json: JSONValue
        do {
            json = try JSONValue.encoded(payload)
        } catch {
            throw .invalidResponse("the payload of \(signal) does not encode: \(error)")
        }
        try await emit(signal, payload: json, instance: instance)
    }

    /// `scene.describe`: what `scene` is and serves: its interface, kind, instance policy
    /// and whether a call activates it.
    public func describe(_ scene: String) async throws(ClientError) -> DescribeResult {
        try await call(WireCalls.sceneDescribe, DescribeParams(scene: scene))
    }
}

/// What a ``ResumingSubscription`` hands on.
public enum SubscriptionUpdate: Hashable, Sendable {
    /// An event the filter takes, each once, in order.
    case event(WireEvent)
    /// The connection was lost and made again, and the subscription resumed after event
    /// `after`: the events missed meanwhile follow (as ``event(_:)``), and nothing was lost.
    case resumed(after: UInt64)
    /// The connection was made again, but the coordinator no longer has the events after
    /// `lastSeen` (its oldest is `oldest`), or numbers its events afresh: some were missed.
    /// The subscription goes on from the coordinator's present; read its state again to
    /// catch up.
    case historyGone(lastSeen: UInt64, oldest: UInt64)
}

extension SceneConnection {
    /// Subscribes, and answers the stream of what the connection receives from now on
    /// whether the request succeeds or not: events sent before a failed (or lost) answer
    /// are still there to read.
    fileprivate func openSubscription(_ params: SubscribeParams) async -> (EventStream<WireEvent>, Result<SubscribeResult, ClientError>) {
        let stream = link.events.subscribe(buffering: .unbounded)
        do throws(ClientError) {
            let result: SubscribeResult = try await call(WireCalls.subscribe, params)
            return (stream, .success(result))
        } catch {
            return (stream, .failure(error))
        }
    }
}

/// A subscription that outlives its connection: when the connection is lost (the
/// coordinator restarts, a socket fails), it connects again and resumes with `since` (and
/// the `origin` its events came with), so the stream sees every event its filter takes
/// exactly once, in order — or is told, with ``SubscriptionUpdate/historyGone(lastSeen:oldest:)``,
/// that the coordinator no longer has what it missed.
///
/// - Reconnects wait `retry` at first, doubling up to `maximumRetry`, until ``cancel()``
///   (or until the subscription is no longer referenced).
/// - The resume point is the last event received, or the last `subscribe` answer's `seq`
///   once every event through it has been received (filtered-out events are not asked for
///   again). A resume cut off halfway still keeps what it received.
public final class ResumingSubscription: Sendable {
    private let core: Core

    /// Every update, from the first subscription's answer on.
    public let updates: EventStream<SubscriptionUpdate>

    /// The number a reconnect would resume after: the subscription's first answer's
    /// `seq` (or the `since` it was given), then the last event received.
    public var lastSeq: UInt64 { core.state.withLock { $0.last } }

    /// Connects to the coordinator at `path`, subscribes with `filter` (resuming after
    /// `since`, numbered in the line of `origin`, when given), and keeps the subscription
    /// up until ``cancel()``.
    ///
    /// - Throws: what the first connection or subscription throws (a wrong filter,
    ///   `history_gone` for `since`, no coordinator at `path`): later failures are retried.
    public init(
        path: String, client: String, filter: EventFilter = EventFilter(), since: UInt64? = nil, origin: String? = nil,
        retry: Duration = .milliseconds(50), maximumRetry: Duration = .seconds(2), timeout: Double? = 30
    ) async throws(ClientError) {
        let core = Core(path: path, client: client, filter: filter, retry: retry, maximumRetry: maximumRetry, timeout: timeout)
        self.core = core
        updates = core.broadcaster.subscribe(buffering: .unbounded)
        let connection = try await SceneConnection.connect(path: path, client: client, timeout: timeout)
        var params = filter.params(since: since)
        params.origin = since == nil ? nil : origin
        let (stream, answer) = await connection.openSubscription(params)
        let result: SubscribeResult
        do {
            result = try answer.get()
        } catch {
            connection.close()
            throw error
        }
        core.state.withLock { state in
            state.connection = connection
            state.last = since ?? result.seq
        }
        // The task holds the core, not this object: dropping the subscription cancels it.
        let task = Task { await core.run(first: stream, since: since, answered: result) }
        core.state.withLock { $0.task = task }
    }

    deinit {
        core.cancel()
    }

    /// Stops: the connection closes and ``updates`` ends.
    public func cancel() {
        core.cancel()
    }

    /// Closes the current connection as a failing socket would: the subscription
    /// connects again and resumes (for tests of exactly that).
    package func interrupt() {
        core.state.withLock { $0.connection }?.close()
    }

    /// What the subscription's task works with.
    private final class Core: Sendable {
        struct State {
            var last: UInt64 = 0
            var task: Task<Void, Never>?
            var connection: SceneConnection?
            var cancelled = false
        }

        let broadcaster = EventBroadcaster<SubscriptionUpdate>()
        let state = Locked(State())
        let path: String
        let client: String
        let filter: EventFilter
        let retry: Duration
        let maximumRetry: Duration
        let timeout: Double?

        init(path: String, client: String, filter: EventFilter, retry: Duration, maximumRetry: Duration, timeout: Double?) {
            self.path = path
            self.client = client
            self.filter = filter
            self.retry = retry
            self.maximumRetry = maximumRetry
            self.timeout = timeout
        }

        var cancelled: Bool { state.withLock { $0.cancelled } || Task.isCancelled }

        func cancel() {
            let (task, connection) = state.withLock { state in
                state.cancelled = true
                return (state.task, state.connection)
            }
            task?.cancel()
            connection?.close()
            broadcaster.finish()
        }

        /// Makes `connection` the current one; false (and it is closed) once cancelled.
        private func adopt(_ connection: SceneConnection) -> Bool {
            let (adopted, previous) = state.withLock { state -> (Bool, SceneConnection?) in
                guard !state.cancelled else { return (false, nil) }
                defer { state.connection = connection }
                return (true, state.connection)
            }
            previous?.close()
            if !adopted { connection.close() }
            return adopted
        }

        /// Hands on every event of `stream` after `received`, and answers the last one.
        private func drain(_ stream: EventStream<WireEvent>, after received: UInt64, answered: UInt64?) async -> UInt64 {
            var received = received
            for await event in stream where event.seq > received {
                received = event.seq
                let resume = max(received, answered ?? 0)
                state.withLock { $0.last = resume }
                broadcaster.publish(.event(event))
            }
            // Everything sent before the answer has been read: the answer's number holds.
            if let answered, answered > received {
                received = answered
                state.withLock { $0.last = received }
            }
            return received
        }

        func run(first: EventStream<WireEvent>, since: UInt64?, answered firstAnswer: SubscribeResult) async {
            var received = await drain(first, after: since ?? firstAnswer.seq, answered: firstAnswer.seq)
            var origin = firstAnswer.origin
            var wait = retry
            while !cancelled {
                try? await Task.sleep(for: wait)
                guard !cancelled else { break }
                let connection: SceneConnection
                do {
                    connection = try await SceneConnection.connect(path: path, client: client, timeout: timeout)
                } catch {
                    wait = min(wait * 2, maximumRetry)
                    continue
                }
                guard adopt(connection) else { break }
                var params = filter.params(since: received)
                params.origin = origin
                let (stream, answer) = await connection.openSubscription(params)
                switch answer {
                case .success(let result):
                    broadcaster.publish(.resumed(after: received))
                    origin = result.origin ?? origin
                    received = await drain(stream, after: received, answered: result.seq)
                    wait = retry
                case .failure(let error) where error.reason == .historyGone:
                    var oldest: UInt64 = 0
                    if case .remote(let wire) = error { oldest = wire.data["oldest"]?.intValue.flatMap(UInt64.init(exactly:)) ?? 0 }
                    // The refused request subscribed nothing: `stream` carries the fresh one.
                    let result: SubscribeResult
                    do {
                        result = try await connection.call(WireCalls.subscribe, filter.params())
                    } catch {
                        connection.close()
                        wait = min(wait * 2, maximumRetry)
                        continue
                    }
                    broadcaster.publish(.historyGone(lastSeen: received, oldest: oldest))
                    origin = result.origin
                    received = await drain(stream, after: result.seq, answered: result.seq)
                    wait = retry
                case .failure:
                    // Whatever came before the failure is kept: the next try asks for less.
                    connection.close()
                    received = await drain(stream, after: received, answered: nil)
                    wait = min(wait * 2, maximumRetry)
                }
            }
            state.withLock { $0.connection }?.close()
        }
    }
}
