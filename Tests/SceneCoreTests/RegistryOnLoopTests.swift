import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneSync
import Testing

/// A registry whose executor is an event loop, as a coordinator serves one.
@Suite("A registry on an event loop, entered from the loop's thread")
struct RegistryOnLoopTests {
    @Test("from the loop's thread the registry and its instances are entered synchronously, and what is done there is the registry's state")
    func enteredFromTheLoopThread() async throws {
        let loop = try EventLoop(name: "registry-on-loop")
        let registry = try SceneRegistry(manifest: demoManifest(), executor: loop)
        let main = try await registry.open("main").instance.id
        let path = Locked<[RouteStep<JSONValue>]?>(nil)
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            // Submitted work is no job of the registry's: only the thread says it is isolated.
            loop.execute {
                path.withLock {
                    $0 = registry.assumingIsolation(established: registry.isOnExecutorThread) { registry in
                        try? registry.withInstance(main, for: "flow.send") { instance throws(RegistryRejection) in
                            try instance.send(.push("settings"))
                            return instance.path
                        }
                    }
                }
                done.resume()
            }
        }
        #expect(path.withLock { $0 } == [.push("settings")])
        #expect(try await registry.withInstance(main, for: "flow.send") { $0.path } == [.push("settings")])
        await loop.shutdownGracefully()
    }

    #if compiler(>=6.2)
    // Exit tests (a child process that must trap) need Swift Testing 6.2 or later.
    @Test("entered from a thread that is not the loop's, the registry traps rather than running the operation")
    func trapsOffTheLoop() async {
        await #expect(processExitsWith: .failure) {
            let loop = try EventLoop(name: "registry-on-loop")
            let registry = try SceneRegistry(manifest: demoManifest(), executor: loop)
            _ = registry.assumingIsolation(established: registry.isOnExecutorThread) { $0.sequence }
        }
    }
    #endif
}
