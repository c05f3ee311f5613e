/// What a navigation step shows: any value that is hashable, codable and sendable.
///
/// Swift programs use their own enums or structs; routes that arrive over the wire use
/// `JSONValue`.
public typealias Route = Hashable & Codable & Sendable

/// One step of a navigation path: a push onto the stack, or a modal (sheet or cover).
///
/// - A valid path holds at most one modal, and only as its last step (see ``FlowPlan``).
/// - Encodes as `{"type": "push" | "sheet" | "cover", "route": R}`.
public enum RouteStep<R: Route>: Hashable, Sendable {
    /// A screen pushed onto the stack.
    case push(R)
    /// A sheet presented over the stack.
    case sheet(R)
    /// A full-screen cover presented over the stack.
    case cover(R)

    /// The route this step shows.
    @inlinable
    public var route: R {
        switch self {
        case .push(let route), .sheet(let route), .cover(let route): return route
        }
    }

    /// Whether the step is a sheet or a cover.
    @inlinable
    public var isModal: Bool {
        if case .push = self { return false }
        return true
    }

    /// The step's kind as it is spelled on the wire: `push`, `sheet` or `cover`.
    public var kind: RouteStepKind {
        switch self {
        case .push: return .push
        case .sheet: return .sheet
        case .cover: return .cover
        }
    }

    /// Builds the step of `kind` that shows `route`.
    public init(_ kind: RouteStepKind, _ route: R) {
        switch kind {
        case .push: self = .push(route)
        case .sheet: self = .sheet(route)
        case .cover: self = .cover(route)
        }
    }
}

/// The kind of a ``RouteStep``, spelled as on the wire.
public enum RouteStepKind: String, Hashable, Codable, Sendable, CaseIterable {
    /// `push` stacks a screen; `sheet` and `cover` show a modal over the stack, at most one
    /// at a time and only at the path's tail.
    case push, sheet, cover
}

extension RouteStep: Codable {
    private enum CodingKeys: String, CodingKey { case type, route }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(RouteStepKind.self, forKey: .type)
        self.init(kind, try container.decode(R.self, forKey: .route))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .type)
        try container.encode(route, forKey: .route)
    }
}

extension RouteStep: CustomStringConvertible {
    /// `push(a)`, `sheet(b)`, `cover(c)`.
    public var description: String { "\(kind.rawValue)(\(route))" }
}
