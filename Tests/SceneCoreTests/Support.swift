import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneTesting
import Testing

func id(_ text: String) -> InstanceID { InstanceID(text)! }

/// The demo manifest with `edit` applied to its JSON first.
func demoManifest(_ edit: (inout [String: JSONValue]) -> Void = { _ in }) throws -> Manifest {
    guard case .object(var root) = Manifest.demo.json else { throw ManifestError(problems: []) }
    edit(&root)
    return try Manifest(json: .object(root))
}

/// The demo registry; with `launcher`, every scene runs in a process `launcher` backs.
func demoRegistry(
    _ edit: (inout [String: JSONValue]) -> Void = { _ in }, launcher: (any SceneBacking)? = nil
) throws -> SceneRegistry<JSONValue> {
    guard launcher != nil else { return try SceneRegistry(manifest: demoManifest(edit)) }
    return try SceneRegistry(manifest: demoManifest { root in
        edit(&root)
        everySceneLaunched(&root)
    }, processes: launcher)
}

/// Gives every scene of a manifest's JSON a launch command.
func everySceneLaunched(_ root: inout [String: JSONValue]) {
    guard case .array(let scenes)? = root["scenes"] else { return }
    root["scenes"] = .array(scenes.map { scene in
        guard case .object(var members) = scene else { return scene }
        members["launch"] = ["command": ["scene-process"]]
        return .object(members)
    })
}

/// A launcher that holds every launch until the test releases it, so tests can act on an
/// instance while it is still `opening`.
final class GateLauncher: SceneBacking {
    private struct State {
        var waiting: [InstanceID: CheckedContinuation<Bool, Never>] = [:]
        var launches: [InstanceID] = []
        var stopped: [InstanceID] = []
        /// Releases that came before their launch: the launch finishes at once.
        var released: [InstanceID: Bool] = [:]
        /// Tests waiting for a launch to be held at the gate, by instance.
        var watchers: [InstanceID: [Wake]] = [:]
    }

    private let state = Locked(State())

    var launches: [InstanceID] { state.withLock { $0.launches } }
    var stopped: [InstanceID] { state.withLock { $0.stopped } }

    func launch(_ instance: InstanceID) async throws(RegistryRejection) {
        let started = await withCheckedContinuation { continuation in
            let (early, watchers) = state.withLock { state -> (Bool?, [Wake]) in
                state.launches.append(instance)
                if let early = state.released.removeValue(forKey: instance) { return (early, []) }
                state.waiting[instance] = continuation
                return (nil, state.watchers.removeValue(forKey: instance) ?? [])
            }
            for watcher in watchers { watcher.resume() }
            if let early { continuation.resume(returning: early) }
        }
        if !started { throw .launchFailed(instance, detail: "the test failed it") }
    }

    func stop(_ instance: InstanceID) async {
        let waiter = state.withLock { state in
            state.stopped.append(instance)
            return state.waiting.removeValue(forKey: instance)
        }
        waiter?.resume(returning: false)
    }

    /// Lets the launch of `instance` finish, successfully or not (at once when it has not
    /// begun yet).
    func release(_ instance: InstanceID, succeed: Bool = true) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiting.removeValue(forKey: instance) else {
                state.released[instance] = succeed
                return nil
            }
            return waiter
        }
        waiter?.resume(returning: succeed)
    }

    /// Returns once a launch of `instance` waits at the gate (at once if one does), woken
    /// by the launch itself; a minute without one records a thread dump and throws.
    func waitForLaunch(_ instance: InstanceID, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let began = await waitForWake(within: .seconds(60)) { wake in
            let now = state.withLock { state -> Bool in
                if state.waiting[instance] != nil { return true }
                state.watchers[instance, default: []].append(wake)
                return false
            }
            if now { wake.resume() }
        }
        guard began else {
            let dump = await ThreadDump.record(because: "the launch of \(instance)")
            Issue.record("the launch of \(instance) did not begin within a minute; every thread's backtrace: \(dump)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
    }
}

/// A launcher whose launches succeed at once (after a real suspension).
struct InstantLauncher: SceneBacking {
    func launch(_ instance: InstanceID) async throws(RegistryRejection) {
        await Task.yield()
    }

    func stop(_ instance: InstanceID) async {}
}

/// The rejection a throwing registry call threw, or nil when it succeeded (or threw
/// something else, which the comparison then reports).
func rejection<T>(_ body: () async throws -> T) async -> RegistryRejection? {
    do {
        _ = try await body()
        return nil
    } catch {
        return error as? RegistryRejection
    }
}
