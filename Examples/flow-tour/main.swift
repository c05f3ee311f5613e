// A tour of SceneFlow: drives one flow store through its rules and prints the path
// after every step.
import SceneFlow

enum Screen: String, Hashable, Codable, Sendable, CustomStringConvertible {
    case library, album, track, settings, share, login
    var description: String { rawValue }
}

func padded(_ text: String, to width: Int) -> String {
    text + String(repeating: " ", count: max(1, width - text.count))
}

func show(_ path: [RouteStep<Screen>]) -> String {
    path.isEmpty ? "(root)" : path.map(\.description).joined(separator: " > ")
}

func describe(_ outcome: FlowOutcome<Screen>) -> String {
    switch outcome {
    case .changed: return "changed"
    case .queued(let step): return "queued \(step)"
    case .unchanged: return "unchanged"
    case .rejected(let reason): return "rejected \(reason.code)"
    }
}

var store = FlowStore<Screen>()
// A middleware that refuses to show the login screen as a push: it must be a cover.
store.addMiddleware(
    ClosureMiddleware<Screen>(name: "login-as-cover") { intent, _ in
        if case .push(.login) = intent { return .proceed(.cover(.login)) }
        return .proceed(intent)
    })

let steps: [(String, FlowIntent<Screen>)] = [
    ("push library", .push(.library)),
    ("push album", .push(.album)),
    ("push track", .push(.track)),
    ("sheet share", .sheet(.share)),
    ("push settings (blocked by the sheet)", .push(.settings)),
    ("cover settings (queued behind the sheet)", .cover(.settings)),
    ("dismiss (the queued cover shows)", .dismiss),
    ("dismiss", .dismiss),
    ("popTo library", .popTo(.library)),
    ("pop 3 (too deep)", .popCount(3)),
    ("backOrPush album", .backOrPush(.album)),
    ("pushUnique album (already there)", .pushUnique(.album)),
    ("push login (the middleware makes it a cover)", .push(.login)),
    ("reset to library", .reset([.push(.library)])),
]

for (label, intent) in steps {
    let outcome = store.send(intent)
    print(padded(label, to: 46) + padded(describe(outcome), to: 34) + show(store.path))
}

let all = store.transaction([.push(.album), .push(.track), .popCount(5)])
if case .failed(let index, _, let reason) = all {
    print("transaction [push album, push track, pop 5] failed at \(index) (\(reason.code)); path \(show(store.path))")
}
