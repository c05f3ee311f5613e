import Distributed
@testable import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import SceneTesting
import Testing

/// A value that cannot be made JSON: a call that encoded it would fail.
struct Sealed: Codable, Sendable, Equatable {
    let number: Int

    func encode(to encoder: any Encoder) throws {
        throw EncodingError.invalidValue(number, .init(codingPath: encoder.codingPath, debugDescription: "sealed: never encoded"))
    }
}

struct PaperJam: Error {}

/// What every notebook answers, whoever implements it.
@Resolvable
protocol Notebook: DistributedActor where ActorSystem == SceneActorSystem {
    distributed func save(draft: String, count: Int) async throws -> Int
}

distributed actor Notes: DistributedScene, Notebook {
    let context: SceneContext<JSONValue>
    private var drafts: [String] = []
    private var started = false

    init(context: SceneContext<JSONValue>) {
        self.context = context
        actorSystem = context.actorSystem
    }

    func start() async throws { started = true }

    distributed func save(draft: String, count: Int) -> Int {
        drafts.append(draft)
        return draft.count * count
    }

    distributed func drafts(startedFirst: Bool) -> [String] { startedFirst && started ? drafts : [] }

    distributed func keep(_ sealed: Sealed) -> Sealed { sealed }

    distributed func forget() { drafts.removeAll() }

    distributed func refuse() throws -> Int { throw SceneError.domain(reason: "out_of_paper", message: "no paper") }

    distributed func boom() throws -> Int { throw PaperJam() }

    distributed func hang() async -> Int {
        try? await Task.sleep(for: .seconds(30))
        return 0
    }

    distributed func itself() -> Notes { self }

    /// Saves through another notebook, handed over as an argument.
    distributed func relay(to other: Notes, draft: String) async throws -> Int {
        try await other.save(draft: draft, count: 1)
    }
}

/// A distributed scene that records its lifecycle, and refuses an interactive close while
/// it keeps a draft.
distributed actor Diary: DistributedScene {
    let heard: Heard
    private var draft = false

    init(context: SceneContext<JSONValue>, heard: Heard) {
        self.heard = heard
        actorSystem = context.actorSystem
    }

    func start() async throws { heard.add("start") }
    func flowChanged(to path: [RouteStep<JSONValue>]) async { heard.add("flow \(path.count)") }
    func phaseChanged(to phase: ScenePhase) async { heard.add("phase \(phase.rawValue)") }
    func close(force: Bool) async -> Bool {
        heard.add("close \(force)")
        return force || !draft
    }
    func stop() async { heard.add("stop") }

    distributed func write() { draft = true }
}

private let strictInterface: SceneInterface = {
    let json: JSONValue = [
        "methods": [
            "save(draft:count:)": [
                "params": ["type": "object", "required": ["draft", "count"], "properties": ["count": ["enum": [1, 2, 3]]]]
            ]
        ]
    ]
    return try! SceneInterface(json: json)
}()

private func notesRegistry(time: (any TimeSource)? = nil, callTimeout: Duration = .seconds(10)) throws -> SceneRegistry<JSONValue> {
    try SceneRegistry<JSONValue>(
        app: "notes",
        declarations: [
            SceneDeclaration(id: "notes", kind: .window, instances: .multiple(max: nil), hosting: .inProcess, activatable: true),
            SceneDeclaration(id: "strict", kind: .window, hosting: .inProcess, interface: strictInterface),
            SceneDeclaration(id: "plain", kind: .window),
        ],
        behaviors: ["notes": Notes.behavior(Notes.init), "strict": Notes.behavior(Notes.init)],
        timeouts: SceneTimeouts(call: callTimeout), time: time)
}

private func failure(_ body: () async throws -> Void) async -> SceneError? {
    do {
        try await body()
        return nil
    } catch let error as SceneError {
        return error
    } catch {
        Issue.record("not a SceneError: \(error)")
        return nil
    }
}

@Suite("Scenes as distributed actors: typed calls under the registry's rules")
struct DistributedSceneTests {
    @Test("a typed call reaches an in-process distributed scene by its instance or by its scene, after its start")
    func typedCalls() async throws {
        let registry = try notesRegistry()
        let id = try await registry.open("notes").instance.id
        let byScene = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        #expect(try await byScene.save(draft: "abc", count: 2) == 6)
        let byInstance = try Notes.resolve(id: .instance(id), using: registry.actorSystem)
        #expect(try await byInstance.drafts(startedFirst: true) == ["abc"])
    }

    @Test("resolving a running in-process scene without an interface answers the actor itself; by scene, a reference")
    func localIsTheActor() async throws {
        let registry = try notesRegistry()
        let id = try await registry.open("notes").instance.id
        let local = try Notes.resolve(id: .instance(id), using: registry.actorSystem)
        #expect(__isLocalActor(local))
        #expect(try await local.itself() === local)
        #expect(__isRemoteActor(try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)))
        // Once its behaviour has stopped, its id is a remote reference, refused not_open.
        _ = try await registry.dismiss(id)
        #expect(try await eventually { __isRemoteActor(try Notes.resolve(id: .instance(id), using: registry.actorSystem)) })
        let gone = try Notes.resolve(id: .instance(id), using: registry.actorSystem)
        let refused = await failure { _ = try await gone.save(draft: "x", count: 1) }
        #expect(refused?.reason == .notOpen)
    }

    @Test("a function that returns nothing answers null, and its effect is seen by the next call")
    func voidFunction() async throws {
        let registry = try notesRegistry()
        let id = try await registry.open("notes").instance.id
        let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        _ = try await notes.save(draft: "gone", count: 1)
        try await notes.forget()
        #expect(try await notes.drafts(startedFirst: true) == [])
        let answer = try await registry.call(SceneCall(method: "forget()"), to: .instance(id))
        #expect(try answer.json() == .null)
    }

    @Test("in process a typed call's arguments and answer pass as Swift values, never encoded")
    func noJSONInProcess() async throws {
        let registry = try notesRegistry()
        _ = try await registry.open("notes")
        let remote = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        #expect(__isRemoteActor(remote))
        #expect(try await remote.keep(Sealed(number: 7)) == Sealed(number: 7))
    }

    @Test("a typed call's arguments written for the wire are the text of their JSON object: sorted, a repeated name's last value")
    func argumentsWritten() throws {
        let arguments = SceneArguments([
            ("zeta", true), ("count", 1), ("draft", "a\"b"), ("count", 2), ("note", ["k": [1.5, .null]] as JSONValue),
        ])
        var bytes: [UInt8] = []
        try ScenePayload(arguments).write(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == (try arguments.json()).description)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"count":2,"draft":"a\"b","note":{"k":[1.5,null]},"zeta":true}"#)
        var none: [UInt8] = []
        try ScenePayload(SceneArguments()).write(to: &none)
        #expect(none == Array("{}".utf8))
    }

    @Test("an argument that cannot be made JSON is scene_failed when written for the wire")
    func argumentsRefused() async {
        var bytes: [UInt8] = []
        let refused = await failure {
            try ScenePayload(SceneArguments([("n", 1), ("sealed", Sealed(number: 1))])).write(to: &bytes)
        }
        #expect(refused?.reason == .sceneFailed)
    }

    @Test("a scene's own SceneError reaches the caller as thrown; any other error is scene_failed")
    func thrownErrors() async throws {
        let registry = try notesRegistry()
        _ = try await registry.open("notes")
        let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        let own = await failure { _ = try await notes.refuse() }
        #expect(own == SceneError.domain(reason: "out_of_paper", message: "no paper"))
        let other = await failure { _ = try await notes.boom() }
        #expect(other?.reason == .sceneFailed)
    }

    @Test("a typed call to an unknown scene, a virtual one, or a closed instance is the wire's error")
    func wireErrors() async throws {
        let registry = try notesRegistry()
        let plain = try await registry.open("plain").instance.id
        let unknown = await failure { _ = try await Notes.resolve(id: .scene("nowhere"), using: registry.actorSystem).save(draft: "", count: 1) }
        #expect(unknown?.reason == .unknownScene)
        let virtual = await failure { _ = try await Notes.resolve(id: .instance(plain), using: registry.actorSystem).save(draft: "", count: 1) }
        #expect(virtual?.reason == .notConnected)
        let closed = await failure {
            _ = try await Notes.resolve(id: .instance(InstanceID("notes-99")!), using: registry.actorSystem).save(draft: "", count: 1)
        }
        #expect(closed?.reason == .notOpen)
    }

    @Test("a typed call that is not answered within the call timeout is call_timeout")
    func timeout() async throws {
        let clock = LoopClock.manual()
        let registry = try notesRegistry(time: clock, callTimeout: .milliseconds(50))
        _ = try await registry.open("notes")
        let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        let late = await clock.advancing(by: .milliseconds(50)) { await failure { _ = try await notes.hang() } }
        #expect(late?.reason == .callTimeout)
        #expect(late?.data["method"] == "hang()")
    }

    @Test("a typed call to an activatable scene with no instance opens one and is answered by it")
    func activation() async throws {
        let registry = try notesRegistry()
        #expect(await registry.instances(of: "notes").isEmpty)
        let notes = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        #expect(try await notes.save(draft: "wake", count: 1) == 4)
        #expect(await registry.instances(of: "notes").count == 1)
    }

    @Test("a declared interface holds a typed call to its schema, before the scene runs")
    func interfaceRefuses() async throws {
        let registry = try notesRegistry()
        let id = try await registry.open("strict").instance.id
        // A scene with an interface is always called through the registry.
        let strict = try Notes.resolve(id: .instance(id), using: registry.actorSystem)
        #expect(__isRemoteActor(strict))
        #expect(try await strict.save(draft: "ok", count: 2) == 4)
        let bad = await failure { _ = try await strict.save(draft: "no", count: 7) }
        #expect(bad?.code == -32602)
        #expect(bad?.data["path"] == "params.count")
        let undeclared = await failure { _ = try await strict.refuse() }
        #expect(undeclared?.code == -32601)
    }

    @Test("a @Resolvable protocol is resolved and called: the scene runs its own type's function of that name")
    func resolvableProtocol() async throws {
        let registry = try notesRegistry()
        _ = try await registry.open("notes")
        let notebook: some Notebook = try $Notebook.resolve(id: .scene("notes"), using: registry.actorSystem)
        #expect(try await notebook.save(draft: "proto", count: 2) == 10)
    }

    @Test("a distributed actor passed as an argument or returned is resolved on the other side")
    func referencesTravel() async throws {
        let registry = try notesRegistry()
        let first = try await registry.open("notes").instance.id
        let second = try await registry.open("notes").instance.id
        let a = try Notes.resolve(id: .scene("notes"), using: registry.actorSystem)
        let b = try Notes.resolve(id: .instance(second), using: registry.actorSystem)
        #expect(try await a.relay(to: b, draft: "hand") == 4)
        #expect(try await b.drafts(startedFirst: true) == ["hand"])
        let returned = try await a.itself()
        #expect(returned.id == .instance(second) || returned.id == .instance(first))
    }

    @Test("a distributed scene hears its start, phase and flow changes, may refuse an interactive close, and hears its stop")
    func lifecycle() async throws {
        let heard = Heard()
        let registry = try SceneRegistry<JSONValue>(
            app: "diary", declarations: [SceneDeclaration(id: "diary", kind: .window, hosting: .inProcess)],
            behaviors: ["diary": Diary.behavior { Diary(context: $0, heard: heard) }])
        let id = try await registry.open("diary").instance.id
        let diary = try Diary.resolve(id: .instance(id), using: registry.actorSystem)
        try await diary.write()
        try await registry.instance(id)?.send(.push(["screen": "page"]))
        let refused = await failure { _ = try await registry.scenes.dismiss(id) }
        #expect(refused?.reason == .closeVetoed)
        _ = try await registry.dismiss(id, force: true)
        #expect(await eventually { heard.all.last == "stop" })
        #expect(heard.all == ["start", "phase active", "flow 1", "close false", "close true", "stop"])
    }

    @Test("a call in JSON reaches the function by its name with its labels, its arguments by name")
    func jsonCall() async throws {
        let registry = try notesRegistry()
        let id = try await registry.open("notes").instance.id
        let answer = try await registry.call(
            SceneCall(method: "save(draft:count:)", params: ScenePayload(json: ["draft": "json", "count": 3])), to: .instance(id))
        #expect(try answer.json() == 12)
        // A parameter without a label is the one member no label names.
        let unlabeled = try await registry.call(SceneCall(method: "keep(_:)", params: ScenePayload(json: ["sealed": ["number": 5]])), to: .instance(id))
        #expect(unlabeled.value(as: Sealed.self) == Sealed(number: 5))
        let missing = await failure {
            _ = try await registry.call(SceneCall(method: "save(draft:count:)", params: ScenePayload(json: ["draft": "x"])), to: .instance(id))
        }
        #expect(missing?.code == -32602)
        let wrong = await failure {
            _ = try await registry.call(SceneCall(method: "save(draft:count:)", params: ScenePayload(json: ["draft": 1, "count": 1])), to: .instance(id))
        }
        #expect(wrong?.code == -32602)
        let unknown = await failure { _ = try await registry.call(SceneCall(method: "save(text:)"), to: .instance(id)) }
        #expect(unknown?.code == -32601)
    }
}

@Suite("The wire name of a distributed function, from what the demangler says of it")
struct DistributedNameTests {
    @Test(
        "the owner and the name with its labels",
        arguments: [
            ("distributed thunk Notes.Notebook.save(draft: Swift.String, count: Swift.Int) async throws -> Swift.Int",
             "Notes.Notebook", "save(draft:count:)"),
            ("distributed thunk App.$Notebook.save(draft: Swift.String, count: Swift.Int) async throws -> Swift.Int",
             "App.$Notebook", "save(draft:count:)"),
            ("distributed thunk App.Till.price(Swift.Int) async throws -> Swift.Int", "App.Till", "price(_:)"),
            ("distributed thunk App.Till.ping() async throws -> ()", "App.Till", "ping()"),
            ("distributed thunk (extension in Other):App.Till.total(of: [Swift.String : (Swift.Int, Swift.Int)], _: Swift.Bool) async throws -> Swift.Int",
             "App.Till", "total(of:_:)"),
            ("distributed thunk App.Outer<Swift.Int>.Till.send(to: Swift.Optional<(a: Swift.Int, b: Swift.Int)>) async throws -> ()",
             "App.Outer<Swift.Int>.Till", "send(to:)"),
        ])
    func names(demangled: String, owner: String, method: String) throws {
        let name = try #require(DistributedName(demangled: demangled))
        #expect(name.owner == owner)
        #expect(name.method == method)
    }

    @Test(
        "what is not a distributed function, or is a generic one, has no wire name",
        arguments: [
            "Notes.Notebook.save(draft: Swift.String) -> Swift.Int",
            "distributed thunk App.Till.price<A where A: Swift.Codable>(A) async throws -> A",
            "distributed thunk nothing",
        ])
    func notNames(demangled: String) {
        #expect(DistributedName(demangled: demangled) == nil)
    }

    @Test(
        "a private type is named alike by the demangler and the runtime",
        arguments: [
            ("App.(Notes in _FF8B66C8A6251E939C8C7358C00C96D5)", "App.Notes"),
            ("App.(unknown context at $559f7a79c818).Notes", "App.Notes"),
            ("App.Outer.(Inner in _AB).Notes", "App.Outer.Inner.Notes"),
            ("App.Notes", "App.Notes"),
        ])
    func privateOwners(name: String, owner: String) {
        #expect(DistributedFunctions.owner(name) == owner)
    }

    @Test("this program's distributed functions are found by their owner's name and their wire names")
    func table() {
        let functions = DistributedFunctions.declared(by: Notes.self)
        #expect(functions["save(draft:count:)"]?.identifier != nil)
        #expect(functions["relay(to:draft:)"]?.labels == ["to", "draft"])
        #expect(functions["keep(_:)"]?.labels == [nil])
    }
}
