public import SceneJSON

/// A window's size in points.
public struct WindowSize: Hashable, Sendable, Codable {
    /// The width, in points.
    public var width: Double
    /// The height, in points.
    public var height: Double

    /// A size from its two dimensions, in points.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// How a window or volume may be resized, as visionOS's `windowResizability`.
public enum Resizability: String, Hashable, Sendable, CaseIterable, Codable {
    /// The system decides (`automatic`).
    case automatic
    /// The content's size is the only size (`contentSize`).
    case contentSize
    /// The content's size is the smallest (`contentMinSize`).
    case contentMinSize
}

/// Where a window or volume first appears, as visionOS's `defaultWindowPlacement`.
public enum WindowPlacement: Hashable, Sendable {
    /// Beside another scene's window.
    public enum Position: String, Hashable, Sendable, CaseIterable, Codable {
        /// `leading`, `trailing`, `above` or `below` the other window.
        case leading, trailing, above, below
    }

    /// As a utility panel (`"utilityPanel"`).
    case utilityPanel
    /// Beside the window of scene `relativeTo` (`{"relativeTo", "position"}`).
    case relative(to: String, position: Position)

    /// The placement as the manifest and instance objects write it.
    public var json: JSONValue {
        switch self {
        case .utilityPanel: return "utilityPanel"
        case .relative(let scene, let position): return ["relativeTo": .string(scene), "position": .string(position.rawValue)]
        }
    }

    /// The placement `json` writes; nil for anything else.
    public init?(json: JSONValue) {
        switch json {
        case .string("utilityPanel"):
            self = .utilityPanel
        case .object(let members):
            guard members.count == 2, let scene = members["relativeTo"]?.stringValue, !scene.isEmpty,
                let position = members["position"]?.stringValue.flatMap(Position.init(rawValue:))
            else { return nil }
            self = .relative(to: scene, position: position)
        default:
            return nil
        }
    }
}

/// What a shell needs to draw a scene's instances: a window's default size, how windows
/// and volumes resize and where they appear, and the styles an immersive space may take.
public struct SceneGeometry: Hashable, Sendable {
    /// A window's size when it first opens.
    public var defaultSize: WindowSize?
    /// How a window or volume may be resized.
    public var resizability: Resizability?
    /// Where a window or volume first appears.
    public var placement: WindowPlacement?
    /// The styles an immersive space may take while it is open (`immersive.style`); nil:
    /// only its declared style.
    public var styles: [ImmersionStyle]?

    /// Geometry from its members; none by default.
    public init(
        defaultSize: WindowSize? = nil, resizability: Resizability? = nil, placement: WindowPlacement? = nil,
        styles: [ImmersionStyle]? = nil
    ) {
        self.defaultSize = defaultSize
        self.resizability = resizability
        self.placement = placement
        self.styles = styles
    }
}
