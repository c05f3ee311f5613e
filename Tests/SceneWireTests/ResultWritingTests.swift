import SceneCore
import SceneFlow
import SceneJSON
import SceneWire
import Testing

/// The text `value`'s `Encodable` conformance prints (through the JSON value).
private func encoded(_ value: some Encodable) -> String {
    WireCodec.json(value).description
}

/// `value` written, then read back by its `Decodable` conformance: the writer and the
/// declared members agree when this gives `value` again.
private func roundTrip<T: WireWritable & Decodable>(_ value: T) throws -> T {
    var bytes: [UInt8] = []
    value.write(to: &bytes)
    return try JSONParser.parse(bytes).decoded(as: T.self)
}

/// The text `value` writes by itself.
private func written(_ value: some WireWritable) -> String {
    var bytes: [UInt8] = []
    value.write(to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}

private let main1 = InstanceID(scene: "main", number: 1)
private let plain = InstanceInfo<JSONValue>(
    id: main1, scene: "main", kind: .window, value: nil, phase: .active, focused: true, path: [], pushedFrom: nil)
private let busy = InstanceInfo<JSONValue>(
    id: InstanceID(scene: "viewer.\"odd\"", number: 12), scene: "viewer.\"odd\"", kind: .volume(size: VolumeSize(width: 1, height: 2.5, depth: 3)),
    value: ["doc": "é\n", "n": 2.0, "list": [1, -20, true, .null]], phase: .background, focused: false,
    path: [.push(["screen": "page"]), .sheet("share")], pushedFrom: main1)
private let drawn = InstanceInfo<JSONValue>(
    id: main1, scene: "main", kind: .window, value: nil, phase: .active, focused: true, path: [], pushedFrom: nil,
    geometry: SceneGeometry(
        defaultSize: WindowSize(width: 1280, height: 720.5), resizability: .contentMinSize,
        placement: .relative(to: "notes", position: .trailing)))
private let panel = InstanceInfo<JSONValue>(
    id: InstanceID(scene: "tools", number: 3), scene: "tools", kind: .window, value: nil, phase: .inactive, focused: false,
    path: [], pushedFrom: nil,
    geometry: SceneGeometry(defaultSize: WindowSize(width: 1e16, height: 0.1), placement: .utilityPanel))
private let space = InstanceInfo<JSONValue>(
    id: InstanceID(scene: "portal", number: 1), scene: "portal", kind: .immersive(style: .progressive), value: nil,
    phase: .active, focused: false, path: [], pushedFrom: nil, style: .full)

@Suite("Results written straight into bytes")
struct ResultWritingTests {
    @Test("an instance object's writer and its declared members agree, and so do the registry's own writer and it", arguments: [plain, busy, drawn, panel, space])
    func instance(_ info: InstanceInfo<JSONValue>) throws {
        #expect(try roundTrip(InstanceObject(info)) == InstanceObject(info))
        var direct: [UInt8] = []
        WireCodec.write(info, to: &direct)
        #expect(String(decoding: direct, as: UTF8.self) == written(InstanceObject(info)))
        // The coordinator's answers carrying one instance, written from it directly.
        #expect(written(InstanceInfoResult(info, outcome: "focused")) == written(OpenResult(instance: InstanceObject(info), outcome: "focused")))
        #expect(written(InstanceInfoResult(info)) == written(InstanceResult(instance: InstanceObject(info))))
    }

    @Test("every result a registry request answers reads back, from what it writes, as the value it was")
    func results() throws {
        let object = InstanceObject(busy)
        let path: [RouteStep<JSONValue>] = [.push("a"), .cover(["k": .null])]
        #expect(try roundTrip(OpenResult(instance: object, outcome: "opened")) == OpenResult(instance: object, outcome: "opened"))
        #expect(try roundTrip(InstanceResult(instance: object)) == InstanceResult(instance: object))
        #expect(try roundTrip(DismissResult(dismissed: ["a-1", "b-2"])) == DismissResult(dismissed: ["a-1", "b-2"]))
        #expect(try roundTrip(DismissResult(dismissed: [], vetoed: ["c-3"])) == DismissResult(dismissed: [], vetoed: ["c-3"]))
        #expect(try roundTrip(RouteResult(outcome: "focused", instance: object)) == RouteResult(outcome: "focused", instance: object))
        #expect(try roundTrip(FlowSendResult(outcome: "changed", path: path)) == FlowSendResult(outcome: "changed", path: path))
        #expect(try roundTrip(PathResult(path: [])) == PathResult(path: []))
        let batch = FlowBatchResultObject(
            outcomes: [BatchOutcome(outcome: "changed"), BatchOutcome(outcome: "rejected", error: ["code": -32000])], path: path)
        #expect(try roundTrip(batch) == batch)
        let handled = LinkOpenResult(outcome: "handled", instance: object, opened: true)
        #expect(try roundTrip(handled) == handled)
        let pending = LinkOpenResult(outcome: "pending", superseded: "demo://x/y")
        #expect(try roundTrip(pending) == pending)
        let program = LinkOpenResult(outcome: "handled", program: ProgramResult(completed: 1, results: [["path": []]]))
        #expect(try roundTrip(program) == program)
        let routed = RouteResult(outcome: "opened", instance: object, via: ["notes-1", "main-1", "globe"])
        #expect(try roundTrip(routed) == routed)
        #expect(try roundTrip(SubscribeResult(seq: 42)) == SubscribeResult(seq: 42))
        let resumable = SubscribeResult(seq: 42, origin: "a\"b")
        #expect(try roundTrip(resumable) == resumable)
        let hello = HelloResult(protocol: 1, server: "s", session: "session-1", instance: object)
        #expect(try roundTrip(hello) == hello)
        let attached = HelloResult(protocol: 1, server: "s", session: "session-2", instance: object, reattach: "0123456789abcdef0123456789abcdef")
        #expect(try roundTrip(attached) == attached)
        #expect(written(EmptyResult()) == "{}")
    }

    @Test("a result's Encodable form is what it writes: one encoder, whichever way it is asked")
    func oneEncoder() {
        for object in [InstanceObject(plain), InstanceObject(busy)] {
            #expect(encoded(object) == written(object))
            #expect(encoded(OpenResult(instance: object, outcome: "focused")) == written(OpenResult(instance: object, outcome: "focused")))
        }
        #expect(encoded(DismissResult(dismissed: ["a-1"])) == written(DismissResult(dismissed: ["a-1"])))
        #expect(encoded(SubscribeResult(seq: 3)) == written(SubscribeResult(seq: 3)))
    }

    @Test("scene.call params write the text their Encodable form prints, each optional member present or absent", arguments: [
        SceneCallParams(to: .instance("notes-1"), method: "save(draft:count:)", params: ["draft": "a \"b\"\n", "count": 2]),
        SceneCallParams(to: .scene("viewer.\"odd\""), method: "echo", params: ["x": .null], timeout: 2.5),
        SceneCallParams(to: .scene("notes"), method: "ping", timeout: 3),
        SceneCallParams(to: .instance("é-1"), method: "m", params: [1, 2]),
    ])
    func sceneCallParams(_ params: SceneCallParams) throws {
        var from = params
        from.from = "caller-\t1"
        for value in [params, from] {
            #expect(written(value) == encoded(value))
            #expect(try roundTrip(value) == value)
        }
    }

    @Test("the instance object's bytes are the protocol's: sorted members, value and pushedFrom null when absent, no geometry undeclared")
    func instanceBytes() {
        #expect(written(InstanceObject(plain)) == #"""
            {"focused":true,"id":"main-1","kind":"window","path":[],"phase":"active","pushedFrom":null,"queue":[],"scene":"main","value":null}
            """#)
    }

    @Test("a registry's state is written byte for byte as its StateResult prints")
    func state() async throws {
        let registry = try SceneRegistry(manifest: .demo)
        _ = try await registry.open("main")
        _ = try await registry.open("viewer", value: "42")
        _ = try await registry.open("theatre")
        _ = await registry.openLink("demo://demo.example/account")
        let state = await registry.state()
        #expect(written(state) == encoded(StateResult(state)))
        // What a coordinator writes: the state taken at once, its instances made slice by slice.
        #expect(written(await registry.captureState()) == encoded(StateResult(state)))
    }
}

@Suite("Event topics")
struct EventTopicTests {
    @Test("an event's params written straight into bytes are the bytes of its params as a tree, flow.changed in every shape and the other events too")
    func eventParamsWritten() {
        let odd = InstanceID(scene: "viewer.\"odd\"", number: 12)
        let routes: [JSONValue] = [
            "home", "é\n\"quoted\"\u{1}", .integer(-7), .double(2.5), .null, true, ["screen": "page", "a": [1, .null]], [],
        ]
        var events: [RegistryEvent<JSONValue>] = [
            .opened(busy), .focused(main1), .dismissed(odd, reason: .requested), .linkRejected(url: "u\"", reason: .noHandler),
        ]
        for (index, route) in routes.enumerated() {
            let path: [RouteStep<JSONValue>] = Array(repeating: .push(route), count: index) + [index % 2 == 0 ? .sheet(route) : .cover(route)]
            let queue: [RouteStep<JSONValue>] = index % 3 == 0 ? [] : [.sheet(routes[(index + 1) % routes.count])]
            for source in FlowCause.Source.allCases {
                for intent in [nil, "push", "odd \"intent\"\t"] as [String?] {
                    events.append(.flowChanged(index % 2 == 0 ? main1 : odd, path: path, queue: queue, cause: FlowCause(by: source, intent: intent)))
                }
            }
        }
        events.append(.flowChanged(main1, path: [], queue: [], cause: FlowCause(by: .control)))
        for (index, event) in events.enumerated() {
            let sequenced = SequencedEvent(seq: UInt64(index * 1_000_003), event: event)
            var tree: [UInt8] = []
            WireCodec.eventParams(sequenced).write(to: &tree)
            #expect(written(EventParams(sequenced)) == String(decoding: tree, as: UTF8.self))
        }
    }

    @Test("an event's wire topic is the part of its type before the dot, for every kind of event")
    func topics() {
        let id = InstanceID(scene: "main", number: 1)
        let events: [RegistryEvent<JSONValue>] = [
            .opened(plain), .focused(id), .dismissed(id, reason: .requested), .phaseChanged(id, phase: .background),
            .pushed(id, from: id), .flowChanged(id, path: [], queue: [.cover("c")], cause: FlowCause(by: .link)), .flowQueued(id, step: .sheet("s"), queue: [.sheet("s")]), .linkHandled(url: "u", instance: id, opened: true),
            .linkPending(url: "u"), .linkSuperseded(url: "u"), .linkRejected(url: "u", reason: .noHandler),
            .requestRejected(request: "scene.open", reason: .noHandler), .spawned(id, pid: 1), .disconnected(id, exit: nil),
            .restarted(id), .authChanged(authenticated: true),
        ]
        for event in events {
            #expect(WireTopic(of: event).rawValue == event.topic, "\(event.type)")
        }
    }
}

@Suite("A large state written in slices")
struct StateSliceTests {
    @Test("a state of thousands of instances, written slice by slice, is the text its StateResult prints")
    func manySlices() async throws {
        let registry = try SceneRegistry<JSONValue>(
            app: "big", declarations: [SceneDeclaration(id: "board", kind: .window), SceneDeclaration(id: "aside", kind: .window)])
        for _ in 1...4_500 { _ = try await registry.open("board") }
        for _ in 1...3 { _ = try await registry.open("aside") }
        let capture = await registry.captureState()
        #expect(capture.sliceCount > 3)
        var sliced: [UInt8] = []
        for index in 0..<capture.sliceCount { capture.writeSlice(index, to: &sliced) }
        #expect(String(decoding: sliced, as: UTF8.self) == encoded(StateResult(await registry.state())))
    }

    @Test("a result tells a server it is written in slices (without a cast); other results say they are not")
    func inSlicesWitness() async throws {
        let registry = try SceneRegistry<JSONValue>(app: "big", declarations: [SceneDeclaration(id: "board", kind: .window)])
        _ = try await registry.open("board")
        let answers: [any WireWritable] = [await registry.captureState(), await registry.state(), JSONValue.string("x")]
        #expect(answers.map { $0.inSlices != nil } == [true, true, false])
    }
}
