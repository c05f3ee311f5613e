// `token.*`: attach tokens, with which a process the coordinator did not start says
// `hello` as a scene.

public import SceneJSON

/// `token.issue` {scene, value?, ttl?, uses?}.
public struct TokenIssueParams: Codable, Hashable, Sendable {
    /// The scene a process attaching with the token backs an instance of.
    public var scene: String
    /// For a per-value scene, the value of the instance (required there, refused elsewhere).
    public var value: JSONValue?
    /// Seconds the token is good for (more than 0); none: until revoked.
    public var ttl: Double?
    /// How many hellos it is good for (at least 1); none: any number.
    public var uses: Int?

    /// Params for `token.issue`.
    public init(scene: String, value: JSONValue? = nil, ttl: Double? = nil, uses: Int? = nil) {
        self.scene = scene
        self.value = value
        self.ttl = ttl
        self.uses = uses
    }
}

/// An attach token as `token.list` shows it: never its secret.
public struct TokenInfo: Codable, Hashable, Sendable {
    /// The token's id, which `token.revoke` takes.
    public var id: String
    /// The scene it attaches to.
    public var scene: String
    /// The value of the instance it attaches to, for a per-value scene.
    public var value: JSONValue?
    /// When it expires, in seconds since 1970 (UTC); none: never.
    public var expires: Double?
    /// How many hellos it is still good for; none: any number.
    public var uses: Int?
    /// For a re-attach token (handed out in an attached process's `hello` answer), the
    /// instance it takes back.
    public var instance: String?

    /// A token's description from its members.
    public init(id: String, scene: String, value: JSONValue? = nil, expires: Double? = nil, uses: Int? = nil, instance: String? = nil) {
        self.id = id
        self.scene = scene
        self.value = value
        self.expires = expires
        self.uses = uses
        self.instance = instance
    }
}

/// The `token.issue` result: the token's description and {token}, its secret, which is
/// shown this once.
public struct TokenIssueResult: Codable, Hashable, Sendable {
    /// The secret a process says `hello` with: 32 hex digits.
    public var token: String
    /// The token's id.
    public var id: String
    /// Its scene.
    public var scene: String
    /// Its value, for a per-value scene.
    public var value: JSONValue?
    /// When it expires (seconds since 1970, UTC).
    public var expires: Double?
    /// How many hellos it is good for.
    public var uses: Int?

    /// The result from the token's description and its secret.
    public init(token: String, info: TokenInfo) {
        self.token = token
        id = info.id
        scene = info.scene
        value = info.value
        expires = info.expires
        uses = info.uses
    }

    /// The token's description.
    public var info: TokenInfo { TokenInfo(id: id, scene: scene, value: value, expires: expires, uses: uses) }
}

/// The `token.list` result: {tokens}, by id.
public struct TokenListResult: Codable, Hashable, Sendable {
    /// The tokens still good, by id.
    public var tokens: [TokenInfo]
    /// The result from its member.
    public init(tokens: [TokenInfo]) { self.tokens = tokens }
}

/// `token.revoke` {id}.
public struct TokenRevokeParams: Codable, Hashable, Sendable {
    /// The id of the token to revoke.
    public var id: String
    /// Params naming a token.
    public init(id: String) { self.id = id }
}
