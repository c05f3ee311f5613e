import Foundation
import SceneClient
import SceneCoordinator
import SceneCore
import SceneFlow
import SceneJSON
import SceneSync
import SceneWire
import Testing

/// Reads `events` until `last` matches, and answers the events before it.
private func read(_ events: EventStream<WireEvent>, until last: (WireEvent) -> Bool) async -> [WireEvent] {
    var seen: [WireEvent] = []
    for await event in events {
        if last(event) { return seen }
        seen.append(event)
    }
    return seen
}

private func summary(_ events: [WireEvent]) -> [String] {
    events.map { event in
        let instance = event.params["instance"]?.stringValue ?? event.params["instance"]?["id"]?.stringValue ?? "-"
        return "\(event.type) \(instance)" + (event.signal.map { " \($0.signal)" } ?? "")
    }
}

@Suite("Subscriptions: filters, resuming with since, history")
struct SubscriptionTests {
    @Test("each subscriber gets exactly the events whose topic it wants and that match every filter it gave")
    func filters() async throws {
        try await withServer { server in
            let control = try await server.connect()
            let byInstance = try await server.connect()
            let byScene = try await server.connect()
            let bySignal = try await server.connect()
            let byTopicAndScene = try await server.connect()
            let (_, instanceEvents) = try await byInstance.subscribe(EventFilter(instances: ["main-1"]))
            let (_, sceneEvents) = try await byScene.subscribe(EventFilter(scenes: ["viewer"]))
            let (_, signalEvents) = try await bySignal.subscribe(EventFilter(signals: ["saved"]))
            let (_, flowEvents) = try await byTopicAndScene.subscribe(EventFilter(topics: [.flow], scenes: ["main"]))
            let watchdogs = [byInstance, byScene, bySignal, byTopicAndScene].map { deadline(closing: $0) }
            defer { watchdogs.forEach { $0.cancel() } }

            _ = try await control.open("main")
            _ = try await control.open("viewer", value: "1")
            _ = try await control.send(.push("a"), to: "main-1")
            _ = try await control.send(.push("b"), to: "viewer-1")
            try await control.emit("saved", payload: ["doc": "1"], instance: "viewer-1")
            try await control.emit("printed", instance: "main-1")
            _ = try? await control.openLink("demo://demo.example/nowhere")  // link.rejected: about no instance
            // One closing event per subscriber, which only it takes, in this order.
            try await control.emit("end", instance: "main-1")
            try await control.emit("end", instance: "viewer-1")
            try await control.emit("saved", payload: ["end": true], instance: "main-1")
            _ = try await control.send(.pop, to: "main-1")

            #expect(summary(await read(instanceEvents) { $0.signal?.signal == "end" }) == [
                "scene.opened main-1", "scene.focused main-1", "flow.changed main-1", "signal.emitted main-1 printed",
            ])
            #expect(summary(await read(sceneEvents) { $0.signal?.signal == "end" }) == [
                "scene.opened viewer-1", "scene.focused viewer-1", "flow.changed viewer-1", "signal.emitted viewer-1 saved",
            ])
            #expect(summary(await read(signalEvents) { $0.signal?.payload["end"] == true }) == ["signal.emitted viewer-1 saved"])
            #expect(summary(await read(flowEvents) { $0.params["path"]?.arrayValue?.isEmpty == true }) == ["flow.changed main-1"])
        }
    }

    @Test("a subscriber that resumes with since gets every later event once, in order, replayed before the answer, then live ones")
    func resumeOnTheWire() async throws {
        try await withServer { server in
            let control = try await server.connect()
            _ = try await control.open("main")
            let first = try await server.connect()
            let (start, events) = try await first.subscribe(EventFilter())
            let firstWatchdog = deadline(closing: first)
            defer { firstWatchdog.cancel() }
            var seen: [UInt64] = []
            for step in 0..<20 { _ = try await control.send(step % 2 == 0 ? .push(.integer(step)) : .pop, to: "main-1") }
            for await event in events {
                seen.append(event.seq)
                if seen.count == 7 { break }
            }
            first.close()
            for step in 0..<20 { _ = try await control.send(step % 2 == 0 ? .push(.integer(step)) : .pop, to: "main-1") }
            let again = try await server.connect()
            let (answered, resumed) = try await again.subscribe(EventFilter(), since: seen.last!)
            let againWatchdog = deadline(closing: again)
            defer { againWatchdog.cancel() }
            #expect(answered == start + 40)
            for step in 0..<4 { _ = try await control.send(step % 2 == 0 ? .push(.integer(step)) : .pop, to: "main-1") }
            for await event in resumed {
                seen.append(event.seq)
                if event.seq == answered + 4 { break }
            }
            #expect(seen == Array((start + 1)...(answered + 4)))
        }
    }

    @Test("under load, a resuming subscription cut off again and again sees every event exactly once, in order")
    func resumeUnderLoad() async throws {
        try await withServer { server in
            let control = try await server.connect()
            _ = try await control.open("main")
            let subscription = try await ResumingSubscription(path: server.path, client: "resuming", retry: .milliseconds(5))
            defer { subscription.cancel() }
            // Bounded: a lost event ends the updates (and fails the test) instead of waiting forever.
            let watchdog = Task {
                guard (try? await Task.sleep(for: .seconds(120))) != nil else { return }
                subscription.cancel()
            }
            defer { watchdog.cancel() }
            let start = subscription.lastSeq
            let total: UInt64 = 1500
            let writer = Task {
                for step in 0..<Int(total) { _ = try await control.send(step % 2 == 0 ? .push(.integer(step)) : .pop, to: "main-1") }
            }
            var seqs: [UInt64] = []
            var resumes = 0
            for await update in subscription.updates {
                switch update {
                case .event(let event):
                    seqs.append(event.seq)
                    // Cut the connection off every 200 events, while the writer goes on.
                    if seqs.count % 200 == 0 { subscription.interrupt() }
                case .resumed:
                    resumes += 1
                case .historyGone:
                    Issue.record("the history was lost")
                }
                if seqs.last == start + total { break }
            }
            try await writer.value
            #expect(resumes >= 5)
            #expect(seqs == Array((start + 1)...(start + total)))
        }
    }

    @Test("a since older than the history keeps is history_gone with the oldest kept; one inside it resumes")
    func historyGone() async throws {
        try await withServer(configure: { $0.historyLimit = 5 }) { server in
            let control = try await server.connect()
            _ = try await control.open("main")
            for step in 0..<10 { _ = try await control.send(.push(.integer(step)), to: "main-1") }
            let current = try await control.subscribe(EventFilter(topics: [])).seq
            let listener = try await server.connect()
            do {
                _ = try await listener.subscribe(EventFilter(), since: current - 6)
                Issue.record("a since older than the history was served")
            } catch let error as ClientError {
                guard case .remote(let wire) = error else { throw error }
                #expect(wire.reason == .historyGone)
                #expect(wire.data["oldest"] == .integer(Int(current - 4)))
                #expect(wire.data["last"] == .integer(Int(current)))
            }
            do {
                _ = try await listener.subscribe(EventFilter(), since: current + 3)
                Issue.record("a since from the future was served")
            } catch let error as ClientError {
                #expect(error.reason == .historyGone)
            }
            let (answered, events) = try await listener.subscribe(EventFilter(), since: current - 5)
            let watchdog = deadline(closing: listener)
            defer { watchdog.cancel() }
            #expect(answered == current)
            var seqs: [UInt64] = []
            for await event in events {
                seqs.append(event.seq)
                if event.seq == current { break }
            }
            #expect(seqs == Array((current - 4)...current))
        }
    }
}
