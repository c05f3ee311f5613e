import Foundation
import SceneClient
// snippet.hide
import SceneCoordinator
import SceneCore

// A coordinator of the demo app in this process, on a socket in $TMPDIR, and a scene
// that emits `saved` once the subscription is there.
let socket = FileManager.default.temporaryDirectory.appendingPathComponent("resuming-\(getpid()).sock").path
let coordinator = try await Coordinator.start(manifest: .demo, configuration: CoordinatorConfiguration(socketPath: socket))
let control = try await SceneConnection.connect(path: socket, client: "docs")
let main = try await control.open("main").instance.id
// snippet.show

let saved = try await ResumingSubscription(path: socket, client: "indexer", filter: EventFilter(topics: [.signal], signals: ["saved"]))
// snippet.hide
try await control.emit("saved", payload: ["doc": 7], instance: main)
// snippet.show
for await update in saved.updates {
    if case .event(let event) = update, let signal = event.signal {
        print(signal.instance, signal.payload)
        break   // a real indexer goes on
    }
}
// snippet.hide
control.close()
await coordinator.shutdown()
