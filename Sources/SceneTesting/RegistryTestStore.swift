public import SceneCore
public import SceneFlow
import SceneJSON
import SceneSync
public import Testing

/// What a registry request answers that has a name on the wire: an open, a route, a link.
public protocol NamedOutcome: Sendable {
    /// What the request did, as the wire names it.
    var name: OutcomeName { get }
}

extension OpenOutcome: NamedOutcome {}
extension RouteOutcome: NamedOutcome {}
extension LinkOutcome: NamedOutcome {}

/// Drives a `SceneRegistry` in a test, with every outcome, refusal, event and state the
/// test cares about asserted, and every event accounted for.
///
/// - A request states what it expects: ``expect(_:sourceLocation:_:)`` the outcome's name
///   (`opened`, `focused`, `presented`, `handled`, …), ``expect(rejected:sourceLocation:_:)``
///   the refusal. Anything else fails the test with what happened instead.
/// - ``receive(_:timeout:sourceLocation:)`` takes the registry's events in order, each
///   within a bounded wait; a gap in the sequence numbers is a failure.
/// - ``assertState(_:sourceLocation:)`` checks the whole state, ``assert(_:_:sourceLocation:)``
///   a part of it; a mismatch shows a line-by-line difference.
/// - ``finish(timeout:sourceLocation:)`` fails on every event not received (when
///   exhaustive; ``Exhaustivity/off(showSkipped:)`` lets them go).
///
/// ```swift
/// let store = RegistryTestStore(try SceneRegistry(.demo))
/// let main = await store.open(DemoScenes.main, .opened)
/// await store.receive(.opened(main!))
/// await store.receive(.focused(main!.id))
/// await store.assert(\.focused, main?.id)
/// await store.expect(rejected: .unknownScene("nowhere")) { try await $0.scenes.open(SceneID<NoValue>("nowhere")) }
/// await store.receive { if case .requestRejected = $0 { true } else { false } }
/// await store.finish()
/// ```
public final class RegistryTestStore<R: Route>: Sendable {
    /// The registry under test.
    public let registry: SceneRegistry<R>
    /// What the store insists on at ``finish(timeout:sourceLocation:)``.
    public let exhaustivity: Exhaustivity
    private let events: RegistryEventRecorder<R>
    private let finished = Locked(false)
    private let createdAt: SourceLocation

    /// A test store over `registry`, recording every event it emits from now on.
    public init(
        _ registry: SceneRegistry<R>, exhaustivity: Exhaustivity = .on, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        self.registry = registry
        self.exhaustivity = exhaustivity
        self.events = RegistryEventRecorder(registry)
        self.createdAt = sourceLocation
    }

    /// A store that ends without ``finish(timeout:sourceLocation:)`` still fails on the
    /// events it recorded and nobody received (events are recorded as the registry emits
    /// them, so those of every request that answered are there).
    deinit {
        guard !finished.withLock({ $0 }) else { return }
        for event in events.unassertedNow() {
            exhaustivity.report(
                "event not asserted (the store ended without finish()): #\(event.seq) \(event.event)", sourceLocation: createdAt)
        }
    }

    // MARK: Requests

    /// Runs `request` and asserts it answered an outcome named `outcome`; answers the
    /// outcome, or nil when the request failed (which fails the test).
    @discardableResult
    public func expect<O: NamedOutcome>(
        _ outcome: OutcomeName, sourceLocation: SourceLocation = #_sourceLocation,
        _ request: (SceneRegistry<R>) async throws -> O
    ) async -> O? {
        do {
            let answer = try await request(registry)
            if answer.name != outcome {
                Issue.record("expected \(outcome), the request answered \(answer)", sourceLocation: sourceLocation)
            }
            return answer
        } catch {
            Issue.record("expected \(outcome), the request failed: \(describe(error))", sourceLocation: sourceLocation)
            return nil
        }
    }

    /// Runs `request` and asserts it was refused for `reason` (as a `RegistryRejection`, or
    /// as the `SceneError` a request through `registry.scenes` throws for it).
    public func expect<T>(
        rejected reason: RegistryRejection, sourceLocation: SourceLocation = #_sourceLocation,
        _ request: (SceneRegistry<R>) async throws -> T
    ) async {
        do {
            let answer = try await request(registry)
            Issue.record("expected rejected \(reason.code), the request answered \(answer)", sourceLocation: sourceLocation)
        } catch let rejection as RegistryRejection {
            if rejection != reason {
                Issue.record(
                    "expected rejected \(reason.code) (\(reason)), it was rejected \(rejection.code) (\(rejection))",
                    sourceLocation: sourceLocation)
            }
        } catch let error as SceneError {
            if error != SceneError(reason) {
                Issue.record("expected rejected \(reason.code) (\(reason)), it failed \(error)", sourceLocation: sourceLocation)
            }
        } catch {
            Issue.record("expected rejected \(reason.code), the request failed: \(error)", sourceLocation: sourceLocation)
        }
    }

    /// Opens `scene` with `value` and asserts the outcome (`opened` or `focused`); answers
    /// the instance.
    @discardableResult
    public func open<Value>(
        _ scene: SceneID<Value>, value: Value, _ outcome: OutcomeName, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> InstanceInfo<R>? {
        await expect(outcome, sourceLocation: sourceLocation) { try await $0.open(scene.id, value: try SceneID.json(value)) }?.instance
    }

    /// Opens `scene`, which takes no value, and asserts the outcome; answers the instance.
    @discardableResult
    public func open(
        _ scene: SceneID<NoValue>, _ outcome: OutcomeName, sourceLocation: SourceLocation = #_sourceLocation
    ) async -> InstanceInfo<R>? {
        await open(scene, value: NoValue(), outcome, sourceLocation: sourceLocation)
    }

    // MARK: Events

    /// Takes the next event, waiting at most `timeout`, and asserts it is `expected`.
    public func receive(
        _ expected: RegistryEvent<R>, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        await events.receive(expected, timeout: timeout, sourceLocation: sourceLocation)
    }

    /// Takes the next event, waiting at most `timeout`, and asserts `matches` accepts it.
    @discardableResult
    public func receive(
        timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation,
        where matches: (RegistryEvent<R>) -> Bool
    ) async -> RegistryEvent<R>? {
        await events.receive(timeout: timeout, sourceLocation: sourceLocation, where: matches)
    }

    // MARK: State

    /// Asserts the registry's whole state is `expected` (its sequence number included).
    public func assertState(_ expected: RegistryState<R>, sourceLocation: SourceLocation = #_sourceLocation) async {
        let actual = await registry.state()
        if actual != expected {
            Issue.record(
                "the state differs from the expected one:\n\(difference(expected: expected, actual: actual))",
                sourceLocation: sourceLocation)
        }
    }

    /// Asserts the part of the registry's state at `keyPath` is `expected`.
    public func assert<T: Equatable & Sendable>(
        _ keyPath: KeyPath<RegistryState<R>, T>, _ expected: T, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        let actual = await registry.state()[keyPath: keyPath]
        if actual != expected {
            Issue.record(
                "state \(keyPath): expected \(expected), it is \(actual)\n\(difference(expected: expected, actual: actual))",
                sourceLocation: sourceLocation)
        }
    }

    // MARK: Ending

    /// Waits for every event emitted so far, then fails on each one not received (when
    /// exhaustive).
    public func finish(timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async {
        finished.withLock { $0 = true }
        for event in await events.unasserted(timeout: timeout, sourceLocation: sourceLocation) {
            exhaustivity.report("event not asserted: #\(event.seq) \(event.event)", sourceLocation: sourceLocation)
        }
    }

    private func describe(_ error: any Error) -> String {
        (error as? RegistryRejection).map { "rejected \($0.code): \($0)" } ?? "\(error)"
    }
}
