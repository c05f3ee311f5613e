public import SceneFlow

/// What opening a scene did.
public enum OpenOutcome<R: Route>: Hashable, Sendable {
    /// A new instance.
    case opened(InstanceInfo<R>)
    /// An instance that was already open (or opening), now focused.
    case focused(InstanceInfo<R>)

    /// The instance either way.
    public var instance: InstanceInfo<R> {
        switch self {
        case .opened(let info), .focused(let info): return info
        }
    }

    /// `opened` or `focused`.
    public var name: OutcomeName {
        switch self {
        case .opened: return .opened
        case .focused: return .focused
        }
    }
}
