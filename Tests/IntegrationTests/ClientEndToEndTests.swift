import Foundation
import SceneClient
import SceneCoordinator
import SceneFlow
import SceneSocket
import SceneTesting
import SceneWire
import Testing

@Suite("Control clients end to end")
struct ClientEndToEndTests {
    @Test("hello answers the protocol, the server and a session")
    func hello() async throws {
        try await withServer { server in
            let client = try await server.connect()
            #expect(client.hello.protocol == 1)
            #expect(client.hello.server == "scenectl/0.1.0")
            #expect(!client.hello.session.isEmpty)
            try await client.ping()
        }
    }

    @Test("a task that prefers its connection's executor makes its calls on the connection's loop thread, resumed there with each answer")
    func callsOnTheConnectionsExecutor() async throws {
        try await withServer { server in
            let client = try await server.connect()
            let loop = try #require(client.executor as? EventLoop)
            let onLoop = try await Task(executorPreference: client.executor) {
                var each: [Bool] = []
                for scene in ["main", "notes", "main"] {
                    _ = try await client.open(scene)
                    each.append(loop.inEventLoop)
                }
                try await client.ping()
                each.append(loop.inEventLoop)
                return each
            }.value
            #expect(onLoop == [true, true, true, true])
            #expect(try await client.state().instances.map(\.id) == ["main-1", "notes-1"])
        }
    }

    @Test("the registry's rules answer through the socket with the same outcomes and reasons")
    func registryThroughSocket() async throws {
        try await withServer { server in
            let client = try await server.connect()
            #expect(try await client.open("main").outcome == "opened")
            #expect(try await client.open("main").outcome == "focused")
            #expect(try await client.open("viewer", value: "42").instance.value == "42")
            _ = try await client.open("portal")
            do {
                try await client.open("theatre", value: "x")
                Issue.record("a second immersive space must be refused")
            } catch let error as ClientError {
                #expect(error.reason == .immersiveSpaceBusy)
                if case .remote(let wire) = error { #expect(wire.code == -32000) }
            }
            let pushed = try await client.push("notes", from: "main-1")
            #expect(pushed.pushedFrom == "main-1")
            #expect(try await client.route(["screen": "settings"], from: "main-1").outcome == "presented")
            #expect(try await client.send(.push("page"), to: "viewer-1").path == [.push("page")])
            do {
                try await client.send(.popCount(5), to: "viewer-1")
                Issue.record("popping too deep must be refused")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .insufficientDepth)
                #expect(wire.data["requested"] == 5)
                #expect(wire.data["available"] == 1)
            }
            let state = try await client.state()
            #expect(state.app == "demo")
            #expect(state.focused == "notes-1")
            #expect(state.immersive == "portal-1")
            #expect(state.instances.map(\.id) == ["main-1", "notes-1", "portal-1", "viewer-1"])
            #expect(try await client.dismiss(instance: "main-1") == ["notes-1", "main-1"])
            #expect(try await client.dismissImmersive() == ["portal-1"])
        }
    }

    @Test("links, the sign-in gate and its replay work through the socket")
    func links() async throws {
        try await withServer { server in
            let client = try await server.connect()
            let handled = try await client.openLink("demo://demo.example/viewer/7")
            #expect(handled.outcome == "handled")
            #expect(handled.opened == true)
            #expect(handled.path == [.push(["screen": "page", "doc": "7"])])
            #expect(try await client.openLink("demo://demo.example/theatre/x").outcome == "pending")
            let replayed = try await client.setAuthenticated(true)
            #expect(replayed["outcome"] == "handled")
            #expect(try await client.setAuthenticated(true).isNull)
            do {
                try await client.openLink("demo://demo.example/nowhere")
                Issue.record("an unmatched link is an error")
            } catch let error as ClientError {
                #expect(error.reason == .linkUnhandled)
            }
            do {
                try await client.openLink("https://evil.example/viewer/1")
                Issue.record("a foreign link is an error")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .linkRejected)
                #expect(wire.data["detail"] == "host_not_allowed")
            #expect(wire.data["subject"] == "evil.example")
            }
        }
    }

    @Test("batches and transactions report every outcome, and the failing index")
    func batches() async throws {
        try await withServer { server in
            let client = try await server.connect()
            _ = try await client.open("notes")
            let batch = try await client.batch([.push("a"), .popCount(9), .sheet("s")], to: "notes-1")
            #expect(batch.outcomes.map(\.outcome) == ["changed", "rejected", "changed"])
            #expect(batch.outcomes[1].error?["data"]?["reason"] == "insufficient_depth")
            #expect(batch.path == [.push("a"), .sheet("s")])
            do {
                try await client.transaction([.dismiss, .push("b"), .popTo("zzz")], to: "notes-1")
                Issue.record("the transaction must fail")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .routeNotFound)
                #expect(wire.data["index"] == 2)
            }
            #expect(try await client.state().instances.first?.path == [.push("a"), .sheet("s")])
        }
    }

    @Test("a subscriber sees every event in order with no gaps, from the seq it was given")
    func subscribe() async throws {
        try await withServer { server in
            let client = try await server.connect()
            let watcher = try await server.connect(client: "watcher")
            _ = try await client.open("main")
            let (seq, events) = try await watcher.subscribe()
            _ = try await client.open("globe")
            _ = try await client.send(.push("x"), to: "globe-1")
            _ = try? await client.open("nope")
            var iterator = events.makeAsyncIterator()
            var seen: [WireEvent] = []
            while seen.count < 4, let event = await iterator.next() { seen.append(event) }
            #expect(seen.map(\.seq) == Array((seq + 1)...(seq + 4)))
            #expect(seen.map(\.type) == ["scene.opened", "scene.focused", "flow.changed", "request.rejected"])
            #expect(seen[0].params["instance"]?["id"] == "globe-1")
            #expect(seen[2].params["path"] == [["type": "push", "route": "x"]])
            #expect(seen[3].params["error"]?["data"]?["reason"] == "unknown_scene")
        }
    }

    @Test("a subscription to some topics sees only those")
    func topics() async throws {
        try await withServer { server in
            let client = try await server.connect()
            let watcher = try await server.connect(client: "watcher")
            let (_, events) = try await watcher.subscribe(topics: [.flow])
            _ = try await client.open("notes")
            _ = try await client.send(.push("x"), to: "notes-1")
            var iterator = events.makeAsyncIterator()
            let first = await iterator.next()
            #expect(first?.kind == .flowChanged)
        }
    }

    @Test("coordinator.shutdown answers, then stops the coordinator and removes the socket")
    func shutdown() async throws {
        try await withServer { server in
            let client = try await server.connect()
            try await client.shutdownCoordinator()
            await server.coordinator.waitUntilStopped()
            #expect(await eventually { !FileManager.default.fileExists(atPath: server.path) })
        }
    }
}

@Suite("Subscriptions and refusals as events")
struct SubscriptionEdgeTests {
    @Test("after unsubscribe no event arrives, even for changes right after it")
    func unsubscribe() async throws {
        try await withServer { server in
            let driver = try await server.connect()
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)
            #expect(try await client.readMessage()["result"]?["seq"] != nil)
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":2,"method":"unsubscribe"}"#)
            // Events of changes made now would come before the next answer if any leaked.
            _ = try await driver.open("main")
            var answer = try await client.readMessage()
            // The open may have been emitted before the unsubscribe was handled.
            while answer["method"] == "event" { answer = try await client.readMessage() }
            #expect(answer["id"] == 2)
            _ = try await driver.open("globe")
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":3,"method":"ping"}"#)
            #expect(try await client.readMessage()["id"] == 3)
        }
    }

    @Test("subscribing again replaces the topics: events of the old subscription stop")
    func resubscribe() async throws {
        try await withServer { server in
            let driver = try await server.connect()
            let client = try RawClient(path: server.path)
            try await client.hello()
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":1,"method":"subscribe"}"#)
            #expect(try await client.readMessage()["id"] == 1)
            try await client.writeFrame(#"{"jsonrpc":"2.0","id":2,"method":"subscribe","params":{"topics":["link"]}}"#)
            #expect(try await client.readMessage()["id"] == 2)
            _ = try await driver.open("main")
            _ = try await driver.openLink("demo://demo.example/viewer/1")
            // Only link events may come now: the scene events of both requests are muted.
            var seen: [String] = []
            while seen.count < 1 {
                let message = try await client.readMessage()
                if let type = message["params"]?["type"]?.stringValue { seen.append(type) }
            }
            #expect(seen == ["link.handled"])
        }
    }

    @Test("a refused handshake closes the client's socket: the server sees no connection left")
    func refusedHelloCloses() async throws {
        try await withServer { server in
            do {
                _ = try await SceneConnection.connect(path: server.path, client: "x", role: .scene)
                Issue.record("a scene hello without a token must be refused")
            } catch let error as ClientError {
                #expect(error.reason == .badToken)
            }
            #expect(await eventually { await server.coordinator.connectionCount() == 0 })
        }
    }

    @Test("a flow request on an instance that is not open is refused not_open and is an event")
    func flowOnClosedInstance() async throws {
        try await withServer { server in
            let client = try await server.connect()
            let watcher = try await server.connect(client: "watcher")
            let (_, events) = try await watcher.subscribe(topics: [.request])
            do {
                try await client.send(.pop, to: "notes-9")
                Issue.record("the request must be refused")
            } catch let error as ClientError {
                #expect(error.reason == .notOpen)
            }
            var iterator = events.makeAsyncIterator()
            let event = await iterator.next()
            #expect(event?.params["request"] == "flow.send")
            #expect(event?.params["error"]?["data"]?["reason"] == "not_open")
        }
    }
}
