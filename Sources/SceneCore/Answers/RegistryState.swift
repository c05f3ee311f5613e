public import SceneFlow
public import SceneJSON
import SceneSync

/// Everything a registry holds, as one value: what `state` answers.
public struct RegistryState<R: Route>: Hashable, Sendable {
    /// One declared scene.
    public struct Scene: Hashable, Sendable {
        /// The scene's id.
        public let id: String
        /// Its kind, with a volume's size or an immersive space's style.
        public let kind: SceneKind
        /// How many instances it may have, and which an open reuses.
        public let instances: InstancePolicy
        /// Whether a registry restore brings its instances back.
        public let restore: Bool
    }

    /// The app's name, from the manifest.
    public let app: String
    /// Declared scenes, in declaration order.
    public let scenes: [Scene]
    /// Open instances, in id order.
    public let instances: [InstanceInfo<R>]
    /// The focused window or volume, if any.
    public let focused: InstanceID?
    /// The open immersive space, if any.
    public let immersive: InstanceID?
    /// The URL of the link waiting for authentication, if any.
    public let pendingLink: String?
    /// The app's phase: active when any instance is active.
    public let phase: ScenePhase
    /// The sequence number of the last event when the state was taken.
    public let seq: UInt64
}

/// A registry's state taken in one step — every instance's id and path as they were,
/// the bookkeeping, the focus and the sequence number — with the instances themselves
/// made later, a range at a time: what a server answers `state` with, so that a registry
/// of 100,000 instances holds its thread only for the copy, not for the whole answer.
public struct RegistryStateCapture<R: Route>: Sendable {
    /// The app's name, from the manifest.
    public let app: String
    /// Declared scenes, in declaration order.
    public let scenes: [RegistryState<R>.Scene]
    /// The focused window or volume, if any.
    public let focused: InstanceID?
    /// The open immersive space, if any.
    public let immersive: InstanceID?
    /// The URL of the link waiting for authentication, if any.
    public let pendingLink: String?
    /// The app's phase: active when any instance is active.
    public let phase: ScenePhase
    /// The sequence number of the last event when the state was taken.
    public let seq: UInt64
    /// Every open instance's id, path and queued modals, in id order.
    let entries: [(id: InstanceID, path: [RouteStep<R>], queue: [RouteStep<R>])]
    /// The bookkeeping when the state was taken (a copy that shares storage until the
    /// registry changes).
    let records: [InstanceID: InstanceRecord]
    /// Each scene's geometry, by scene id.
    let geometries: [String: SceneGeometry]
    /// Immersive spaces whose style was changed from their declared one.
    let styles: [InstanceID: ImmersionStyle]
    /// What of the state comes from the declarations alone, shared by every capture.
    let declared: DeclaredState<R>

    /// How many instances are open.
    public var count: Int { entries.count }

    /// The declared scenes as `write` encodes them: encoded by the first capture of the
    /// registry that asks, then kept (the declarations never change), so that a writer
    /// answering `state` again and again encodes them once.
    package func scenes(writtenBy write: ([RegistryState<R>.Scene]) -> [UInt8]) -> [UInt8] {
        declared.encodedScenes.withLock { encoded in
            if let encoded { return encoded }
            let bytes = write(declared.scenes)
            encoded = bytes
            return bytes
        }
    }

    /// The open instances at `range` of the id order.
    @_specialize(where R == JSONValue)
    public func instances(_ range: Range<Int>) -> [InstanceInfo<R>] {
        // Reserved whole (every entry has its record): `compactMap` would grow it.
        var infos: [InstanceInfo<R>] = []
        infos.reserveCapacity(range.count)
        for (id, path, queue) in entries[range] {
            guard let record = records[id] else { continue }
            var style: ImmersionStyle?
            if case .immersive(let declared) = record.kind { style = styles[id] ?? declared }
            infos.append(InstanceInfo(
                id: id, scene: id.scene, kind: record.kind, value: record.value, phase: record.phase,
                focused: focused == id, path: path, pushedFrom: record.pushedFrom, queue: queue,
                geometry: geometries[id.scene] ?? SceneGeometry(), style: style))
        }
        return infos
    }

    /// The whole state.
    public var state: RegistryState<R> {
        RegistryState(
            app: app, scenes: scenes, instances: instances(0..<count), focused: focused, immersive: immersive,
            pendingLink: pendingLink, phase: phase, seq: seq)
    }
}

/// The parts of a registry's state that its declarations alone decide, made once with the
/// registry.
final class DeclaredState<R: Route>: Sendable {
    /// The scenes, in declaration order.
    let scenes: [RegistryState<R>.Scene]
    /// Each scene's rank among the scene ids in order: the high bits of its instances'
    /// sort keys.
    let ranks: [String: UInt64]
    /// Each scene's geometry, by scene id.
    let geometries: [String: SceneGeometry]
    /// The scenes as the one writer that asked encoded them (``RegistryStateCapture/scenes(writtenBy:)``).
    let encodedScenes = Locked<[UInt8]?>(nil)

    init(_ declarations: [SceneDeclaration<R>]) {
        scenes = declarations.map { .init(id: $0.id, kind: $0.kind, instances: $0.instances, restore: $0.restore) }
        ranks = Dictionary(uniqueKeysWithValues: declarations.map(\.id).sorted().enumerated().map { ($1, UInt64($0)) })
        geometries = Dictionary(declarations.map { ($0.id, $0.geometry) }, uniquingKeysWith: { _, last in last })
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
        SceneTree(
            app: app, phase: phase.rawValue, focused: focused?.description, immersive: immersive?.description,
            pendingLink: pendingLink,
            scenes: scenes.map { SceneTree.Scene(id: $0.id, kind: SceneTree.describe($0.kind), policy: SceneTree.describe($0.instances)) },
            instances: instances.map { info in
                SceneTree.Instance(
                    id: info.id.description, scene: info.scene, value: info.value, phase: info.phase.rawValue,
                    focused: info.focused, pushedFrom: info.pushedFrom?.description, path: info.path.map(\.description))
            }
        ).text
    }
}

/// The scene tree as text, from plain values, so that every front end prints it alike.
public struct SceneTree: Sendable {
    /// One declared scene, as the tree prints it.
    public struct Scene: Sendable {
        /// The scene's id.
        public let id: String
        /// Its kind, already described (`volume 0.6x0.6x0.6 m`).
        public let kind: String
        /// Its instance policy, already described (`multiple, max 3`).
        public let policy: String
        /// Creates a scene line from its members.
        public init(id: String, kind: String, policy: String) {
            self.id = id
            self.kind = kind
            self.policy = policy
        }
    }

    /// One instance, as the tree prints it.
    public struct Instance: Sendable {
        /// The instance's id.
        public let id: String
        /// The id of its scene, which it is listed under.
        public let scene: String
        /// The value it was opened with; nil or null prints nothing.
        public let value: JSONValue?
        /// Its phase's name.
        public let phase: String
        /// Whether it is the focused window or volume.
        public let focused: Bool
        /// The id of the window it was pushed from, if any.
        public let pushedFrom: String?
        /// The path's steps, each already printed (`push("page")`).
        public let path: [String]
        /// Creates an instance line from its members.
        public init(
            id: String, scene: String, value: JSONValue?, phase: String, focused: Bool, pushedFrom: String?, path: [String]
        ) {
            self.id = id
            self.scene = scene
            self.value = value
            self.phase = phase
            self.focused = focused
            self.pushedFrom = pushedFrom
            self.path = path
        }
    }

    /// The app's name.
    public let app: String
    /// The app's phase's name.
    public let phase: String
    /// The focused instance's id; nil prints `none`.
    public let focused: String?
    /// The open immersive space's id; nil prints `none`.
    public let immersive: String?
    /// The pending link's URL; nil prints `none`.
    public let pendingLink: String?
    /// Declared scenes, in the order they are printed.
    public let scenes: [Scene]
    /// Instances, each printed under its scene in the order given.
    public let instances: [Instance]

    /// Creates a tree from its members.
    public init(
        app: String, phase: String, focused: String?, immersive: String?, pendingLink: String?, scenes: [Scene],
        instances: [Instance]
    ) {
        self.app = app
        self.phase = phase
        self.focused = focused
        self.immersive = immersive
        self.pendingLink = pendingLink
        self.scenes = scenes
        self.instances = instances
    }

    /// The tree, one line per app, scene and instance.
    public var text: String {
        var lines = [
            "\(app)  phase \(phase)  focused \(focused ?? "none")  immersive \(immersive ?? "none")  pending link \(pendingLink ?? "none")"
        ]
        let byScene = Dictionary(grouping: instances, by: \.scene)
        for scene in scenes {
            lines.append("\(scene.id)  \(scene.kind), \(scene.policy)")
            for info in byScene[scene.id] ?? [] {
                var line = "  \(info.id)"
                if let value = info.value, !value.isNull { line += " = \(value)" }
                line += "  \(info.phase)"
                if info.focused { line += "  focused" }
                if let parent = info.pushedFrom { line += "  pushed from \(parent)" }
                lines.append(line + "  path: " + (info.path.isEmpty ? "(root)" : info.path.joined(separator: " > ")))
            }
        }
        return lines.joined(separator: "\n")
    }

    /// `window`, `volume 0.6x0.6x0.6 m`, `immersive full`.
    public static func describe(_ kind: SceneKind) -> String {
        switch kind {
        case .window: return describeKind(kind.name, size: nil, style: nil)
        case .volume(let size): return describeKind(kind.name, size: [size.width, size.height, size.depth], style: nil)
        case .immersive(let style): return describeKind(kind.name, size: nil, style: style.rawValue)
        }
    }

    /// A kind as the wire names it (`volume` with its size, `immersive` with its style),
    /// described as `describe(_:)` describes a `SceneKind`.
    public static func describeKind(_ name: String, size: [Double]?, style: String?) -> String {
        switch name {
        case "volume": return "volume \((size ?? []).map { "\($0)" }.joined(separator: "x")) m"
        case "immersive": return "immersive \(style ?? ImmersionStyle.mixed.rawValue)"
        default: return name
        }
    }

    /// `single`, `perValue`, `multiple`, `multiple, max 3`.
    public static func describe(_ policy: InstancePolicy) -> String {
        if case .multiple(let max) = policy { return describePolicy(policy.name, max: max) }
        return describePolicy(policy.name, max: nil)
    }

    /// A policy as the wire names it, with its maximum, described as `describe(_:)` describes an `InstancePolicy`.
    public static func describePolicy(_ name: String, max: Int?) -> String {
        max.map { "\(name), max \($0)" } ?? name
    }
}
