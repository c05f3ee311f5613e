import SceneClient
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneSync
import SceneTesting
import Testing

// The scenes and methods of the scenario, each declared once.
extension SceneID where Value == NoValue {
    fileprivate static let home: Self = "home"
    fileprivate static let page: Self = "page"
    fileprivate static let picker: Self = "picker"
    fileprivate static let sidebar: Self = "sidebar"
}

extension SceneID where Value == String {
    fileprivate static let doc: Self = "doc"
}

extension SceneMethod where Params == Int, Answer == Int {
    fileprivate static let add: Self = "add"
}

extension SceneMethod where Params == String, Answer == NoValue {
    fileprivate static let note: Self = "note"
}

private let declarations: [SceneDeclaration<JSONValue>] = [
    SceneDeclaration(id: "home", kind: .window, instances: .single, hosting: .inProcess),
    SceneDeclaration(id: "doc", kind: .window, instances: .perValue, hosting: .inProcess),
    SceneDeclaration(id: "page", kind: .window),
    SceneDeclaration(id: "picker", kind: .window, hosting: .inProcess),
    SceneDeclaration(id: "sidebar", kind: .window, instances: .single, hosting: .inProcess, requires: ["home"]),
]

/// The home window: agrees to close, and hands its context to the test.
private actor Home: SceneBehavior {
    init(_ context: SceneContext<JSONValue>, handing box: Locked<SceneContext<JSONValue>?>) {
        box.withLock { $0 = context }
    }
}

/// A document: adds what it is called `add` with to its total; keeps the notes it is sent.
private actor Doc: SceneBehavior {
    var total = 0
    static let notes = Locked<[String]>([])
    func receive(_ notification: SceneCall) async {
        if let note = try? notification.params(of: .note) { Self.notes.withLock { $0.append(note) } }
    }
    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let amount = try call.params(of: .add) else { throw SceneError.methodNotFound(call.method) }
        total += amount
        return SceneMethod.add.answer(total)
    }
}

/// A picker: finishes with "picked" as soon as it is shown.
private actor Picker: SceneBehavior {
    let context: SceneContext<JSONValue>
    init(_ context: SceneContext<JSONValue>) { self.context = context }
    func phaseChanged(to phase: ScenePhase) async {
        if phase == .active { try? await context.scenes.finish(context.instance, with: "picked") }
    }
}

/// The sidebar, which requires home: it refuses an interactive close.
private actor Sidebar: SceneBehavior {
    func close(force: Bool) async -> Bool { force }
}

private func behaviors(_ box: Locked<SceneContext<JSONValue>?>) -> [String: SceneBehaviorFactory<JSONValue>] {
    [
        "home": { Home($0, handing: box) }, "doc": { _ in Doc() }, "picker": { Picker($0) }, "sidebar": { _ in Sidebar() },
    ]
}

/// What the scenario saw.
private struct Seen: Equatable {
    var doc: InstanceID
    var total: Int
    var picked: Presented<String>
    var page: InstanceID
    var refusal: ReasonCode?
}

/// One scenario, written once against whichever side asks: as `me` (the home window),
/// open a document, call it, present a picker and take its result, push a page in place
/// of `me`, then dismiss `me` — which the sidebar, requiring home, vetoes.
private func scenario(_ scenes: some SceneRequests, as me: InstanceID) async throws -> Seen {
    let doc = try await scenes.open(.doc, value: "notes")
    let total = try await scenes.call(.add, 5, on: .instance(doc))
    let picked = try await scenes.present(.picker, from: me, answering: String.self)
    let page = try await scenes.push(.page, from: me)
    var refusal: ReasonCode?
    do {
        try await scenes.dismiss(me)
    } catch {
        refusal = error.reason
    }
    return Seen(doc: doc, total: total, picked: picked, page: page, refusal: refusal)
}

private let expected = Seen(
    doc: InstanceID(scene: "doc", number: 1), total: 5,
    picked: Presented(instance: InstanceID(scene: "picker", number: 1), result: "picked"),
    page: InstanceID(scene: "page", number: 1), refusal: .closeVetoed)

@Suite("One surface: the same requests from the program, a behaviour and a client")
struct SceneRequestsTests {
    @Test("the scenario through a registry's scenes")
    func registry() async throws {
        let box = Locked<SceneContext<JSONValue>?>(nil)
        let registry = try SceneRegistry(app: "surface", declarations: declarations, behaviors: behaviors(box))
        let home = try await registry.scenes.open(.home)
        try await registry.scenes.open(.sidebar)
        #expect(try await scenario(registry.scenes, as: home) == expected)
        #expect(try await registry.info(home).phase == .background)
    }

    @Test("a notification with typed params reaches the scene; a call waits as long as it is told")
    func notifyAndTimeout() async throws {
        let box = Locked<SceneContext<JSONValue>?>(nil)
        let registry = try SceneRegistry(app: "surface", declarations: declarations, behaviors: behaviors(box))
        let doc = try await registry.scenes.open(.doc, value: "memo")
        try await registry.scenes.notify(.note, "remember", on: .instance(doc))
        #expect(await eventually { Doc.notes.withLock { $0.contains("remember") } })
        #expect(try await registry.scenes.call(.add, 2, on: .scene("doc"), timeout: .seconds(30)) == 2)
        let refused = await #expect(throws: SceneError.self) {
            try await registry.scenes.call(.add, 1, on: .instance(doc), timeout: .zero)
        }
        #expect(refused?.code == -32602)
    }

    @Test("the scenario through a behaviour's context, as its own instance; a scene may not focus")
    func context() async throws {
        let box = Locked<SceneContext<JSONValue>?>(nil)
        let registry = try SceneRegistry(app: "surface", declarations: declarations, behaviors: behaviors(box))
        let home = try await registry.scenes.open(.home)
        try await registry.scenes.open(.sidebar)
        let context = try #require(box.withLock { $0 })
        #expect(try await scenario(context.scenes, as: home) == expected)
        await #expect(throws: SceneError.self) { try await context.scenes.focus(home) }
        let other = await #expect(throws: SceneError.self) { try await context.scenes.dismiss(expected.doc) }
        #expect(other?.reason == .forbidden)
    }

    @Test("the scenario through a client's connection to a coordinator")
    func client() async throws {
        try await withTemporaryFolder { folder in
            let box = Locked<SceneContext<JSONValue>?>(nil)
            let coordinator = try await Coordinator.start(
                app: "surface", declarations: declarations, behaviors: behaviors(box),
                configuration: CoordinatorConfiguration(socketPath: folder.file("surface.sock")))
            try await stopping(coordinator) { _ in
                let client = try await SceneConnection.connect(path: folder.file("surface.sock"), client: "tests", timeout: 60)
                defer { client.close() }
                let home = try await client.scenes.open(.home)
                try await client.scenes.open(.sidebar)
                #expect(try await scenario(client.scenes, as: home) == expected)
            }
        }
    }
}
