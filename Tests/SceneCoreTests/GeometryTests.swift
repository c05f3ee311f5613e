import Foundation
import SceneCore
import SceneFlow
import SceneJSON
import Testing

@Suite("Scene geometry and immersive styles")
struct GeometryTests {
    @Test("a window's default size, resizability and placement, and a space's styles, are read and carried by its instances")
    func carried() async throws {
        let registry = try demoRegistry()
        let main = try await registry.open("main").instance
        #expect(main.geometry.defaultSize == WindowSize(width: 1280, height: 720))
        #expect(main.geometry.resizability == .contentMinSize)
        #expect(main.style == nil)
        let notes = try await registry.open("notes").instance
        #expect(notes.geometry.placement == .relative(to: "main", position: .trailing))
        let portal = try await registry.open("portal").instance
        #expect(portal.style == .progressive)
        #expect(portal.geometry.styles == [.progressive, .full])
    }

    @Test(
        "each geometry mistake is reported with its path",
        arguments: [
            (#"{"id": "v", "kind": "volume", "size": [1, 1, 1], "defaultSize": {"width": 1, "height": 1}}"#, "scenes[0].defaultSize"),
            (#"{"id": "w", "kind": "window", "defaultSize": {"width": 0, "height": 1}}"#, "scenes[0].defaultSize"),
            (#"{"id": "i", "kind": "immersive", "resizability": "automatic"}"#, "scenes[0].resizability"),
            (#"{"id": "w", "kind": "window", "resizability": "stretchy"}"#, "scenes[0].resizability"),
            (#"{"id": "w", "kind": "window", "placement": {"relativeTo": "nowhere", "position": "leading"}}"#, "scenes[0].placement.relativeTo"),
            (#"{"id": "w", "kind": "window", "placement": {"relativeTo": "w", "position": "inside"}}"#, "scenes[0].placement"),
            (#"{"id": "w", "kind": "window", "styles": ["mixed"]}"#, "scenes[0].styles"),
            (#"{"id": "i", "kind": "immersive", "style": "full", "styles": ["mixed", "progressive"]}"#, "scenes[0].style"),
            (#"{"id": "i", "kind": "immersive", "styles": ["mixed", "mixed"]}"#, "scenes[0].styles"),
        ])
    func mistakes(scene: String, path: String) {
        let found = problems(#"{"app": "a", "scenes": [\#(scene)]}"#)
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix(path + ":") == true, "\(found)")
    }

    @Test("immersive.style changes the open space's style among those declared, with a scene.changed event; the same style changes nothing")
    func changeStyle() async throws {
        let registry = try demoRegistry()
        let portal = try await registry.open("portal").instance.id
        let (start, events) = registry.subscribe(buffering: .unbounded)
        let changed = try await registry.setImmersiveStyle(.full)
        #expect(changed.style == .full)
        #expect(try await registry.setImmersiveStyle(.full).style == .full)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next()?.event == .changed(changed))
        #expect(registry.sequence == start + 1)
        #expect(try await registry.info(portal).style == .full)
    }

    @Test("a style the space's scene does not declare is style_not_allowed; with no space open, not_open")
    func refused() async throws {
        let registry = try demoRegistry()
        await #expect(throws: RegistryRejection.notOpen("an immersive space")) { try await registry.setImmersiveStyle(.full) }
        let theatre = try await registry.open("theatre", value: "x").instance.id
        await #expect(throws: RegistryRejection.styleNotAllowed(theatre, style: .mixed, allowed: [.full])) {
            try await registry.setImmersiveStyle(.mixed)
        }
    }

    @Test("a changed style survives a snapshot and a restore")
    func restored() async throws {
        let registry = try demoRegistry()
        let portal = try await registry.open("portal").instance.id
        try await registry.setImmersiveStyle(.full)
        let restored = try demoRegistry()
        try await restored.restore(await registry.snapshot())
        #expect(try await restored.info(portal).style == .full)
    }
}
