import Foundation

extension Manifest {
    /// The demo app's manifest: every kind of scene and rule, used by the examples and as
    /// the coordinator's default.
    public static let demoText = #"""
        {
          "app": "demo",
          "links": {"origins": [{"scheme": "demo", "hosts": ["demo.example"]}, {"scheme": "https", "hosts": ["demo.example"]},
                                {"scheme": "demoapp"}]},
          "immersive": "reject",
          "scenes": [
            {"id": "main", "kind": "window", "instances": "single",
             "defaultSize": {"width": 1280, "height": 720}, "resizability": "contentMinSize",
             "scope": [{"when": {"screen": "settings"}, "present": "sheet"},
                       {"when": {"screen": "admin"}, "reject": "not_allowed_here"}]},
            {"id": "viewer", "kind": "window", "instances": "perValue",
             "links": [{"pattern": "/viewer/:doc", "value": "${doc}",
                        "plan": [{"type": "push", "route": {"screen": "page", "doc": "${doc}"}}]},
                       {"pattern": "/compare/:left/:right", "program": [
                         {"method": "scene.open", "params": {"scene": "viewer", "value": "${left}"}},
                         {"method": "flow.apply", "params": {"instance": "$0",
                          "plan": [{"type": "push", "route": {"screen": "page", "doc": "${left}"}}]}},
                         {"method": "scene.open", "params": {"scene": "viewer", "value": "${right}"}},
                         {"method": "flow.apply", "params": {"instance": "$2",
                          "plan": [{"type": "push", "route": {"screen": "page", "doc": "${right}"}}]}}]}]},
            {"id": "notes", "kind": "window", "instances": {"max": 3},
             "placement": {"relativeTo": "main", "position": "trailing"}},
            {"id": "globe", "kind": "volume", "size": [0.6, 0.6, 0.6], "instances": "single",
             "claims": [{"when": {"screen": "globe"}, "present": "push"}]},
            {"id": "theatre", "kind": "immersive", "style": "full",
             "links": [{"pattern": "/theatre/:show", "value": "${show}", "requiresAuth": true}]},
            {"id": "portal", "kind": "immersive", "style": "progressive", "styles": ["progressive", "full"]}
          ]
        }
        """#

    /// The demo app's manifest, loaded (once per process: a manifest is a value).
    public static var demo: Manifest { loadedDemo }

    // The text above is part of the library and tested; it always loads.
    private static let loadedDemo = try! Manifest.load(from: Data(demoText.utf8))
}
