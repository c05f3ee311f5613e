import Foundation
import SceneClient
// snippet.hide
import SceneCoordinator
import SceneCore

// A coordinator of the demo app in this process, on a socket in $TMPDIR.
let socket = FileManager.default.temporaryDirectory.appendingPathComponent("control-client-\(getpid()).sock").path
let coordinator = try await Coordinator.start(manifest: .demo, configuration: CoordinatorConfiguration(socketPath: socket))
// snippet.show

let connection = try await SceneConnection.connect(path: socket, client: "my-app")
let (seq, events) = try await connection.subscribe(topics: [.scene, .flow])
let viewer = try await connection.open("viewer", value: "42")          // OpenResult
try await connection.send(.push(["screen": "page"]), to: viewer.instance.id)
print("events after seq \(seq):")
for await event in events.prefix(3) { print(event.seq, event.type) }
// snippet.hide
connection.close()
await coordinator.shutdown()
