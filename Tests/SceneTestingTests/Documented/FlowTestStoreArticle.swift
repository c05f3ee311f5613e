import SceneFlow
import SceneTesting
import Testing

// snippet.hide
// SceneTesting.docc/SceneTesting.md, "Testing a flow" (in a type of its own: the README's
// file has a test of the same name).
struct FlowTestStoreArticle {
// snippet.show
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
// snippet.hide
}
