import SceneCore
import SceneFlow
import SceneJSON
import Synchronization

extension SceneID where Value == NoValue { static let editor: Self = "editor" }
extension SceneMethod where Params == String, Answer == Int { static let type: Self = "type" }

/// What the editor heard, in order; `stopped` ends once it heard `stop()`.
let heard = Mutex<[String]>([])
let (stopped, ended) = AsyncStream.makeStream(of: Never.self)

/// An editor that keeps a draft, shows it as a page, and refuses an interactive close
/// while the draft is unsaved.
actor Editor {
    let context: SceneContext<JSONValue>
    var draft = ""

    init(context: SceneContext<JSONValue>) { self.context = context }   // the context, kept
}

// The hooks, in the extension that states the conformance (see below).
extension Editor: SceneBehavior {
    func start() async throws { heard.withLock { $0.append("start: \(context.instance) is opening") } }

    func phaseChanged(to phase: ScenePhase) async { heard.withLock { $0.append("phase: \(phase)") } }

    func flowChanged(to path: [RouteStep<JSONValue>]) async { heard.withLock { $0.append("path: \(path)") } }

    func answer(_ call: SceneCall) async throws -> ScenePayload {
        guard let text = try call.params(of: .type) else { throw SceneError.methodNotFound(call.method) }
        if draft.isEmpty { try await context.send(.push(["screen": "draft"])) }   // its own flow
        draft += text
        return SceneMethod.type.answer(draft.count)
    }

    func close(force: Bool) async -> Bool {
        heard.withLock { $0.append("close(force: \(force)), \(draft.count) characters unsaved") }
        return force || draft.isEmpty
    }

    func stop() async {
        heard.withLock { $0.append("stop") }
        ended.finish()
    }
}

let registry = try SceneRegistry(SceneSet(app: "editor") { Window(.editor) { Editor(context: $0) } })
let editor = try await registry.scenes.open(.editor)
print("typed:", try await registry.scenes.call(.type, "hello", on: .instance(editor)))
// snippet.hide
// Changes are told in order, but apart from the close request below: wait until the
// editor has heard its path change, so that what it heard prints the same every time.
while !heard.withLock({ $0.contains { $0.hasPrefix("path:") } }) { try await Task.sleep(for: .milliseconds(1)) }
// snippet.show
do {
    try await registry.scenes.dismiss(editor)
} catch {
    print("dismiss refused:", error.reason!)
}
try await registry.scenes.dismiss(editor, force: true)
for await _ in stopped {}   // a forced close, and stop(), are told after the dismissal
print(heard.withLock { $0 }.joined(separator: "\n"))
