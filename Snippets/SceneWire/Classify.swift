import SceneWire

let payload = Array(#"{"jsonrpc":"2.0","id":1,"method":"scene.open","params":{"scene":"viewer","value":"42"}}"#.utf8)
switch payload.withUnsafeBytes({ InboundMessage.classify($0) }) {
case .request(let id, let method, let params) where method == WireMethod.sceneOpen.rawValue:
    let open = try WireCodec.decode(OpenParams.self, from: params)   // -32602 with the path of what does not fit
    print(id, open.scene, open.value ?? "none")
case .invalid(let id, let error):
    let answer = WireCodec.framedResponse(id: id, error: error)       // the frame to write back
    print(answer.count)
default:
    break
}
