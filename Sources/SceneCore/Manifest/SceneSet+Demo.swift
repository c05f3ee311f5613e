public import SceneJSON
import SceneFlow
import SceneLinks

/// The demo app's scenes, each named once.
public enum DemoScenes {
    /// The main window: one instance, with its own scope rules.
    public static let main: SceneID<NoValue> = "main"
    /// A document viewer: one instance per document id.
    public static let viewer: SceneID<String> = "viewer"
    /// Notes: up to three at once, beside the main window.
    public static let notes: SceneID<NoValue> = "notes"
    /// A globe volume, which claims globe routes.
    public static let globe: SceneID<NoValue> = "globe"
    /// A fully immersive theatre, opened by a link that needs sign-in.
    public static let theatre: SceneID<String> = "theatre"
    /// A portal, progressive or full.
    public static let portal: SceneID<NoValue> = "portal"
}

extension SceneSet where R == JSONValue {
    /// The demo app, declared in Swift: the same scenes and rules as ``Manifest/demo``
    /// declares in JSON for processes and other languages (a test holds them equal).
    public static var demo: SceneSet<JSONValue> {
        SceneSet(
            app: "demo",
            links: LinkOriginPolicy(origins: [
                LinkOrigin(scheme: "demo", hosts: ["demo.example"]), LinkOrigin(scheme: "https", hosts: ["demo.example"]),
                LinkOrigin(scheme: "demoapp"),
            ]),
            immersive: .reject
        ) {
            Window(DemoScenes.main, instances: .single)
                .geometry(SceneGeometry(defaultSize: WindowSize(width: 1280, height: 720), resizability: .contentMinSize))
                .scope([
                    ScopeRule(when: RoutePredicate(when: ["screen": "settings"]), .present(.sheet)),
                    ScopeRule(when: RoutePredicate(when: ["screen": "admin"]), .reject("not_allowed_here")),
                ])
            Window(DemoScenes.viewer, instances: .perValue)
                .links([
                    SceneLinkMapping("/viewer/:doc") { link in
                        let doc = JSONValue.string(try link.string("doc"))
                        return (value: doc, plan: FlowPlan(pushing: [["screen": "page", "doc": doc]]))
                    },
                    SceneLinkMapping("/compare/:left/:right") { link in
                        let (left, right) = (JSONValue.string(try link.string("left")), JSONValue.string(try link.string("right")))
                        return [
                            .open(scene: DemoScenes.viewer.id, value: left), .apply([.push(["screen": "page", "doc": left])], to: .step(0)),
                            .open(scene: DemoScenes.viewer.id, value: right), .apply([.push(["screen": "page", "doc": right])], to: .step(2)),
                        ]
                    },
                ])
            Window(DemoScenes.notes, instances: .multiple(max: 3))
                .geometry(SceneGeometry(placement: .relative(to: DemoScenes.main.id, position: .trailing)))
            Volume(DemoScenes.globe, size: VolumeSize(width: 0.6, height: 0.6, depth: 0.6), instances: .single)
                .claims([SceneClaim(when: RoutePredicate(when: ["screen": "globe"]), present: .push)])
            ImmersiveSpace(DemoScenes.theatre, style: .full)
                .links([
                    SceneLinkMapping("/theatre/:show", requiresAuth: true) { link in
                        (value: .string(try link.string("show")), plan: nil)
                    }
                ])
            ImmersiveSpace(DemoScenes.portal, style: .progressive)
                .geometry(SceneGeometry(styles: [.progressive, .full]))
        }
    }
}
