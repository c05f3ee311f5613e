import Dispatch
import Foundation
import Glibc
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync

/// `scenectl serve`: serves a registry until SIGINT, SIGTERM or `coordinator.shutdown`.
/// The parent this process had when it started, before anything slow ran.
let startingParent = getppid()

enum Serve {
    static func run(_ arguments: Arguments) async -> ExitCode {
        let manifest: Manifest
        if let file = arguments.option("manifest") {
            do {
                manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: file))
            } catch {
                standardError("scenectl: \(file) is not a valid manifest:\n\(error.problems.map { "  \($0)" }.joined(separator: "\n"))")
                return .failure
            }
            // scenectl hosts no code of a manifest's own: a scene that runs in process needs
            // the program that embeds the coordinator (only the demo app's are built in).
            let embedded = Check.inProcessScenes(of: manifest)
            guard embedded.isEmpty else {
                standardError("scenectl: cannot serve \(file): \(Check.inProcessWarning(embedded))")
                return .failure
            }
        } else {
            manifest = DefaultApp.manifest()
        }
        // The rule every control command follows, so that one `SCENE_SOCKET` serves and drives.
        let path = socketChoice(arguments, app: manifest.app).path
        var configuration = CoordinatorConfiguration(socketPath: path)
        do {
            if let text = arguments.option("launch-timeout") { configuration.launchTimeout = try seconds(text, "--launch-timeout") }
            if let text = arguments.option("heartbeat") { configuration.heartbeatInterval = try seconds(text, "--heartbeat") }
            if let text = arguments.option("history") { configuration.historyLimit = try count(text, "--history") }
            if let text = arguments.option("reopenable") { configuration.reopenLimit = try count(text, "--reopenable") }
        } catch {
            standardError("scenectl: \(error.message)")
            return .usage
        }
        // Signals become a clean stop (scene processes closed, the state written, the socket
        // file removed, exit 0); they are caught before the socket exists, so none can
        // leave it behind. A reader that went away must never kill the server: writes
        // report EPIPE instead.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        signal(SIGPIPE, SIG_IGN)
        let stopRequested = StopFlag()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { stopRequested.stop() }
            source.resume()
            return source
        }
        defer { sources.forEach { $0.cancel() } }
        var snapshot: RegistrySnapshot<JSONValue>?
        if let statePath = arguments.option("state") {
            configuration.stateFile = statePath
            configuration.durable = arguments.flag("durable")
            switch await loadState(
                statePath, manifest: manifest, discard: arguments.flag("discard-state"), durable: configuration.durable,
                reopenLimit: configuration.reopenLimit) {
            case .success(let restored): snapshot = restored
            case .failure: return .failure
            }
        } else if arguments.flag("discard-state") || arguments.flag("durable") {
            standardError("scenectl: --discard-state and --durable go with --state FILE")
            return .usage
        }
        let coordinator: Coordinator<JSONValue>
        do {
            do {
                coordinator = try await Coordinator.start(manifest: manifest, configuration: configuration, restoring: snapshot)
            } catch let error as RegistryRestoreError where arguments.flag("discard-state") {
                standardError("scenectl: the saved state does not fit this manifest; discarded:\n\(error)")
                coordinator = try await Coordinator.start(manifest: manifest, configuration: configuration)
            }
        } catch let error as RegistryRestoreError {
            standardError("scenectl: the saved state in \(configuration.stateFile ?? "") does not fit this manifest:\n\(error)\nstart with --discard-state to start afresh")
            return .failure
        } catch {
            standardError("scenectl: cannot serve: \(error)")
            return .failure
        }
        stopRequested.attach(coordinator)
        if ProcessInfo.processInfo.environment["SCENE_EXIT_WITH_PARENT"] == "1" { exitWithParent(coordinator) }
        emit("serving \(manifest.app) on \(path)")
        await coordinator.waitUntilStopped()
        return .success
    }

    /// Shuts down once the process that started this one has ended (it was reparented):
    /// a test runner that dies leaves no coordinator behind.
    private static func exitWithParent(_ coordinator: Coordinator<JSONValue>) {
        let parent = startingParent
        Task {
            while getppid() == parent {
                try? await Task.sleep(for: .milliseconds(500))
            }
            standardError("scenectl: the process that started this coordinator has ended; shutting down")
            await coordinator.shutdown()
        }
    }

    private static func count(_ text: String, _ option: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 0 else { throw UsageError("\(option) takes a whole number (0 or more), not \"\(text)\"") }
        return value
    }

    private static func seconds(_ text: String, _ option: String) throws(UsageError) -> Duration {
        guard let value = Double(text), value > 0, value.isFinite else { throw UsageError("\(option) takes a positive number of seconds") }
        return .milliseconds(Int(value * 1000))
    }

    /// The saved registry: the state file's snapshot with what the journal of a durable
    /// run holds beyond it, after ending the processes the previous run left. A corrupt
    /// file refuses the start unless `discard`.
    ///
    /// - One coordinator per state file: a second is refused before it touches anything.
    /// - A journal is folded into the state file here (when its changes fit the manifest;
    ///   else the last snapshot is kept and that is said): the state is marked as including
    ///   all of it, and, for a durable run, its lines stay for subscribers that resume across
    ///   the restart (a run that is not durable removes them).
    private static func loadState(
        _ path: String, manifest: Manifest, discard: Bool, durable: Bool, reopenLimit: Int
    ) async -> Result<RegistrySnapshot<JSONValue>?, StateFileError> {
        let state: CoordinatorState?
        do {
            try StateFile.claim(path)
            state = try StateFile.read(path)
        } catch {
            if discard, error.problems != ["another coordinator is using this state file"] {
                standardError("scenectl: \(error)\ndiscarded: starting afresh")
                unlink(CoordinatorState.journalPath(for: path))
                return .success(nil)
            }
            standardError("scenectl: \(error)\nthe coordinator does not start over a state file it cannot use; --discard-state starts afresh")
            return .failure(error)
        }
        if let state {
            let ended = StateFile.endLeftovers(of: state)
            if !ended.isEmpty {
                standardError("scenectl: ended what was left of \(ended.count) scene process group\(ended.count == 1 ? "" : "s") from the previous run: \(ended.map { "\($0.instance) (pid \($0.pid))" }.joined(separator: ", "))")
            }
        }
        guard FileManager.default.fileExists(atPath: CoordinatorState.journalPath(for: path)) else { return .success(state?.snapshot) }
        var chosen = CoordinatorState.recovered(state, statePath: path, app: manifest.app, reopenLimit: reopenLimit)
        if let recovered = chosen, !(await fits(recovered, manifest)) {
            standardError("scenectl: the journal's changes do not fit this manifest; keeping the last snapshot without them")
            chosen = state?.snapshot
        }
        if let chosen {
            do {
                try StateFile.fold(CoordinatorState(snapshot: chosen, processes: [], journal: state?.journal, origin: state?.origin), into: path)
                // A run that is not durable keeps no journal: the lines would be applied
                // again, over its newer state, at the next start.
                if !durable { unlink(CoordinatorState.journalPath(for: path)) }
            } catch {
                standardError("scenectl: cannot write the state file: \(error)")
                return .failure(StateFileError(path: path, problems: ["cannot write: \(error)"]))
            }
        }
        return .success(chosen)
    }

    /// Whether `snapshot` restores into a registry of `manifest`.
    private static func fits(_ snapshot: RegistrySnapshot<JSONValue>, _ manifest: Manifest) async -> Bool {
        guard let registry = try? SceneRegistry(manifest: manifest) else { return false }
        do {
            try await registry.restore(snapshot)
            return true
        } catch {
            return false
        }
    }
}

/// A stop asked for by a signal, remembered until the coordinator exists.
final class StopFlag: Sendable {
    private let state = Locked<(coordinator: Coordinator<JSONValue>?, stopped: Bool)>((nil, false))

    func stop() {
        let coordinator = state.withLock { state -> Coordinator<JSONValue>? in
            state.stopped = true
            return state.coordinator
        }
        if let coordinator { Task { await coordinator.shutdown() } }
    }

    func attach(_ coordinator: Coordinator<JSONValue>) {
        let stopNow = state.withLock { state -> Bool in
            state.coordinator = coordinator
            return state.stopped
        }
        if stopNow { Task { await coordinator.shutdown() } }
    }
}

/// `scenectl check MANIFEST`.
enum Check {
    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        let file = arguments.positionals[0]
        do {
            let manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: file))
            print("\(file): app \(manifest.app), \(manifest.scenes.count) scene\(manifest.scenes.count == 1 ? "" : "s"), no problems")
            for note in manifest.notes { print("\(file): note: \(note)") }
            let embedded = inProcessScenes(of: manifest)
            if !embedded.isEmpty { print("\(file): warning: \(inProcessWarning(embedded))") }
            return .success
        } catch {
            for problem in error.problems { print("\(file): \(problem)") }
            return .failure
        }
    }

    /// The scenes of `manifest` that run in process (`"in_process": true`): their code is
    /// a behaviour a Swift program registers, so `scenectl serve` cannot serve them.
    static func inProcessScenes(of manifest: Manifest) -> [String] {
        manifest.scenes.filter { $0.hosting == .inProcess }.map(\.id)
    }

    /// Why `serve` cannot host `scenes`, and what can.
    static func inProcessWarning(_ scenes: [String]) -> String {
        let names = scenes.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            \(scenes.count == 1 ? "scene \(names) runs" : "scenes \(names) run") in process ("in_process": true), \
            so `scenectl serve` cannot serve this manifest: a Swift program that embeds the coordinator \
            serves it, registering each one's behaviour (Coordinator.start(manifest:behaviors:…))
            """
    }
}
