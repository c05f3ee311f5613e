import SceneFlow

enum Screen: Hashable, Codable, Sendable { case library, album(Int), share, login }

var flow = FlowStore<Screen>()
print(flow.send(.push(.library)))
flow.send(.push(.album(7)))
flow.send(.sheet(.share))                  // a sheet at the tail
print(flow.send(.push(.library)))          // a push cannot go past a modal
print(flow.send(.cover(.login)))           // waits behind the sheet
flow.send(.dismiss)                        // the sheet goes, the queued cover shows
flow.send(.dismissAll)                     // the cover goes too
print(flow.send(.popCount(5)))
print(flow.path)

// snippet.hide
// SceneFlow.docc, "Middleware".
// snippet.show
flow.addMiddleware(ClosureMiddleware<Screen>(name: "login-as-cover") { intent, _ in
    if case .push(.login) = intent { return .proceed(.cover(.login)) }
    return .proceed(intent)
})
// snippet.hide
print(flow.send(.push(.login)))

// SceneFlow.docc, "Events".
// snippet.show
let host = FlowHost<Screen>()
let events = host.events(buffering: .newest(1024))   // or .unbounded, .oldest(n)
await host.send(.push(.library))
for await event in events.prefix(1) { print(event) }
