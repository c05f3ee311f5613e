import Dispatch
import Foundation
import Glibc
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneSocket
import Synchronization

/// `scenectl serve`: serves a registry until SIGINT, SIGTERM or `coordinator.shutdown`.
enum Serve {
    static func run(_ arguments: Arguments) async -> ExitCode {
        do {
            _ = try arguments.expect()
        } catch {
            standardError("scenectl: \(error.message)")
            return .usage
        }
        let manifest: Manifest
        if let file = arguments.option("manifest") {
            do {
                manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: file))
            } catch {
                standardError("scenectl: \(file) is not a valid manifest:\n\(error.problems.map { "  \($0)" }.joined(separator: "\n"))")
                return .failure
            }
        } else {
            manifest = .demo
        }
        let path = arguments.option("socket")
            ?? CoordinatorConfiguration.defaultSocketPath(app: arguments.option("app") ?? manifest.app)
        // Signals become a clean stop (the socket file removed, exit 0); they are caught
        // before the socket exists, so none can leave it behind. A reader that went away
        // must never kill the server: writes report EPIPE instead.
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
        let coordinator: Coordinator
        do {
            let registry = try SceneRegistry(manifest: manifest)
            coordinator = try Coordinator(registry: registry, configuration: CoordinatorConfiguration(socketPath: path))
        } catch let error as SocketPlacementError {
            standardError("scenectl: cannot serve: \(error)")
            if case .inUse = error { return .failure }
            return .failure
        } catch {
            standardError("scenectl: cannot serve: \(error)")
            return .failure
        }
        stopRequested.attach(coordinator)
        emit("serving \(manifest.app) on \(path)")
        await coordinator.waitUntilStopped()
        return .success
    }
}

/// A stop asked for by a signal, remembered until the coordinator exists.
final class StopFlag: Sendable {
    private let state = Mutex<(coordinator: Coordinator?, stopped: Bool)>((nil, false))

    func stop() {
        let coordinator = state.withLock { state -> Coordinator? in
            state.stopped = true
            return state.coordinator
        }
        coordinator?.stop()
    }

    func attach(_ coordinator: Coordinator) {
        let stopNow = state.withLock { state -> Bool in
            state.coordinator = coordinator
            return state.stopped
        }
        if stopNow { coordinator.stop() }
    }
}

/// `scenectl check MANIFEST`.
enum Check {
    static func run(_ arguments: Arguments) throws(UsageError) -> ExitCode {
        let file = try arguments.expect("MANIFEST")[0]
        do {
            let manifest = try Manifest.load(contentsOf: URL(fileURLWithPath: file))
            print("\(file): app \(manifest.app), \(manifest.scenes.count) scene\(manifest.scenes.count == 1 ? "" : "s"), no problems")
            return .success
        } catch {
            for problem in error.problems { print("\(file): \(problem)") }
            return .failure
        }
    }
}
