// Fuzz target: flow intents and plans as JSON, as clients send them. Whatever decodes is
// applied to a flow store (one by one, as a batch, and as a transaction); every path the
// store reaches is valid, and its snapshot restores to the same path.
import SceneFlow
import SceneJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzIntents(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard let json = try? JSONParser.parse(Array(UnsafeBufferPointer(start: data, count: size))) else { return 0 }
    var intents: [FlowIntent<JSONValue>] = []
    if let list = try? json.decoded(as: [FlowIntent<JSONValue>].self) {
        intents = list
    } else if let one = try? json.decoded(as: FlowIntent<JSONValue>.self) {
        intents = [one]
    } else if let plan = try? json.decoded(as: FlowPlan<JSONValue>.self) {
        intents = [.reset(plan.steps)]
    }
    guard !intents.isEmpty else { return 0 }
    var store = FlowStore<JSONValue>()
    for intent in intents.prefix(256) {
        _ = store.send(intent)
        verify(store)
    }
    var batched = FlowStore<JSONValue>()
    _ = batched.batch(Array(intents.prefix(256)))
    verify(batched)
    var transacted = FlowStore<JSONValue>()
    _ = transacted.transaction(Array(intents.prefix(256)))
    verify(transacted)
    return 0
}

func verify(_ store: FlowStore<JSONValue>) {
    precondition(store.snapshot.problems.isEmpty, "the store reached an invalid path: \(store.path)")
    let restored = try? FlowStore<JSONValue>(restoring: store.snapshot)
    precondition(restored?.path == store.path, "a snapshot did not restore the same path")
}
