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

/// What a notebook answers to `relay`: a call it makes to another scene on the caller's
/// behalf.
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
        switch call.method {
        case "title":
            return ScenePayload(json: ["title": .string(title)])
        case "echo":
            return call.params
        case "edit":
            unsaved = true
            return ScenePayload(json: ["unsaved": true])
        case "save":
            unsaved = false
            return ScenePayload(json: ["unsaved": false])
        case "relay":
            let request = try call.params.decode(RelayRequest.self)
            let target = request.to
            log("\(context.instance) → \(target): \(request.method)")
            let answer = try await context.call(target, request.method, params: ScenePayload(json: request.params ?? [:]))
            log("\(context.instance) ← \(target): \(try answer.json())")
            return answer
        case "open":
            let opened = try await context.open(try call.params.decode(String.self))
            return ScenePayload(json: ["instance": .string(opened.description)])
        case "push":
            let path = try await context.send(.push(try call.params.json()))
            return ScenePayload(json: ["depth": .integer(path.count)])
        default:
            throw SceneError.methodNotFound(call.method)
        }
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
