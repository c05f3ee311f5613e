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
    ///   reason `history_gone` and `data.oldest`.
    public func subscribe(
        _ filter: EventFilter, since: UInt64? = nil, buffering: EventBuffering = .unbounded
    ) async throws(ClientError) -> (seq: UInt64, events: EventStream<WireEvent>) {
        // Registered before the request, so nothing sent before its answer is missed.
        let stream = link.events.subscribe(buffering: buffering)
        let result: SubscribeResult = try await call(.subscribe, params: filter.params(since: since))
        return (result.seq, stream)
    }

    /// `scene.emit`: announces `signal` with `payload` (a scene connection for its own
    /// instance; a control connection names `instance`).
    public func emit(_ signal: String, payload: JSONValue? = nil, instance: String? = nil) async throws(ClientError) {
        _ = try await call(WireMethod.sceneEmit.rawValue, params: WireCodec.json(EmitParams(instance: instance, signal: signal, payload: payload)))
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
        try await call(.sceneDescribe, params: DescribeParams(scene: scene))
    }
}

/// What a ``ResumingSubscription`` hands on.
public enum SubscriptionUpdate: Hashable, Sendable {
    /// An event the filter takes, each once, in order.
    case event(WireEvent)
    /// The connection was lost and made again; the events missed meanwhile came (as
    /// ``event(_:)``) before this, and nothing was lost.
    case resumed(after: UInt64)
    /// The connection was made again, but the coordinator no longer keeps the events
    /// after `lastSeen` (its oldest is `oldest`): some were missed. The subscription goes
    /// on from the coordinator's present; read its state again to catch up.
    case historyGone(lastSeen: UInt64, oldest: UInt64)
}

/// A subscription that outlives its connection: when the connection is lost (the
/// coordinator restarts, a socket fails), it connects again and resumes with `since`, so
/// the stream sees every event its filter takes exactly once, in order.
///
/// - Reconnects wait `retry` at first, doubling up to `maximumRetry`, until ``cancel()``.
/// - The resume point is the last event received, or the last `subscribe` answer's `seq`
///   once every event through it has been received (filtered-out events are not asked for
///   again).
public final class ResumingSubscription: Sendable {
    private let broadcaster = EventBroadcaster<SubscriptionUpdate>()
    private let state = Locked<(last: UInt64, task: Task<Void, Never>?, connection: SceneConnection?, cancelled: Bool)>(
        (0, nil, nil, false))

    /// Every update, from the first subscription's answer on.
    public let updates: EventStream<SubscriptionUpdate>

    /// The number a reconnect would resume after: the subscription's first answer's
    /// `seq` (or the `since` it was given), then the last event received.
    public var lastSeq: UInt64 { state.withLock { $0.last } }

    /// Connects to the coordinator at `path`, subscribes with `filter` (resuming after
    /// `since` when given), and keeps the subscription up until ``cancel()``.
    ///
    /// - Throws: what the first connection or subscription throws (a wrong filter,
    ///   `history_gone` for `since`, no coordinator at `path`): later failures are retried.
    public init(
        path: String, client: String, filter: EventFilter = EventFilter(), since: UInt64? = nil,
        retry: Duration = .milliseconds(50), maximumRetry: Duration = .seconds(2), timeout: Double? = 30
    ) async throws(ClientError) {
        updates = broadcaster.subscribe(buffering: .unbounded)
        let connection = try await SceneConnection.connect(path: path, client: client, timeout: timeout)
        let (seq, stream) = try await connection.subscribe(filter, since: since)
        state.withLock { state in
            state.connection = connection
            state.last = since ?? seq
        }
        let task = Task { [weak self] () -> Void in
            guard let self else { return }
            await self.run(first: (seq, stream), since: since, path: path, client: client, filter: filter, retry: retry,
                maximumRetry: maximumRetry, timeout: timeout)
        }
        state.withLock { $0.task = task }
    }

    deinit {
        cancel()
    }

    /// Stops: the connection closes and ``updates`` ends.
    public func cancel() {
        let (task, connection) = state.withLock { state in
            state.cancelled = true
            return (state.task, state.connection)
        }
        task?.cancel()
        connection?.close()
        broadcaster.finish()
    }

    /// Closes the current connection as a failing socket would: the subscription
    /// connects again and resumes (for tests of exactly that).
    package func interrupt() {
        state.withLock { $0.connection }?.close()
    }

    private var cancelled: Bool { state.withLock { $0.cancelled } || Task.isCancelled }

    private func run(
        first: (seq: UInt64, events: EventStream<WireEvent>), since: UInt64?, path: String, client: String, filter: EventFilter,
        retry: Duration, maximumRetry: Duration, timeout: Double?
    ) async {
        var received = since ?? first.seq
        var answered = first.seq
        var current: EventStream<WireEvent>? = first.events
        var wait = retry
        while !cancelled {
            if let stream = current {
                for await event in stream where event.seq > received {
                    received = event.seq
                    let resume = max(received, answered)
                    state.withLock { $0.last = resume }
                    broadcaster.publish(.event(event))
                }
                // Everything sent before the answer has been read: the answer's number holds.
                received = max(received, answered)
                state.withLock { $0.last = received }
                current = nil
            }
            guard !cancelled else { return }
            try? await Task.sleep(for: wait)
            guard !cancelled else { return }
            do throws(ClientError) {
                let connection = try await SceneConnection.connect(path: path, client: client, timeout: timeout)
                state.withLock { $0.connection = connection }
                do throws(ClientError) {
                    let (seq, stream) = try await connection.subscribe(filter, since: received)
                    answered = seq
                    current = stream
                    broadcaster.publish(.resumed(after: received))
                } catch let error where error.reason == WireReason.historyGone {
                    var oldest: UInt64 = 0
                    if case .remote(let wire) = error { oldest = wire.data["oldest"]?.intValue.flatMap(UInt64.init(exactly:)) ?? 0 }
                    let (seq, stream) = try await connection.subscribe(filter)
                    broadcaster.publish(.historyGone(lastSeen: received, oldest: oldest))
                    received = seq
                    answered = seq
                    current = stream
                }
                wait = retry
            } catch {
                wait = min(wait * 2, maximumRetry)
            }
        }
    }
}
