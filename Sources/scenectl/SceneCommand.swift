import Foundation
import SceneClient
import SceneFlow
import SceneJSON
import SceneWire
import SceneSync

/// `scenectl scene`: a ready-made scene process for a coordinator to spawn.
///
/// It logs its path changes to standard error, answers `title` (and the typed call
/// `title()`), `echo`, `edit`, `save`,
/// `path` and `relay` (a `scene.call` of its own to another scene), honours close
/// requests, vetoes an interactive close while it has unsaved edits, and exits once its
/// connection closes.
enum SceneCommand {
    final class State: Sendable {
        let title: String
        let quiet: Bool
        let unsaved: Locked<Bool>
        let path = Locked<JSONValue>(.array([]))
        let connection = Locked<SceneConnection?>(nil)
        let instance = Locked("scene")
        /// Opened once the hello's path is recorded: messages wait for it, so that a later
        /// path is never overwritten by the hello's.
        let ready = Latch()

        init(title: String, unsaved: Bool, quiet: Bool) {
            self.title = title
            self.unsaved = Locked(unsaved)
            self.quiet = quiet
        }

        func log(_ line: String) {
            guard !quiet else { return }
            standardError("[\(instance.withLock { $0 })] \(line)")
        }
    }

    static func run(_ arguments: Arguments) async -> ExitCode {
        let environment = ProcessInfo.processInfo.environment
        let state = State(
            title: arguments.option("title") ?? environment["SCENE_INSTANCE"] ?? "scene",
            unsaved: arguments.flag("unsaved"), quiet: arguments.flag("quiet"))
        state.instance.withLock { $0 = environment["SCENE_INSTANCE"] ?? "scene" }
        let connection: SceneConnection
        do {
            connection = try await SceneConnection.connectAsScene(client: "scenectl/scene") { message in
                await handle(message, state: state)
            }
        } catch {
            standardError("scenectl scene: \(error)")
            return .cannotConnect
        }
        state.connection.withLock { $0 = connection }
        if let instance = connection.hello.instance {
            state.path.withLock { $0 = WireCodec.json(instance.path) }
            state.log("hello: \(instance.phase), path \(describe(WireCodec.json(instance.path)))")
        }
        state.ready.open()
        // The contract: a scene process ends with its connection.
        await connection.waitUntilClosed()
        state.log("connection closed; exiting")
        return .success
    }

    static func handle(_ message: IncomingMessage, state: State) async -> Result<JSONValue, WireError> {
        let params = message.params ?? .object([:])
        if message.method == CoordinatorMethod.ping { return .success(.object([:])) }
        await state.ready.wait()
        switch message.method {
        case CoordinatorMethod.close:
            let force = params["force"] == .bool(true)
            let unsaved = state.unsaved.withLock { $0 }
            if unsaved, !force {
                state.log("close refused: unsaved edits")
                return .success(WireCodec.json(SceneCloseResult(accepted: false)))
            }
            state.log(force ? "closing (forced)" : "closing")
            return .success(WireCodec.json(SceneCloseResult(accepted: true)))
        case CoordinatorMethod.flowChanged:
            let path = params["path"] ?? .array([])
            state.path.withLock { $0 = path }
            state.log("path: \(describe(path))")
            return .success(.null)
        case CoordinatorMethod.phaseChanged:
            state.log("phase: \(params["phase"]?.stringValue ?? "?")")
            return .success(.null)
        case "title":
            return .success(.object(["title": .string(state.title)]))
        case "title()":
            // The typed call of a Swift protocol's `title()` (the demo's `Titled`).
            return .success(.string(state.title))
        case "echo":
            return .success(params)
        case "edit":
            state.unsaved.withLock { $0 = true }
            return .success(.object(["unsaved": true]))
        case "save":
            state.unsaved.withLock { $0 = false }
            return .success(.object(["unsaved": false]))
        case "path":
            return .success(.object(["path": state.path.withLock { $0 }]))
        case "relay":
            // Calls another scene through the coordinator and answers what it answered.
            guard let to = params["to"], let method = params["method"]?.stringValue,
                let connection = state.connection.withLock({ $0 })
            else {
                return .failure(.invalidParams("relay takes {to, method, params?}"))
            }
            var call: [String: JSONValue] = ["to": to, "method": .string(method)]
            if let inner = params["params"] { call["params"] = inner }
            do {
                return .success(try await connection.call(WireMethod.sceneCall.rawValue, params: .object(call)))
            } catch {
                if case .remote(let wire) = error { return .failure(wire) }
                return .failure(WireError(code: WireCode.domain, message: "\(error)"))
            }
        default:
            return .failure(.methodNotFound(message.method))
        }
    }

    static func describe(_ path: JSONValue) -> String {
        guard let steps = path.arrayValue, !steps.isEmpty else { return "(root)" }
        return steps.map { step in
            let route = step["route"].map { $0.stringValue ?? $0.description } ?? "?"
            return "\(step["type"]?.stringValue ?? "?") \(route)"
        }.joined(separator: " > ")
    }
}

/// A one-way gate: ``wait()`` returns once ``open()`` has been called.
final class Latch: Sendable {
    private let state = Locked<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func open() {
        let waiters = state.withLock { state in
            state.open = true
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let open = state.withLock { state in
                if !state.open { state.waiters.append(continuation) }
                return state.open
            }
            if open { continuation.resume() }
        }
    }
}
