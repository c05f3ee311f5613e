import SceneFlow
import Testing

@Suite("FlowHost")
struct FlowHostTests {
    @Test("the host publishes each change to its subscribers in order")
    func publishes() async {
        let host = FlowHost<String>()
        let events = host.events()
        await host.send(.push("a"))
        await host.send(.sheet("s"))
        await host.send(.push("b"))
        #expect(await collect(events, count: 3) == [
            .pathChanged(old: [], new: [.push("a")]),
            .pathChanged(old: [.push("a")], new: [.push("a"), .sheet("s")]),
            .intentRejected(.push("b"), .pushBlockedByModalTail),
        ])
    }

    @Test("an event handler's follow-ups run after the intent that caused them, in order")
    func handlerFollowUps() async {
        let host = FlowHost<String>()
        await host.addEventHandler { event, context in
            // Opening "login" always stacks a "form" and then a "help" sheet behind it.
            if case .pathChanged(_, let new) = event, new.last == .push("login") {
                context.send(.push("form"))
                context.send(.sheet("help"))
            }
        }
        let events = host.events()
        let outcome = await host.send(.push("login"))
        #expect(outcome == .changed(old: [], new: [.push("login")]))
        #expect(await host.path == [.push("login"), .push("form"), .sheet("help")])
        let seen = await collect(events, count: 3)
        #expect(seen == [
            .pathChanged(old: [], new: [.push("login")]),
            .pathChanged(old: [.push("login")], new: [.push("login"), .push("form")]),
            .pathChanged(old: [.push("login"), .push("form")],
                         new: [.push("login"), .push("form"), .sheet("help")]),
        ])
    }

    @Test("a handler that keeps queueing is stopped at the follow-up limit")
    func handlerLimit() async {
        var store = FlowStore<String>()
        store.followUpLimit = 3
        let host = FlowHost(store: store)
        await host.addEventHandler { event, context in
            if case .pathChanged = event { context.send(.push("again")) }
        }
        await host.send(.push("start"))
        #expect(await host.path.count == 4)
    }

    @Test("a handler that reacts to every event, rejections included, cannot loop forever")
    func handlerReactingToEverything() async {
        var store = FlowStore<String>()
        store.followUpLimit = 4
        let host = FlowHost(store: store)
        let events = host.events(buffering: .unbounded)
        // Every event, rejections included, asks for another push: without the limit this
        // never ends.
        await host.addEventHandler { _, context in context.send(.push("again")) }
        await host.send(.push("start"))
        // The host answered, so it stopped; the overflow was reported, not applied.
        #expect(await host.path.count == 5)
        let seen = await collect(events, count: 100, stoppingAt: { event in
            if case .intentRejected(_, .followUpLimitExceeded) = event { return true }
            return false
        })
        #expect(seen.contains { if case .intentRejected(_, .followUpLimitExceeded(4)) = $0 { return true } else { return false } })
    }

    @Test("a removed handler no longer runs")
    func removeHandler() async {
        let host = FlowHost<String>()
        let token = await host.addEventHandler { _, context in context.send(.push("echo")) }
        #expect(await host.removeEventHandler(token))
        await host.send(.push("a"))
        #expect(await host.path == [.push("a")])
        #expect(await !host.removeEventHandler(token))
    }

    @Test("the host forwards insert, replace and move to its store's chain")
    func chainEdits() async throws {
        let host = FlowHost<String>()
        let a = await host.addMiddleware(ClosureMiddleware<String>(name: "a"))
        let b = try await host.insertMiddleware(ClosureMiddleware<String>(name: "b"), at: 0)
        try await host.replaceMiddleware(a, with: ClosureMiddleware<String>(name: "a2"))
        try await host.moveMiddleware(b, to: 1)
        #expect(await host.store.middlewareNames == ["a2", "b"])
    }
}
