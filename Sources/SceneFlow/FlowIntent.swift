/// A request to change a flow's path. ``FlowStore`` decides what it does.
///
/// On the wire each intent is an object with a `type` (the case name) and its
/// arguments: `{"type": "push", "route": R}`, `{"type": "pop", "count": 2}`, …
public enum FlowIntent<R: Route>: Hashable, Sendable {
    /// Push one route. Rejected while a modal is at the tail.
    case push(R)
    /// Push several routes as one change. Rejected while a modal is at the tail.
    case pushMany([R])
    /// Present a sheet; queued behind a modal that is already showing.
    case sheet(R)
    /// Present a full-screen cover; queued behind a modal that is already showing.
    case cover(R)
    /// Pop the top push; `unchanged` on an empty stack.
    case pop
    /// Pop `n` pushes; rejected when the stack is less than `n` deep.
    case popCount(Int)
    /// Pop until the topmost push equal to the route is on top.
    case popTo(R)
    /// Pop every push.
    case popToRoot
    /// Dismiss the modal at the tail, promoting the next queued modal.
    case dismiss
    /// Dismiss the modal at the tail and drop every queued modal.
    case dismissAll
    /// Replace the whole path (and drop queued modals); allowed while a modal shows.
    case reset([RouteStep<R>])
    /// Replace the pushes with these routes.
    case replaceStack([R])
    /// Pop back to an equal route when one is in the stack, else push it.
    case backOrPush(R)
    /// Push only when no equal route is in the stack.
    case pushUnique(R)

    /// The wire name of the intent, the value of its `type` member.
    public var name: String {
        switch self {
        case .push: return "push"
        case .pushMany: return "pushMany"
        case .sheet: return "sheet"
        case .cover: return "cover"
        case .pop, .popCount: return "pop"
        case .popTo: return "popTo"
        case .popToRoot: return "popToRoot"
        case .dismiss: return "dismiss"
        case .dismissAll: return "dismissAll"
        case .reset: return "reset"
        case .replaceStack: return "replaceStack"
        case .backOrPush: return "backOrPush"
        case .pushUnique: return "pushUnique"
        }
    }
}

extension FlowIntent: Codable {
    private enum CodingKeys: String, CodingKey { case type, route, routes, count, steps }

    /// Decodes an intent object.
    ///
    /// - `{"type": "pop"}` is ``pop``; `{"type": "pop", "count": n}` is ``popCount(_:)``.
    /// - An unknown `type` or a missing argument is a `DecodingError` naming it.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let type = try container.decode(String.self, forKey: .type)
        switch type {
        case "push": self = .push(try container.decode(R.self, forKey: .route))
        case "pushMany": self = .pushMany(try container.decode([R].self, forKey: .routes))
        case "sheet": self = .sheet(try container.decode(R.self, forKey: .route))
        case "cover": self = .cover(try container.decode(R.self, forKey: .route))
        case "pop":
            if let count = try container.decodeIfPresent(Int.self, forKey: .count) {
                self = .popCount(count)
            } else {
                self = .pop
            }
        case "popTo": self = .popTo(try container.decode(R.self, forKey: .route))
        case "popToRoot": self = .popToRoot
        case "dismiss": self = .dismiss
        case "dismissAll": self = .dismissAll
        case "reset": self = .reset(try container.decode([RouteStep<R>].self, forKey: .steps))
        case "replaceStack":
            self = .replaceStack(try container.decode([R].self, forKey: .routes))
        case "backOrPush": self = .backOrPush(try container.decode(R.self, forKey: .route))
        case "pushUnique": self = .pushUnique(try container.decode(R.self, forKey: .route))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .type, in: container, debugDescription: "unknown intent type \"\(type)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .type)
        switch self {
        case .push(let route), .sheet(let route), .cover(let route), .popTo(let route),
            .backOrPush(let route), .pushUnique(let route):
            try container.encode(route, forKey: .route)
        case .pushMany(let routes), .replaceStack(let routes):
            try container.encode(routes, forKey: .routes)
        case .popCount(let count):
            try container.encode(count, forKey: .count)
        case .reset(let steps):
            try container.encode(steps, forKey: .steps)
        case .pop, .popToRoot, .dismiss, .dismissAll:
            break
        }
    }
}
