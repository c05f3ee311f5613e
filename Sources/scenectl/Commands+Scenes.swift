import SceneClient
import SceneCore
import SceneWire

// Opening, pushing, dismissing and focusing scenes, and the immersive space.
extension Commands {
    static let scenes: [CommandSpec] = [
        control("open", "open a scene by its instance policy", arguments: [.required("SCENE")], options: [.value]) { arguments throws(UsageError) in
            let (scene, value) = (arguments.positionals[0], try arguments.jsonOption("value"))
            return ControlPlan { connection, json throws(ClientError) in
                let result = try await connection.open(scene, value: value)
                Control.show(result, json: json, "\(result.outcome) \(result.instance.id)")
            }
        },
        fromInstance(
            "push", "open SCENE in place of window ID", from: "the window whose place SCENE takes",
            call: { connection, scene, value, from throws(ClientError) in try await connection.push(scene, value: value, from: from) },
            text: { instance, from in "pushed \(instance.id) in place of \(from)" }),
        control(
            "dismiss", "dismiss an instance, or a scene's instances; scene processes are asked first and may refuse, unless --force",
            arguments: [.optional("ID")],
            options: [
                .option("scene", "SCENE", "dismiss the scene's instances instead of instance ID"),
                .option("value", "JSON", "only the scene's instance with this value (with --scene)"),
                .flag("force", "close without asking the scene processes, which may refuse"),
            ],
            forms: ["ID [--force]", "--scene SCENE [--value JSON] [--force]"]
        ) { arguments throws(UsageError) in
            let (scene, value, force) = (arguments.option("scene"), try arguments.jsonOption("value"), arguments.flag("force"))
            if scene != nil {
                _ = try arguments.expect()
            } else {
                _ = try arguments.expect("ID")
                if value != nil { throw UsageError("--value goes with --scene") }
            }
            let instance = arguments.positionals.first
            return ControlPlan { connection, json throws(ClientError) in
                let dismissed: [String]
                var vetoed: [String]?
                if let scene {
                    (dismissed, vetoed) = try await connection.dismiss(scene: scene, value: value, force: force)
                } else {
                    dismissed = try await connection.dismiss(instance: instance ?? "", force: force)
                }
                Control.show(
                    DismissResult(dismissed: dismissed, vetoed: vetoed), json: json,
                    "dismissed \(dismissed.isEmpty ? "nothing" : dismissed.joined(separator: " "))"
                        + (vetoed?.isEmpty == false ? "; refused to close: \(vetoed!.joined(separator: " "))" : ""))
            }
        },
        control("dismiss-immersive", "dismiss the open immersive space") { _ throws(UsageError) in
            ControlPlan { connection, json throws(ClientError) in
                let dismissed = try await connection.dismissImmersive()
                Control.show(DismissResult(dismissed: dismissed), json: json, "dismissed \(dismissed.joined(separator: " "))")
            }
        },
        onInstance(
            "focus", "focus a window or volume",
            call: { connection, id throws(ClientError) in try await connection.focus(id) },
            text: { "focused \($0.id)" }),
        control(
            "reopen", "reopen the most recently dismissed instance (of SCENE), with its value and path",
            arguments: [.optional("SCENE")]
        ) { arguments throws(UsageError) in
            let scene = arguments.positionals.first
            return ControlPlan { connection, json throws(ClientError) in
                let instance = try await connection.reopen(scene)
                Control.show(instance, json: json, "reopened \(instance.id): \(ControlText.describe(instance.path))")
            }
        },
        control(
            "immersive-style", "change the open immersive space's style to one its scene declares",
            arguments: [.required("mixed|progressive|full", .choice(["mixed", "progressive", "full"]))]
        ) { arguments throws(UsageError) in
            // The choice was checked: it is a style.
            let style = ImmersionStyle(rawValue: arguments.positionals[0]) ?? .mixed
            return ControlPlan { connection, json throws(ClientError) in
                let instance = try await connection.setImmersiveStyle(style)
                Control.show(instance, json: json, "\(instance.id) is now \(instance.style ?? style.rawValue)")
            }
        },
    ]
}
