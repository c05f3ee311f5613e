// Fuzz target: bytes from a socket, as the coordinator reads them. Frames are cut by the
// frame decoder (fed in two reads), each payload is checked as a session checks it
// (InboundMessage.classify), and a request's params are decoded as its method decodes
// them. Invariants: the decoder never yields more bytes than it was given, a payload
// that parses as JSON prints to text that parses to the same value, and the relay's
// byte-level readings of scene.call, flow.send and scene.open params agree with the
// Decodable reading (whatever the fast path takes, the decoder takes the same way).
import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWire(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    var decoder = FrameDecoder(maximum: 1 << 16)
    let split = size == 0 ? 0 : Int(bytes[0]) % (size + 1)
    var total = 0
    for part in [UnsafeRawBufferPointer(rebasing: bytes[0..<split]), UnsafeRawBufferPointer(rebasing: bytes[split...])] {
        let failure = decoder.feed(part) { payload in
            total += payload.count + 4
            check(payload)
        }
        if failure != nil { break }
    }
    precondition(total <= size, "the frame decoder yielded more bytes than it was given")
    return 0
}

/// A request's params read straight from the payload's bytes by `read`, as a control
/// connection's fast path reads them.
func plainParams<T>(_ payload: UnsafeRawBufferPointer, _ read: (UnsafeRawBufferPointer) -> T?) -> T? {
    guard case .success(let envelope) = Envelope.scan(payload), let range = envelope.params else { return nil }
    return read(UnsafeRawBufferPointer(rebasing: payload[range]))
}

func check(_ payload: UnsafeRawBufferPointer) {
    if let value = try? JSONParser.parse(Array(payload)) {
        let again = try? JSONParser.parse(value.description)
        precondition(again == value, "JSON text did not survive a round trip: \(value)")
    }
    guard case .request(_, let name, let params) = InboundMessage.classify(payload), let method = WireMethod(rawValue: name) else {
        return
    }
    switch method {
    case .hello: _ = try? WireCodec.decode(HelloParams.self, from: params)
    case .sceneOpen:
        let decoded = try? WireCodec.decode(OpenParams.self, from: params)
        if let plain = plainParams(payload, OpenParams.plain(bytes:)) {
            precondition(plain == decoded, "scene.open params read two ways disagree")
        }
    case .scenePush: _ = try? WireCodec.decode(PushParams.self, from: params)
    case .sceneDismiss: _ = try? WireCodec.decode(DismissParams.self, from: params)
    case .sceneFocus: _ = try? WireCodec.decode(FocusParams.self, from: params)
    case .sceneRoute: _ = try? WireCodec.decode(RouteParams.self, from: params)
    case .scenePhase: _ = try? WireCodec.decode(ScenePhaseParams.self, from: params)
    case .sceneCall, .sceneNotify:
        let decoded = try? WireCodec.decode(SceneCallParams.self, from: params)
        guard case .success(let envelope) = Envelope.scan(payload), let range = envelope.params,
            let scanned = SceneCallParams.scan(payload, range: range)
        else { return }
        // Whatever the fast path accepts, the Decodable path accepts, with the same meaning.
        guard let decoded else { preconditionFailure("scene.call params scanned but not decodable") }
        precondition(
            scanned.to == decoded.to && scanned.method == decoded.method && scanned.timeout == decoded.timeout
                && scanned.from == decoded.from && scanned.params?.value == decoded.params,
            "scene.call params read two ways disagree")
    case .flowSend:
        let decoded = try? WireCodec.decode(FlowSendParams.self, from: params)
        if let plain = plainParams(payload, FlowSendParams.plain(bytes:)) {
            precondition(plain == decoded, "flow.send params read two ways disagree")
        }
        if let request = decoded {
            var store = FlowStore<JSONValue>()
            _ = store.send(request.intent)
        }
    case .flowApply: _ = try? WireCodec.decode(FlowApplyParams.self, from: params)
    case .flowBatch: _ = try? WireCodec.decode(FlowBatchParams.self, from: params)
    case .flowTransaction: _ = try? WireCodec.decode(FlowTransactionParams.self, from: params)
    case .flowReconcile:
        if let request = try? WireCodec.decode(FlowReconcileParams.self, from: params) {
            // Whatever the difference, its intents take a flow from one path to the other.
            let current = Array(request.observed.reversed())
            if FlowPlan.problem(in: current) == nil, FlowPlan.problem(in: request.observed) == nil {
                var store = FlowStore<JSONValue>()
                _ = store.send(.reset(current))
                store.transaction(FlowReconciliation.intents(from: current, to: request.observed))
                precondition(store.path == request.observed, "reconciling did not reach the observed path")
            }
        }
    case .sceneProgram:
        // A program reads step by step, or is refused with the step it stopped at.
        if case .array(let steps)? = params?["steps"] {
            do {
                let program = try ProgramStep<JSONValue>.program(json: steps)
                precondition(program.count == steps.count && ProgramStep.problem(in: program) == nil, "a program read wrong")
            } catch {
                precondition(error.step >= 0 && error.step < steps.count, "a program's error names no step")
            }
        }
    case .scenePresent: _ = try? WireCodec.decode(PresentParams.self, from: params)
    case .sceneFinish: _ = try? WireCodec.decode(FinishParams.self, from: params)
    case .sceneStatus: _ = try? WireCodec.decode(StatusParams.self, from: params)
    case .sceneDescribe: _ = try? WireCodec.decode(DescribeParams.self, from: params)
    case .sceneReopen: _ = try? WireCodec.decode(ReopenParams.self, from: params)
    case .sceneRestart: _ = try? WireCodec.decode(RestartParams.self, from: params)
    case .sessionSave, .sessionDelete: _ = try? WireCodec.decode(SessionParams.self, from: params)
    case .tokenIssue: _ = try? WireCodec.decode(TokenIssueParams.self, from: params)
    case .tokenRevoke: _ = try? WireCodec.decode(TokenRevokeParams.self, from: params)
    case .sessionLoad: _ = try? WireCodec.decode(SessionLoadParams.self, from: params)
    case .sessionList, .tokenList: break
    case .immersiveStyle: _ = try? WireCodec.decode(ImmersiveStyleParams.self, from: params)
    case .sceneEmit: _ = try? WireCodec.decode(EmitParams.self, from: params)
    case .linkOpen: _ = try? WireCodec.decode(LinkOpenParams.self, from: params)
    case .authSet: _ = try? WireCodec.decode(AuthSetParams.self, from: params)
    case .subscribe: _ = try? WireCodec.decode(SubscribeParams.self, from: params)
    case .immersiveDismiss, .state, .unsubscribe, .ping, .coordinatorShutdown: break
    }
}
