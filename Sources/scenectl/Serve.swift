import Dispatch
import Foundation
import Glibc
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneSocket

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
        // Signals become a clean stop: the socket file is removed and the exit code is 0.
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { coordinator.stop() }
            source.resume()
            return source
        }
        emit("serving \(manifest.app) on \(path)")
        await coordinator.waitUntilStopped()
        sources.forEach { $0.cancel() }
        return .success
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
