public import SceneFlow

/// Everything a registry holds, as one value: what `state` answers.
public struct RegistryState<R: Route>: Hashable, Sendable {
    /// One declared scene.
    public struct Scene: Hashable, Sendable {
        public let id: String
        public let kind: SceneKind
        public let instances: InstancePolicy
        public let restore: Bool
    }

    public let app: String
    /// Declared scenes, in declaration order.
    public let scenes: [Scene]
    /// Open instances, in id order.
    public let instances: [InstanceInfo<R>]
    public let focused: InstanceID?
    public let immersive: InstanceID?
    public let pendingLink: String?
    /// The app's phase: active when any instance is active.
    public let phase: ScenePhase
    /// The sequence number of the last event when the state was taken.
    public let seq: UInt64
}

extension SceneRegistry {
    /// Everything the registry holds now.
    public func state() -> RegistryState<R> {
        RegistryState(
            app: app,
            scenes: declarations.map { .init(id: $0.id, kind: $0.kind, instances: $0.instances, restore: $0.restore) },
            instances: book.records.keys.sorted().compactMap(infoIfOpen),
            focused: book.focused, immersive: book.immersive, pendingLink: links.pending?.url,
            phase: book.aggregatePhase, seq: log.seq)
    }
}

extension RegistryState {
    /// A readable tree: the app, then each scene with its instances and their paths.
    ///
    /// ```
    /// demo  phase active  focused viewer-1  immersive none  pending link none
    /// main  window, single
    ///   main-1  active  path: (root)
    /// viewer  window, perValue
    ///   viewer-1 = "42"  active  focused  path: push({"doc":"42","screen":"page"})
    /// ```
    public var tree: String {
        var lines = [
            "\(app)  phase \(phase.rawValue)  focused \(focused?.description ?? "none")  immersive \(immersive?.description ?? "none")  pending link \(pendingLink ?? "none")"
        ]
        let byScene = Dictionary(grouping: instances, by: \.scene)
        for scene in scenes {
            lines.append("\(scene.id)  \(RegistryState.describe(scene.kind)), \(RegistryState.describe(scene.instances))")
            for info in byScene[scene.id] ?? [] {
                var line = "  \(info.id)"
                if let value = info.value { line += " = \(value)" }
                line += "  \(info.phase.rawValue)"
                if info.focused { line += "  focused" }
                if let parent = info.pushedFrom { line += "  pushed from \(parent)" }
                let path = info.path.isEmpty ? "(root)" : info.path.map { "\($0)" }.joined(separator: " > ")
                lines.append(line + "  path: " + path)
            }
        }
        return lines.joined(separator: "\n")
    }

    static func describe(_ kind: SceneKind) -> String {
        switch kind {
        case .window: return "window"
        case .volume(let size): return "volume \(size.width)x\(size.height)x\(size.depth) m"
        case .immersive(let style): return "immersive \(style.rawValue)"
        }
    }

    static func describe(_ policy: InstancePolicy) -> String {
        switch policy {
        case .single: return "single"
        case .perValue: return "perValue"
        case .multiple(let max): return max.map { "multiple, max \($0)" } ?? "multiple"
        }
    }
}
