import SceneCore
import SceneFlow
import SceneTesting
import Testing

@Test("a cover waits behind the sheet, and shows once the sheet is dismissed")
func coverWaits() {
    let flow = FlowTestStore<String>()
    flow.send(.push("inbox"), .changed, path: [.push("inbox")])
    flow.send(.sheet("compose"), .changed, path: [.push("inbox"), .sheet("compose")])
    flow.send(.cover("login"), .queued, queued: [.cover("login")])
    flow.send(.push("settings"), rejected: .pushBlockedByModalTail)
    flow.send(.dismiss, .changed, path: [.push("inbox"), .cover("login")], queued: [])
    flow.finish()
}

@Test("opening the single main window twice focuses the one instance")
func singleMain() async throws {
    let store = RegistryTestStore(try SceneRegistry(manifest: .demo))
    let main = try #require(await store.open("main", .opened))
    await store.receive(.opened(main))
    await store.receive(.focused(main.id))
    await store.open("main", .focused)
    await store.finish()   // fails on any event not received
}
