// A notebook scene: one behaviour type that runs in process (mixed-app hosts it beside
// its coordinator) or in a scene process of its own (swift-scene), unchanged.
//
// It answers `title` and `echo`, keeps a draft that makes it refuse an interactive close
// until it is saved (`edit`, `save`), passes a call on to another scene (`relay`, as the
// Python scene does), opens a scene (`open`) and pushes a route onto its own flow
// (`push`) through its context, and reports its path and phase changes to `log`.
public import SceneCore
public import SceneFlow
public import SceneJSON

/// A notebook's title, as `title` answers it.
public struct NotebookTitle: Codable, Hashable, Sendable {
    public var title: String
    public init(title: String) { self.title = title }
}

/// Whether a notebook has unsaved edits, as `edit` and `save` answer it.
public struct DraftState: Codable, Hashable, Sendable {
    public var unsaved: Bool
    public init(unsaved: Bool) { self.unsaved = unsaved }
}

/// The instance a notebook opened, as `open` answers it.
public struct OpenedInstance: Codable, Hashable, Sendable {
    public var instance: String
    public init(instance: String) { self.instance = instance }
}

/// How deep a notebook's stack is, as `push` answers it.
public struct StackDepth: Codable, Hashable, Sendable {
    public var depth: Int
    public init(depth: Int) { self.depth = depth }
}

/// What a notebook answers to `relay`: a call it makes to another scene on the caller's
/// behalf. The call's params and answer are any JSON: the notebook passes them on.
public struct RelayRequest: Codable, Sendable {
    /// The instance or scene to call: an instance id, or `{"scene": id}`.
    public var to: SceneTarget
    public var method: String
    public var params: JSONValue?

    public init(to: SceneTarget, method: String, params: JSONValue? = nil) {
        self.to = to
        self.method = method
        self.params = params
    }
}

/// The methods a notebook answers, each declared once.
public enum NotebookMethods {
    /// Its title.
    public static let title: SceneMethod<NoValue, NotebookTitle> = "title"
    /// Its params, as they came (any JSON).
    public static let echo: SceneMethod<JSONValue, JSONValue> = "echo"
    /// Makes an unsaved edit: an interactive close is refused until `save`.
    public static let edit: SceneMethod<NoValue, DraftState> = "edit"
    /// Saves the edits.
    public static let save: SceneMethod<NoValue, DraftState> = "save"
    /// Calls another scene on the caller's behalf; answers what it answered.
    public static let relay: SceneMethod<RelayRequest, JSONValue> = "relay"
    /// Opens the scene it names; answers the instance.
    public static let open: SceneMethod<String, OpenedInstance> = "open"
    /// Pushes the route it is given onto its own flow; answers the stack's depth.
    public static let push: SceneMethod<JSONValue, StackDepth> = "push"
}

/// The notebook. It runs on its host's executor (`context.executor`): the coordinator's
/// event loop in process, the client's loop in a scene process. Its work never waits on a
/// thread, so it may; a call to it then takes no thread switch.
public actor Notebook: SceneBehavior {
    public let title: String
    private let log: @Sendable (String) -> Void
    private var unsaved = false
    private let context: SceneContext<JSONValue>

    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.executor }

    public init(title: String, context: SceneContext<JSONValue>, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.title = title
        self.context = context
        self.log = log
    }

    public func start() async throws {
        log("started as \(context.instance)")
    }

    public func answer(_ call: SceneCall) async throws -> ScenePayload {
        typealias Methods = NotebookMethods
        if try call.params(of: Methods.title) != nil {
            return Methods.title.answer(NotebookTitle(title: title))
        }
        if let params = try call.params(of: Methods.echo) {
            return Methods.echo.answer(params)
        }
        if try call.params(of: Methods.edit) != nil {
            unsaved = true
            return Methods.edit.answer(DraftState(unsaved: true))
        }
        if try call.params(of: Methods.save) != nil {
            unsaved = false
            return Methods.save.answer(DraftState(unsaved: false))
        }
        if let request = try call.params(of: Methods.relay) {
            log("\(context.instance) → \(request.to): \(request.method)")
            let answer = try await context.call(request.to, request.method, params: ScenePayload(json: request.params ?? [:]))
            log("\(context.instance) ← \(request.to): \(try answer.json())")
            return answer
        }
        if let scene = try call.params(of: Methods.open) {
            let opened = try await context.scenes.open(SceneID<NoValue>(scene))
            return Methods.open.answer(OpenedInstance(instance: opened.description))
        }
        if let route = try call.params(of: Methods.push) {
            let path = try await context.send(.push(route))
            return Methods.push.answer(StackDepth(depth: path.count))
        }
        throw SceneError.methodNotFound(call.method)
    }

    public func flowChanged(to path: [RouteStep<JSONValue>]) async {
        log("path is now \(path.map(\.description))")
    }

    public func phaseChanged(to phase: ScenePhase) async {
        log("phase is now \(phase.rawValue)")
    }

    public func close(force: Bool) async -> Bool {
        // A forced close cannot be refused; an interactive one can, while edits are unsaved.
        let accepted = force || !unsaved
        log(accepted ? "closing" : "refusing to close: unsaved edits")
        return accepted
    }

    public func stop() async {
        log("stopped")
    }
}
