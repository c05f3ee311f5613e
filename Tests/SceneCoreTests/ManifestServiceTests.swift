import Foundation
import SceneCore
import SceneJSON
import Testing

@Suite("Manifest: activatable scenes and interfaces")
struct ManifestServiceTests {
    private func scene(_ members: String) -> String {
        #"{"app": "a", "scenes": [{"id": "s", "kind": "window", "in_process": true, \#(members)}]}"#
    }

    @Test("an interface is read with its schemas, and activatable with it")
    func reads() throws {
        let manifest = try Manifest.load(from: Data(scene(#"""
            "activatable": true, "interface": {"methods": {"find": {"params": {"type": "object", "required": ["doc"]}, "result": {"type": "array"}}},
            "signals": {"saved": {"payload": {"type": "string"}}, "ping": {}}}
            """#).utf8))
        let declaration = try #require(manifest.scenes.first)
        #expect(declaration.activatable)
        let interface = try #require(declaration.interface)
        #expect(interface.methods["find"]?.params?.required == ["doc"])
        #expect(interface.methods["find"]?.result?.types == [.array])
        #expect(interface.signals.keys.sorted() == ["ping", "saved"])
        #expect(interface.signals["ping"]?.payload == nil)
    }

    @Test(
        "each mistake in an interface or activation is reported with its path",
        arguments: [
            (#""interface": {"methods": {"find": {"params": {"type": "text"}}}}"#, "scenes[0].interface.methods.find.params.type"),
            (#""interface": {"methods": {"find": {"params": {"minimum": 1}}}}"#, "scenes[0].interface.methods.find.params.minimum"),
            (#""interface": {"methods": {"find": {"reply": {}}}}"#, "scenes[0].interface.methods.find.reply"),
            (#""interface": {"methods": {"scene.open": {}}}"#, "scenes[0].interface.methods.scene.open"),
            (#""interface": {"events": {}}"#, "scenes[0].interface.events"),
            (#""interface": {"signals": {"saved": {"payload": 3}}}"#, "scenes[0].interface.signals.saved.payload"),
            (#""activatable": "yes""#, "scenes[0].activatable"),
            (#""activatable": true, "instances": "perValue""#, "scenes[0].activatable"),
        ])
    func mistakes(members: String, path: String) {
        let found = problems(scene(members))
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(path + ":") == true, "\(found)")
    }

    @Test("a virtual scene can be neither activatable nor have an interface: nothing would answer")
    func needsCode() {
        let text = #"{"app": "a", "scenes": [{"id": "v", "kind": "window", "activatable": true, "interface": {}}]}"#
        #expect(problems(text).map { $0.prefix { $0 != ":" } } == ["scenes[0].activatable", "scenes[0].interface"])
    }
}
