import SceneCore
import SceneFlow
import SceneJSON
import SceneLinks
import SceneTesting
import Testing

/// Everything a declaration says that can be compared: its rules' `when` objects, its
/// links' patterns (what they make is compared by opening them).
private struct Summary: Hashable {
    let id: String
    let kind: SceneKind
    let instances: InstancePolicy
    let scope: [String]
    let claims: [String]
    let links: [String]
    let restore: Bool
    let hosting: SceneHosting
    let restart: RestartPolicy
    let decides: Bool
    let decideTimeout: Duration
    let activatable: Bool
    let interface: SceneInterface?
    let geometry: SceneGeometry
    let requires: [String]
    let group: SupervisionGroup?

    init(_ declaration: SceneDeclaration<JSONValue>) {
        id = declaration.id
        kind = declaration.kind
        instances = declaration.instances
        scope = declaration.scope.map { "\($0.when.when?.description ?? "?") → \($0.action)" }
        claims = declaration.claims.map { "\($0.when.when?.description ?? "?") → \($0.present)" }
        links = declaration.links.map { "\($0.pattern) auth=\($0.requiresAuth)" }
        restore = declaration.restore
        hosting = declaration.hosting
        restart = declaration.restart
        decides = declaration.decides
        decideTimeout = declaration.decideTimeout
        activatable = declaration.activatable
        interface = declaration.interface
        geometry = declaration.geometry
        requires = declaration.requires
        group = declaration.group
    }
}

/// What a registry does with the demo's links and routes, as values.
private func walk(_ registry: SceneRegistry<JSONValue>) async throws -> [String] {
    var seen: [String] = []
    for url in [
        "demo://demo.example/viewer/42", "https://demo.example/compare/a/b", "demo://demo.example/theatre/hamlet",
        "demo://demo.example/nowhere", "ftp://demo.example/viewer/1",
    ] {
        seen.append("\(await registry.openLink(url))")
    }
    let main = try await registry.scenes.open(DemoScenes.main)
    for route: JSONValue in [["screen": "settings"], ["screen": "admin"], ["screen": "globe"], ["screen": "other"]] {
        do {
            seen.append("\(try await registry.route(route, from: main))")
        } catch {
            seen.append("refused \(error.reason)")
        }
    }
    seen.append("\(await registry.snapshot().instances.map(\.id))")
    return seen
}

@Suite("Scenes declared in Swift")
struct SceneSetTests {
    @Test("the demo declared in Swift is the demo manifest: the same app, origins, immersive rule and scenes")
    func demoTwinDeclares() {
        let manifest = SceneSet(Manifest.demo)
        let swift = SceneSet<JSONValue>.demo
        #expect(swift.app == manifest.app)
        #expect(swift.linkPolicy == manifest.linkPolicy)
        #expect(swift.immersive == manifest.immersive)
        #expect(swift.declarations.map(Summary.init) == manifest.declarations.map(Summary.init))
    }

    @Test("the demo declared in Swift does what the manifest does with the same links and routes")
    func demoTwinBehaves() async throws {
        let fromManifest = try await walk(SceneRegistry(manifest: .demo))
        let fromSwift = try await walk(SceneRegistry(.demo))
        #expect(fromSwift == fromManifest)
        // Every kind of outcome is among them: landed, a program, waiting for sign-in,
        // unhandled, refused by origin; presented in scope, rejected, claimed, no handler.
        let kinds = fromManifest.map { $0.prefix { $0 != "(" } }
        #expect(kinds.prefix(5) == ["handled", "program", "pending", "unhandled", "rejected"])
        #expect(fromManifest[7].contains("globe") && fromManifest[8] == "refused no_handler")
    }

    @Test("each modifier sets what it names; a scene with a behaviour runs in process")
    func modifiers() {
        let session: SceneID<NoValue> = "session"
        let tools: SceneID<NoValue> = "tools"
        let group = SupervisionGroup(id: "pair", strategy: .oneForAll, scenes: ["session", "tools"], maxRestarts: 2, withinSeconds: 60)
        let set = SceneSet(app: "set") {
            Window(session, instances: .single)
            Window(tools) { _ in Quiet() }
                .requires(session)
                .activatable()
                .decides(within: .milliseconds(250))
                .restore(false)
                .restart(RestartPolicy(mode: .permanent))
                .group(group)
            ImmersiveSpace(tools, style: .full).process(LaunchSpec(command: ["scene"]))
        }
        let declared = set.declarations[1]
        #expect(declared.requires == ["session"] && declared.activatable && declared.decides)
        #expect(declared.decideTimeout == .milliseconds(250) && !declared.restore && declared.restart.mode == .permanent)
        #expect(declared.group == group && declared.hosting == .inProcess && set.declarations[0].hosting == .virtual)
        #expect(set.declarations[2].launch == LaunchSpec(command: ["scene"]))
        #expect(Set(set.behaviors.keys) == ["tools"])
    }

    @Test("a builder takes scenes under a condition and in a loop")
    func conditions() {
        let more = true
        let set = SceneSet(app: "set") {
            Window(SceneID<NoValue>("a"))
            if more { Window(SceneID<NoValue>("b")) } else { Window(SceneID<NoValue>("c")) }
            for id in ["d", "e"] { Window(SceneID<NoValue>(id)) }
        }
        #expect(set.declarations.map(\.id) == ["a", "b", "d", "e"])
    }

    @Test("the scenes of a set serve a test coordinator, their behaviours beside them")
    func testCoordinator() async throws {
        let quiet: SceneID<NoValue> = "quiet"
        let set = SceneSet(app: "set") { Window(quiet) { _ in Quiet() } }
        try await TestCoordinator.run(scenes: set) { coordinator in
            let opened = try await coordinator.control.scenes.open(quiet)
            #expect(try await coordinator.control.scenes.call(.echo, "hi", on: .instance(opened)) == "hi")
        }
    }
}

extension SceneMethod where Params == String, Answer == String {
    fileprivate static let echo: Self = "echo"
}

/// Answers `echo` with what it was called with.
private actor Quiet: SceneBehavior {
    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let text = try call.params(of: .echo) else { throw SceneError.methodNotFound(call.method) }
        return SceneMethod.echo.answer(text)
    }
}
