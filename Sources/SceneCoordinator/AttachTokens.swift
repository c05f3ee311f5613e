import Glibc
public import SceneJSON
import SceneWire

/// An attach token as the coordinator keeps it, in memory and in the state file: the
/// SHA-256 of its secret, never the secret itself.
public struct AttachToken: Codable, Hashable, Sendable {
    /// Its id (`tok-` and 8 hex digits), which `token.revoke` takes.
    public var id: String
    /// The scene a process attaching with it backs an instance of.
    public var scene: String
    /// The value of that instance, for a per-value scene.
    public var value: JSONValue?
    /// The SHA-256 of the secret, as 64 hex digits.
    public var hash: String
    /// When it expires, in seconds since 1970 (UTC); nil: never.
    public var expires: Double?
    /// How many more hellos it is good for; nil: any number.
    public var uses: Int?
    /// For a re-attach token, the instance it takes back.
    public var instance: String?

    /// How `token.list` shows it.
    var info: TokenInfo { TokenInfo(id: id, scene: scene, value: value, expires: expires, uses: uses, instance: instance) }
}

/// The attach tokens a coordinator gave out: issued, spent, expired and revoked on its
/// loop thread. A token is 128 random bits shown once, at issue; what is kept is its
/// hash, and a candidate is compared with every token's hash in constant time.
final class AttachTokens {
    private var tokens: [String: AttachToken]
    /// Called whenever the set changes (for the state file).
    var onChange: (() -> Void)?

    /// The tokens a state file kept (none for a fresh coordinator).
    init(_ kept: [AttachToken] = []) {
        tokens = Dictionary(kept.map { ($0.id, $0) }) { first, _ in first }
    }

    /// Seconds since 1970, from the system's real-time clock: expiries outlive a restart.
    static var wallClock: Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The tokens still good, by id (expired ones are dropped now).
    var all: [AttachToken] {
        dropExpired()
        return tokens.values.sorted { $0.id < $1.id }
    }

    /// Issues a token for `scene` (and `value`), good for `ttl` seconds and `uses` hellos
    /// (each nil: no limit); `instance` makes it a re-attach token. Answers the secret,
    /// which is kept nowhere, and the token.
    func issue(scene: String, value: JSONValue?, ttl: Double?, uses: Int?, instance: String? = nil) -> (secret: String, token: AttachToken) {
        let secret = SceneToken.make().text
        var id: String
        repeat {
            id = "tok-" + String(SceneToken.make().text.prefix(8))
        } while tokens[id] != nil
        let token = AttachToken(
            id: id, scene: scene, value: value, hash: SHA256.hex(of: secret), expires: ttl.map { Self.wallClock + $0 }, uses: uses,
            instance: instance)
        tokens[id] = token
        onChange?()
        return (secret, token)
    }

    /// The token whose secret `candidate` is, when it is still good; one of its uses is
    /// spent (its last removes it). Every token's hash is compared, each in constant time.
    func claim(_ candidate: String) -> AttachToken? {
        dropExpired()
        let hash = SHA256.hex(of: candidate)
        var found: AttachToken?
        for token in tokens.values where constantTimeEquals(token.hash, hash) { found = token }
        guard var token = found else { return nil }
        if let uses = token.uses {
            token.uses = uses - 1
            tokens[token.id] = uses > 1 ? token : nil
        }
        onChange?()
        return token
    }

    /// Revokes token `id`; false when there is none (or it expired).
    func revoke(_ id: String) -> Bool {
        dropExpired()
        guard tokens.removeValue(forKey: id) != nil else { return false }
        onChange?()
        return true
    }

    /// Revokes the re-attach tokens of `instance` (it was dismissed, or taken back).
    func revokeReattach(of instance: String) {
        let before = tokens.count
        tokens = tokens.filter { $0.value.instance != instance }
        if tokens.count != before { onChange?() }
    }

    private func dropExpired() {
        let now = Self.wallClock
        let before = tokens.count
        tokens = tokens.filter { ($0.value.expires ?? .infinity) > now }
        if tokens.count != before { onChange?() }
    }
}

/// Whether `a` and `b` are equal, in time that depends only on their lengths.
func constantTimeEquals(_ a: String, _ b: String) -> Bool {
    let left = Array(a.utf8)
    let right = Array(b.utf8)
    guard left.count == right.count else { return false }
    var difference: UInt8 = 0
    for index in 0..<left.count { difference |= left[index] ^ right[index] }
    return difference == 0
}
