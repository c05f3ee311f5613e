import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire
import Testing

/// One vector of `Protocols/vectors/frames.json`.
struct Vector: Sendable, CustomTestStringConvertible {
    let name: String
    let bytes: [UInt8]
    let payload: String?
    let json: JSONValue?
    let schema: String?
    let afterHello: Bool
    /// Requests ({method, params}) sent after hello, each answered with a result, before
    /// the vector's frame: the state the vector needs.
    let setup: [JSONValue]
    let expect: JSONValue

    var testDescription: String { name }

    static func all() throws -> [Vector] {
        let data = try Data(contentsOf: protocolsFolder.appendingPathComponent("vectors/frames.json"))
        // Foundation reads the file: one vector nests as deep as the protocol allows, and the
        // file wraps it in three more levels.
        let file = try JSONDecoder().decode(JSONValue.self, from: data)
        return (file["vectors"]?.arrayValue ?? []).map { item in
            let hex = item["hex"]?.stringValue ?? ""
            var bytes: [UInt8] = []
            var index = hex.startIndex
            while index < hex.endIndex {
                let next = hex.index(index, offsetBy: 2)
                bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
                index = next
            }
            return Vector(
                name: item["name"]?.stringValue ?? "?", bytes: bytes, payload: item["payload"]?.stringValue,
                json: item["json"], schema: item["schema"]?.stringValue, afterHello: item["after_hello"] == true,
                setup: item["setup"]?.arrayValue ?? [], expect: item["expect"] ?? .null)
        }
    }
}

let vectors = (try? Vector.all()) ?? []

@Suite("Protocol vectors and schemas")
struct ProtocolVectorTests {
    @Test("the vectors are there: at least 40, with every kind of expectation")
    func present() {
        #expect(vectors.count >= 40)
        for kind in ["framing", "result", "error", "none"] {
            #expect(vectors.contains { $0.expect[kind] != nil }, "no vector expects \(kind)")
        }
    }

    @Test("each vector's frame decodes to its payload and JSON, or fails framing as documented", arguments: vectors)
    func decodes(_ vector: Vector) throws {
        var decoder = FrameDecoder()
        var frames: [[UInt8]] = []
        let error = vector.bytes.withUnsafeBytes { decoder.feed($0) { frames.append(Array($0)) } }
        if let framing = vector.expect["framing"]?.stringValue {
            #expect(error.flatMap { WireError.framing($0).reason?.rawValue } == framing)
            return
        }
        #expect(error == nil)
        let frame = try #require(frames.first)
        #expect(frames.count == 1)
        if let payload = vector.payload { #expect(String(decoding: frame, as: UTF8.self) == payload) }
        if let json = vector.json {
            #expect(try JSONParser.parse(frame) == json)
        } else if vector.expect["error"]?["code"] == -32700 {
            #expect(throws: JSONParseError.self) { try JSONParser.parse(frame) }
        }
    }

    @Test("each vector with a schema matches it", arguments: vectors.filter { $0.schema != nil })
    func matchesSchema(_ vector: Vector) throws {
        let validator = try SchemaValidator.load()
        let json = try #require(vector.json)
        #expect(validator.validate(json, against: vector.schema!) == [])
    }

    @Test("every schema uses only the keywords the validator knows, and every $ref resolves")
    func schemasAreClean() throws {
        let validator = try SchemaValidator.load()
        #expect(validator.schemas.count >= 40)
        // Validating null against each schema walks its keywords; only type mismatches may
        // remain, never an unsupported keyword or an unresolved reference.
        for file in validator.schemas.keys.sorted() {
            let problems = validator.validate(.null, against: file).filter { $0.contains("unsupported") || $0.contains("unresolved") }
            #expect(problems == [], "\(file)")
        }
    }

    @Test("every method has a params and a result schema")
    func methodSchemas() throws {
        let validator = try SchemaValidator.load()
        for method in WireMethod.allCases {
            #expect(validator.schemas["\(method.rawValue).params.json"] != nil, "\(method.rawValue)")
            #expect(validator.schemas["\(method.rawValue).result.json"] != nil, "\(method.rawValue)")
        }
    }

    @Test("request.json has a branch for every method, so that a request of any method is checked against its params")
    func requestSchemaCoversMethods() throws {
        let request = try #require(try SchemaValidator.load().schemas["request.json"])
        let named = Set((request["oneOf"]?.arrayValue ?? []).compactMap { $0["properties"]?["method"]?["const"]?.stringValue })
        for method in WireMethod.allCases { #expect(named.contains(method.rawValue), "\(method.rawValue)") }
    }

    @Test("the spec names every method and every reason the code defines")
    func specCoversCode() throws {
        let spec = try String(contentsOf: protocolsFolder.appendingPathComponent("scene-protocol-v1.md"), encoding: .utf8)
        for method in WireMethod.allCases { #expect(spec.contains("`\(method.rawValue)`"), "\(method.rawValue)") }
        for kind in EventKind.allCases { #expect(spec.contains("`\(kind.rawValue)`"), "\(kind.rawValue)") }
        let instance = InstanceID(scene: "a", number: 1)
        let registryReasons: [RegistryRejection] = [
            .unknownScene(""), .notOpen(""), .instanceNotOpen(instance), .instanceLimitReached(scene: "", max: 1), .valueRequired(scene: ""),
            .immersiveSpaceBusy(open: instance), .nothingToDismiss, .pushFromPushedWindow(instance), .notAWindow(""),
            .alreadyOpen(instance), .coveredByPushedWindow(instance), .notFocusable(instance), .cancelled(instance),
            .invalidPhase(.closed), .routeRejected(detail: ""), .noHandler, .presentationBusy(instance),
            .linkUnhandled(path: "/"), .launchFailed(instance, detail: ""), .launchTimeout(instance, seconds: 1),
            .closeVetoed(instance), .pathMismatch(expected: [], observed: []), .invalidProgram(step: 0, detail: ""),
            .notPresented(instance), .dismissedWithoutResult(instance), .parentDismissed(instance),
            .unknownSignal(scene: "", signal: ""), .nothingToReopen(scene: nil),
            .styleNotAllowed(instance, style: .full, allowed: []),
        ]
        let flowReasons: [FlowRejection] = [
            .pushBlockedByModalTail, .popBlockedByModalTail, .insufficientDepth(requested: 1, available: 0), .invalidCount(-1),
            .routeNotFound, .invalidPlan(.tooManyModals(count: 2)), .middlewareCancelled(name: "", reason: ""),
        ]
        let reasons: [any CodedReason] = registryReasons + flowReasons
        for reason in reasons { #expect(spec.contains("`\(reason.code)`"), "\(reason.code)") }
        for reason in [ReasonCode.emptyFrame, ReasonCode.frameTooLarge, ReasonCode.batchNotSupported, ReasonCode.unsupportedProtocol,
                       ReasonCode.alreadyInitialized, ReasonCode.tooManyConnections, ReasonCode.unsupportedRole,
                       ReasonCode.forbidden, ReasonCode.shuttingDown, ReasonCode.badToken, ReasonCode.notConnected,
                       ReasonCode.callTimeout, ReasonCode.reservedMethod, ReasonCode.historyGone,
                       ReasonCode.noStateFile, ReasonCode.unknownSession, ReasonCode.invalidSession] {
            #expect(spec.contains("`\(reason)`"), "\(reason)")
        }
    }

    @Test("the demo manifest example is the library's demo manifest, and matches manifest.json")
    func demoManifest() throws {
        let data = try Data(contentsOf: protocolsFolder.appendingPathComponent("examples/demo.manifest.json"))
        let example = try JSONParser.parse([UInt8](data))
        #expect(example == Manifest.demo.json)
        #expect(try SchemaValidator.load().validate(example, against: "manifest.json") == [])
    }

    @Test("a manifest with in-process, process and virtual scenes matches manifest.json and loads with each hosting")
    func mixedManifest() throws {
        let data = try Data(contentsOf: protocolsFolder.appendingPathComponent("examples/mixed.manifest.json"))
        let example = try JSONParser.parse([UInt8](data))
        #expect(try SchemaValidator.load().validate(example, against: "manifest.json") == [])
        let manifest = try Manifest(json: example)
        #expect(manifest.scenes.map(\.hosting.name) == ["in_process", "in_process", "process", "virtual"])
    }

    @Test("every event the code emits matches event.json")
    func events() throws {
        let validator = try SchemaValidator.load()
        let id = InstanceID(scene: "main", number: 1)
        let info = InstanceInfo<JSONValue>(
            id: id, scene: "main", kind: .window, value: nil, phase: .active, focused: true, path: [.push("a")], pushedFrom: nil)
        let events: [RegistryEvent<JSONValue>] = [
            .opened(info), .focused(id), .dismissed(id, reason: .requested), .phaseChanged(id, phase: .background),
            .pushed(id, from: InstanceID(scene: "main", number: 2)), .flowChanged(id, path: [.sheet(["k": 1])], queue: [.cover("next")], cause: FlowCause(by: .scene, intent: "sheet")), .flowQueued(id, step: .cover("next"), queue: [.cover("next")]),
            .linkHandled(url: "demo://x/y", instance: id, opened: true), .linkPending(url: "u"), .linkSuperseded(url: "u"),
            .linkRejected(url: "u", reason: .link(.hostNotAllowed("h"))), .requestRejected(request: "scene.open", reason: .noHandler),
            .spawned(id, pid: 4242), .disconnected(id, exit: .signalled(9)), .disconnected(id, exit: .exited(1)),
            .disconnected(id, exit: nil), .restarted(id), .dismissed(id, reason: .restartIntensity),
            .dismissed(id, reason: .processExited), .authChanged(authenticated: true),
            .requestRejected(request: "scene.dismiss", reason: .closeVetoed(id)),
        ]
        for (index, event) in events.enumerated() {
            let params = WireCodec.eventParams(SequencedEvent(seq: UInt64(index + 1), event: event))
            #expect(validator.validate(params, against: "event.json") == [], "\(event.type)")
        }
    }
}

@Suite("The protocol folder's own checker")
struct ProtocolCheckerTests {
    @Test("Protocols/tools/check.py passes: every schema in the keyword subset, every vector's frame and schema, the example manifests")
    func checkerPasses() async throws {
        let script = protocolsFolder.appendingPathComponent("tools/check.py").path
        let child = try ChildProcess(["python3", script], executable: "/usr/bin/env")
        defer { child.kill() }
        let code = await child.wait()
        #expect(code == 0, "\(child.standardOutput)\(child.standardError)")
    }
}

@Suite("Protocol vectors against a live coordinator")
struct ProtocolVectorReplayTests {
    @Test("each vector gets its documented answer from a fresh demo coordinator", arguments: vectors)
    func replay(_ vector: Vector) async throws {
        let validator = try SchemaValidator.load()
        try await withServer { server in
            let client = try RawClient(path: server.path)
            if vector.afterHello { try await client.hello() }
            for (index, request) in vector.setup.enumerated() {
                var members: [String: JSONValue] = ["jsonrpc": "2.0", "id": .string("setup-\(index)")]
                members["method"] = request["method"]
                members["params"] = request["params"]
                var frame: [UInt8] = []
                JSONValue.object(members).write(to: &frame)
                try await client.write(FrameDecoder.frame(frame))
                let answer = try await client.readMessage()
                try #require(answer["result"] != nil, "setup step \(index) failed: \(answer)")
            }
            try await client.write(vector.bytes)
            if let framing = vector.expect["framing"]?.stringValue {
                let answer = try await client.readMessage()
                #expect(answer["id"] == .null)
                #expect(answer["error"]?["code"] == -32600)
                #expect(answer["error"]?["data"]?["reason"]?.stringValue == framing)
                #expect(try await client.closesWithin())
            } else if vector.expect["none"] != nil {
                try await client.writeFrame(#"{"jsonrpc":"2.0","id":"probe","method":"ping"}"#)
                let answer = try await client.readMessage()
                // With hello not done, the probe itself is answered -32002; either way it
                // is the first answer, so the vector got none.
                #expect(answer["id"] == "probe")
            } else {
                let answer = try await client.readMessage()
                #expect(validator.validate(answer, against: "response.json") == [])
                if let id = vector.json?["id"], id.stringValue != nil || id.intValue != nil {
                    #expect(answer["id"] == id)
                }
                if vector.expect["result"] != nil {
                    let result = try #require(answer["result"], "expected a result, got \(answer)")
                    if let method = vector.json?["method"]?.stringValue {
                        #expect(validator.validate(result, against: "\(method).result.json") == [], "\(method)")
                    }
                } else {
                    let expected = vector.expect["error"]
                    #expect(answer["error"]?["code"] == expected?["code"], "\(answer)")
                    if let reason = expected?["reason"] {
                        #expect(answer["error"]?["data"]?["reason"] == reason, "\(answer)")
                    }
                }
            }
        }
    }
}
