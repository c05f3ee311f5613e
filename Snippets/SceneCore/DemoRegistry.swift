import SceneCore

let registry = try SceneRegistry(.demo)                                  // or SceneRegistry(manifest:)
let viewer = try await registry.scenes.open(DemoScenes.viewer, value: "42")   // viewer-1, opened
try await registry.scenes.open(DemoScenes.viewer, value: "42")               // viewer-1, focused
try await registry.instance(viewer)?.send(.push(["screen": "page"]))
// snippet.hide
precondition(viewer.description == "viewer-1")
let state = await registry.state()
precondition(state.instances.map(\.id) == [viewer] && state.focused == viewer, "\(state.instances)")
