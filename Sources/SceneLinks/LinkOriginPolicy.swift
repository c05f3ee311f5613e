/// One origin links may come from: a scheme, the hosts it allows, and whether the host is
/// the first segment of the route.
///
/// - `https://app.example/profile/7`: a web origin lists its hosts; the route is the path.
/// - `myapp://profile/7`: a custom scheme without hosts allows any host (or none) and, by
///   default, reads the host as the route's first segment, so this link, `myapp:///profile/7`
///   and `myapp:profile/7` all route as `/profile/7`.
public struct LinkOrigin: Hashable, Sendable {
    /// The scheme, lowercased.
    public let scheme: String
    /// The allowed hosts, lowercased; nil allows any host, or none.
    public let hosts: Set<String>?
    /// Whether a link's host is the first segment of its route.
    public let hostIsRoute: Bool
    // Host lists are short: comparing a few strings is cheaper than hashing one.
    private let hostList: [String]?

    /// Whether `scheme` is a web scheme (`http`, `https`), whose links always name a
    /// listed host.
    public static func isWeb(_ scheme: String) -> Bool {
        let lowered = scheme.lowercased()
        return lowered == "http" || lowered == "https"
    }

    /// An origin; `hostIsRoute` defaults to true for a custom scheme without hosts, false
    /// otherwise.
    public init(scheme: String, hosts: [String]? = nil, hostIsRoute: Bool? = nil) {
        self.scheme = scheme.lowercased()
        self.hosts = hosts.map { Set($0.map { $0.lowercased() }) }
        self.hostIsRoute = hostIsRoute ?? (hosts == nil && !Self.isWeb(scheme))
        self.hostList = self.hosts.flatMap { $0.count <= 8 ? $0.sorted() : nil }
    }

    /// Whether this origin allows `host` (lowercased; empty when the link has none).
    func allows(host: String) -> Bool {
        guard let hosts else { return true }
        if let hostList { return hostList.contains(host) }
        return hosts.contains(host)
    }
}

/// Which origins links may come from: a list of ``LinkOrigin`` rules.
///
/// - Fail closed: no rule allows nothing.
/// - A link is allowed when a rule of its scheme allows its host: `scheme_not_allowed`
///   when no rule names the scheme, `host_not_allowed` when none of those allows the host.
/// - Schemes and hosts compare case-insensitively (they are stored lowercased).
public struct LinkOriginPolicy: Hashable, Sendable {
    /// The rules, in order.
    public let origins: [LinkOrigin]

    /// The schemes some rule allows.
    public var schemes: Set<String> { Set(origins.map(\.scheme)) }
    /// Every host some rule lists.
    public var hosts: Set<String> { Set(origins.flatMap { $0.hosts ?? [] }) }

    /// A policy of `origins`.
    public init(origins: [LinkOrigin]) {
        self.origins = origins
    }

    /// The older form: every scheme of `schemes` with every host of `hosts` (no host as
    /// route).
    public init(schemes: some Sequence<String>, hosts: some Sequence<String>) {
        let hosts = Array(hosts)
        self.init(origins: Set(schemes.map { $0.lowercased() }).sorted().map { LinkOrigin(scheme: $0, hosts: hosts, hostIsRoute: false) })
    }

    /// The policy that allows nothing.
    public static var closed: LinkOriginPolicy { LinkOriginPolicy(origins: []) }

    /// Why `url`'s origin is refused, or `nil` when it is allowed.
    public func check(_ url: LinkURL) -> LinkRejection? {
        if case .refused(let rejection) = admission(url) { return rejection }
        return nil
    }

    /// `url` as its origin rule routes it — with its host as the first path segment when
    /// the rule says so — or why it is refused.
    public func admit(_ url: LinkURL) -> Result<LinkURL, LinkRejection> {
        switch admission(url) {
        case .path: return .success(url)
        case .hostAndPath: return .success(url.withHostAsRoute)
        case .refused(let rejection): return .failure(rejection)
        }
    }

    /// How `url`'s origin rule routes it, without making a new URL: by its path, by its
    /// host and path, or not at all.
    public func admission(_ url: LinkURL) -> LinkAdmission {
        var schemeKnown = false
        for origin in origins where origin.scheme == url.scheme {
            schemeKnown = true
            // A web link always names a host, whatever a rule built in code says.
            guard origin.allows(host: url.host), !(url.host.isEmpty && LinkOrigin.isWeb(url.scheme)) else { continue }
            guard origin.hostIsRoute, !url.host.isEmpty else { return .path }
            // As a route segment the host is a segment like any other: dot segments were
            // removed from the path, and are not let back in through the host.
            if url.host == "." || url.host == ".." { return .refused(.malformedURL("a host that is a route segment cannot be \"\(url.host)\"")) }
            return .hostAndPath
        }
        return .refused(schemeKnown ? .hostNotAllowed(url.host) : .schemeNotAllowed(url.scheme))
    }
}

/// How an origin rule routes a link (see ``LinkOriginPolicy/admission(_:)``).
public enum LinkAdmission: Hashable, Sendable {
    /// Allowed; its route is its path.
    case path
    /// Allowed; its route is its host, then its path.
    case hostAndPath
    /// Refused, for this reason.
    case refused(LinkRejection)
}

extension LinkURL {
    /// The same link with its host as the first segment of its path.
    public var withHostAsRoute: LinkURL {
        LinkURL(scheme: scheme, host: host, segments: [host] + segments, queryItems: queryItems)
    }
}
