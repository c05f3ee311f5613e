import SceneCore

enum Screen: Hashable, Codable, Sendable { case home, settings, map(Int) }

let registry = try SceneRegistry<Screen>(app: "typed", declarations: [
    SceneDeclaration(id: "main", kind: .window, instances: .single,
                     scope: [ScopeRule(when: RoutePredicate { $0 == .settings }, .present(.cover))]),
    SceneDeclaration(id: "map", kind: .window, instances: .perValue,
                     claims: [SceneClaim(when: RoutePredicate { if case .map = $0 { true } else { false } },
                                         present: .push)]),
])
let main = try await registry.scenes.open(SceneID<NoValue>("main"))
let settings = try await registry.route(.settings, from: main)   // presented: a cover in main-1
let map = try await registry.route(.map(3), from: main)          // opened: map-1, its value the route
// snippet.hide
precondition(settings.kind == .presented && settings.instance.id == main && settings.instance.path == [.cover(.settings)])
precondition(map.kind == .opened && map.instance.id.description == "map-1" && map.instance.path == [.push(.map(3))])
