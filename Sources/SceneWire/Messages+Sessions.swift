// `session.*`: named sessions of open instances.

import SceneCore
import SceneJSON

/// `session.save`, `session.delete` {name}.
public struct SessionParams: Codable, Hashable, Sendable {
    /// The session's name: 1 to 64 of `A-Z a-z 0-9 _ . -`.
    public var name: String
    /// Params naming a session.
    public init(name: String) { self.name = name }

    /// Whether `name` can name a session.
    public static func isValidName(_ name: String) -> Bool {
        // The characters of a scene id, at most 64 of them.
        name.utf8.count <= 64 && SceneDeclaration<JSONValue>.isValidID(name)
    }
}

/// `session.load` {name, force?}.
public struct SessionLoadParams: Codable, Hashable, Sendable {
    /// The session's name.
    public var name: String
    /// Close what is open without asking (no veto).
    public var force: Bool?
    /// Params for `session.load`.
    public init(name: String, force: Bool? = nil) {
        self.name = name
        self.force = force
    }
}

/// The `session.load` result: {instances}, the ids opened, in the saved order.
public struct SessionLoadResult: Codable, Hashable, Sendable {
    /// The instances the session opened.
    public var instances: [String]
    /// The result from its member.
    public init(instances: [String]) { self.instances = instances }
}

/// The `session.list` result: {sessions}, the saved names, sorted.
public struct SessionListResult: Codable, Hashable, Sendable {
    /// The saved sessions' names.
    public var sessions: [String]
    /// The result from its member.
    public init(sessions: [String]) { self.sessions = sessions }
}
