import Foundation
import SceneClient
import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

// Routes, flow intents and plans, programs, and presenting a scene for its result.
extension Commands {
    static let navigation: [CommandSpec] = [
        control("route", "ask instance ID to show a route", arguments: [.required("ID"), .required("ROUTE-JSON")]) { arguments throws(UsageError) in
            let (id, route) = (arguments.positionals[0], try arguments.json(at: 1, what: "the route"))
            return ControlPlan { connection, json throws(ClientError) in
                let result = try await connection.route(route, from: id)
                Control.show(result, json: json, "\(result.outcome) in \(result.instance.id): \(ControlText.describe(result.path))")
            }
        },
        control(
            "send", #"send a flow intent, e.g. '{"type":"push","route":"a"}'"#,
            arguments: [.required("ID"), .required("INTENT-JSON")]
        ) { arguments throws(UsageError) in
            let id = arguments.positionals[0]
            // The shape is checked here, so a mis-shaped intent is a usage error.
            let intent = try arguments.decoded(
                FlowIntent<JSONValue>.self, at: 1, what: "intent", hint: "; intent types: \(ControlText.intentTypes)")
            return ControlPlan { connection, json throws(ClientError) in
                let result = try await connection.send(intent, to: id)
                Control.show(result, json: json, "\(result.outcome): \(ControlText.describe(result.path))")
            }
        },
        control(
            "apply", #"reset a path to a plan, e.g. '[{"type":"push","route":"a"}]'"#,
            arguments: [.required("ID"), .required("PLAN-JSON")]
        ) { arguments throws(UsageError) in
            let (id, plan) = (arguments.positionals[0], try arguments.decoded(FlowPlan<JSONValue>.self, at: 1, what: "plan"))
            return ControlPlan { connection, json throws(ClientError) in
                let path = try await connection.apply(plan, to: id)
                Control.show(PathResult(path: path), json: json, ControlText.describe(path))
            }
        },
        control(
            "reconcile", "adopt or refuse the path a UI toolkit shows for instance ID",
            arguments: [.required("ID"), .required("OBSERVED-JSON")],
            options: [
                .option(
                    "policy", "adopt|reject", "adopt the observed path, or refuse it when it differs",
                    kind: .choice(["adopt", "reject"]), required: true),
            ],
            details: """
                OBSERVED-JSON is the path the toolkit shows, e.g. '[{"type":"push","route":"a"}]'. adopt \
                turns the difference into the fewest intents and applies them as one change, printing \
                them; reject refuses a different path (path_mismatch).
                """
        ) { arguments throws(UsageError) in
            let id = arguments.positionals[0]
            let observed = try arguments.decoded([RouteStep<JSONValue>].self, at: 1, what: "observed path")
            guard let policy = arguments.option("policy").flatMap(ReconcilePolicy.init(rawValue:)) else {
                throw UsageError("reconcile needs --policy adopt or --policy reject")
            }
            return ControlPlan { connection, json throws(ClientError) in
                let result = try await connection.reconcile(id, observed: observed, policy: policy)
                let intents = result.intents.map { ((try? JSONValue(encoding: $0)) ?? .null).description }
                Control.show(
                    result, json: json,
                    "\(result.outcome): \(ControlText.describe(result.path))" + (intents.isEmpty ? "" : " by \(intents.joined(separator: ", "))"))
            }
        },
        control(
            "program", "run several steps as one request, from FILE or standard input (-)",
            arguments: [.required("FILE|-", .file)],
            details: """
                FILE holds the steps as JSON: an array of {"method", "params"}, or {"steps": [...]}. Each \
                method is scene.open, scene.push, scene.focus, scene.dismiss, immersive.dismiss, \
                scene.route, flow.send, flow.apply or link.open; "$k" in a member naming an instance \
                names the instance of step k's result. The first step that fails ends the program \
                (exit 1, naming the step); the steps before it stay applied.
                """
        ) { arguments throws(UsageError) in
            let steps = try readProgram(arguments.positionals[0])
            return ControlPlan { connection, json throws(ClientError) in
                // The steps go as they were written: the coordinator reads and checks them.
                let result = try await connection.call(WireCalls.sceneProgram, ProgramParams(steps: steps))
                if json {
                    printJSON(result)
                } else {
                    print("completed \(result.completed) step\(result.completed == 1 ? "" : "s")")
                    for (index, step) in result.results.enumerated() { print("  \(index): \(step)") }
                }
            }
        },
        control(
            "present", "open SCENE from instance ID and wait until it finishes; print its result",
            arguments: [.required("SCENE")],
            options: [.option("from", "ID", "the instance it is presented from", required: true), .value],
            details: """
                Opens SCENE (or focuses the instance its policy picks) presented from --from, then \
                waits until someone ends it with `scenectl finish` (or dismisses it). Once the \
                presented instance is up it prints "presented ID from FROM; waiting until it \
                finishes" (not with --json); then, when it finishes, its result.
                """
        ) { arguments throws(UsageError) in
            guard let from = arguments.option("from") else { throw UsageError("present needs --from ID") }
            let (scene, value) = (arguments.positionals[0], try arguments.jsonOption("value"))
            return ControlPlan { connection, json throws(ClientError) in
                let announcing = json ? nil : try await announcePresented(scene, from: from, on: connection)
                defer { announcing?.cancel() }
                let result = try await connection.present(scene, value: value, from: from)
                announcing?.cancel()
                Control.show(result, json: json, "\(result.instance.id) finished with \(result.result)")
            }
        },
        control(
            "finish", "end presented instance ID with a result; whoever presented it gets it",
            arguments: [.required("ID"), .required("RESULT-JSON")]
        ) { arguments throws(UsageError) in
            let (id, result) = (arguments.positionals[0], try arguments.json(at: 1, what: "the result"))
            return ControlPlan { connection, json throws(ClientError) in
                try await connection.finish(id, result: result)
                Control.done(json: json, "finished \(id)")
            }
        },
    ]

    /// Prints "presented ID from FROM; waiting until it finishes" once the instance of
    /// `scene` the present lands on is up (its process said hello): the presentation is
    /// registered by then, and `scenectl finish` finds it. The instance is one an event
    /// names after this call: a new one, or one open before that the present focused. An
    /// instance already focused and up gets no event, and so no line.
    private static func announcePresented(_ scene: String, from: String, on connection: SceneConnection) async throws(ClientError)
        -> Task<Void, Never>
    {
        let (_, events) = try await connection.subscribe(EventFilter(topics: [.scene], scenes: [scene]))
        // Asked after the subscription: an instance not in it is new.
        let before = Set(try await connection.state().instances.filter { $0.scene == scene }.map(\.id))
        return Task {
            for await event in events {
                guard let id = event.params["instance"]?.stringValue ?? event.params["instance"]?["id"]?.stringValue,
                    !before.contains(id) || event.type == "scene.focused"
                else { continue }
                // Asked on the same connection: answered in turn, after the present began.
                guard let state = try? await connection.state(),
                    let instance = state.instances.first(where: { $0.id == id }),
                    ["active", "inactive", "background"].contains(instance.phase)
                else { continue }
                emit("presented \(id) from \(from); waiting until it finishes")
                return
            }
        }
    }

    /// A program's steps from `path` (`-`: standard input): an array, or `{"steps": […]}`.
    private static func readProgram(_ path: String) throws(UsageError) -> [JSONValue] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let read = FileManager.default.contents(atPath: path) else { throw UsageError("cannot read \(path)") }
            data = read
        }
        let json = try parseJSON(String(decoding: data, as: UTF8.self), what: "the program")
        if case .array(let steps) = json { return steps }
        if case .array(let steps)? = json["steps"] { return steps }
        throw UsageError("the program must be an array of steps, or {\"steps\": [...]}")
    }
}
