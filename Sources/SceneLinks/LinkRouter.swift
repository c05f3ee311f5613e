public import SceneFlow

/// The deep-link engine: origin policy and limits, one matcher over every mapping, and an
/// authentication gate with one pending slot.
///
/// Order of checks for each URL: input limits (before any parsing) → parsing → origin
/// policy → matcher → the mapping's output → the authentication gate.
///
/// `LinkRouter` is a value-type state machine: `evaluate(_:)` is pure, ``open(_:)`` and
/// the authentication methods change the gate and answer what happened.
public struct LinkRouter<Output: Sendable>: Sendable {
    /// The mappings, in declaration order.
    public let mappings: [LinkMapping<Output>]
    /// Which origins are allowed.
    public let policy: LinkOriginPolicy
    /// The input limits.
    public let limits: LinkLimits
    /// The compiled patterns.
    public let matcher: LinkMatcher

    /// Whether links that require authentication are handled now.
    public private(set) var isAuthenticated = false
    /// The link waiting for authentication, if any.
    public private(set) var pending: PendingLink?
    /// Counts the links that matched a mapping (handled or pending); a resume is stale
    /// once a link newer than the pending one matched. Refused and unhandled links do not
    /// count, so garbage input cannot cancel a pending link.
    public private(set) var revision: UInt64 = 0

    /// Builds the engine.
    ///
    /// - With `strict` (the default), any diagnostic — an invalid, duplicate or shadowed
    ///   pattern, or a same-shape pattern with other names — throws ``LinkBuildError``
    ///   listing all of them. Lenient, the build keeps them in ``diagnostics`` and leaves
    ///   invalid patterns out.
    public init(
        mappings: [LinkMapping<Output>], policy: LinkOriginPolicy, limits: LinkLimits = .standard,
        strict: Bool = true
    ) throws(LinkBuildError) {
        let matcher = LinkMatcher(patterns: mappings.map(\.pattern))
        if strict, !matcher.diagnostics.isEmpty {
            throw LinkBuildError(diagnostics: matcher.diagnostics)
        }
        self.mappings = mappings
        self.policy = policy
        self.limits = limits
        self.matcher = matcher
    }

    /// What the build found (empty for a strict build).
    public var diagnostics: [LinkDiagnostic] { matcher.diagnostics }

    /// Parses and checks `url` against the limits and the origin policy.
    public func parse(_ url: String) -> Result<LinkURL, LinkRejection> {
        let parsed: LinkURL
        do {
            parsed = try LinkURL(parsing: url, limits: limits)
        } catch {
            return .failure(error)
        }
        if let refused = policy.check(parsed) { return .failure(refused) }
        return .success(parsed)
    }

    /// What `url` would do, regardless of authentication.
    @inlinable
    public func evaluate(_ url: String) -> LinkEvaluation<Output> {
        // Parsed only: the origin policy is checked once, by the evaluation of the parsed URL.
        let parsed: LinkURL
        do {
            parsed = try LinkURL(parsing: url, limits: limits)
        } catch {
            return .rejected(error)
        }
        return evaluate(parsed)
    }

    /// What an already parsed URL would do, regardless of authentication. The origin
    /// policy still applies.
    @inlinable
    public func evaluate(_ url: LinkURL) -> LinkEvaluation<Output> {
        switch policy.admission(url) {
        case .refused(let refused):
            return .rejected(refused)
        case .path:
            return route(url, as: url)
        case .hostAndPath:
            let routed = url.withHostAsRoute
            // The host became a segment: the segment limit holds for the route too.
            guard routed.segments.count <= limits.maxPathSegments else {
                return .rejected(.inputLimitExceeded(.pathSegments, limit: limits.maxPathSegments, actual: routed.segments.count))
            }
            return route(url, as: routed)
        }
    }

    /// `url`, which its origin allowed, matched by `routed`'s path (its own, or its host
    /// and path); a match keeps the URL as it came.
    @inlinable
    func route(_ url: LinkURL, as routed: LinkURL) -> LinkEvaluation<Output> {
        guard let found = matcher.match(routed.segments) else { return .unhandled(routed) }
        let parameters = LinkParameters(path: found.items, query: routed.queryItems, wildcard: found.wildcard)
        switch mappings[found.index].output(for: parameters) {
        case .failure(let rejection):
            return .rejected(rejection)
        case .success(let output):
            return .matched(
                LinkMatch(
                    url: url, mapping: found.index, pattern: mappings[found.index].pattern,
                    parameters: parameters, output: output,
                    requiresAuth: mappings[found.index].requiresAuth))
        }
    }

    /// Opens `url`: handled, pending until authentication, rejected or unhandled.
    ///
    /// - A link that requires authentication while not authenticated takes the pending
    ///   slot; the link it replaces is reported as superseded.
    public mutating func open(_ url: String) -> LinkDecision<Output> {
        switch evaluate(url) {
        case .rejected(let rejection):
            return .rejected(rejection)
        case .unhandled(let parsed):
            return .unhandled(parsed)
        case .matched(let match):
            revision &+= 1
            if match.requiresAuth, !isAuthenticated {
                let waiting = PendingLink(url: url, pattern: match.pattern, revision: revision)
                let superseded = pending
                pending = waiting
                return .pending(waiting, superseded: superseded)
            }
            return .handled(match)
        }
    }

    /// Turns authentication on or off.
    ///
    /// - Turning it on with a link pending returns a token for ``resume(_:)``; the link
    ///   stays pending until then.
    public mutating func setAuthenticated(_ authenticated: Bool) -> LinkResumeToken? {
        isAuthenticated = authenticated
        guard authenticated, let pending else { return nil }
        return LinkResumeToken(pending: pending, revision: revision)
    }

    /// Replays the pending link the token names, re-checking it from scratch.
    ///
    /// - Stale when a link newer than the pending one has matched, before or after the
    ///   token was issued: the pending link is never replayed then. If it is still the one
    ///   the token named, it is dropped and reported as superseded; a newer pending link
    ///   stays.
    public mutating func resume(_ token: LinkResumeToken) -> LinkResume<Output> {
        guard let current = pending else { return .nothingPending }
        guard current == token.pending, current.revision == revision else {
            if current == token.pending {
                pending = nil
                return .stale(superseded: current)
            }
            return .stale(superseded: nil)
        }
        pending = nil
        return .replayed(open(current.url))
    }

    /// Forgets the pending link and signs out, as a freshly built router.
    public mutating func reset() {
        pending = nil
        isAuthenticated = false
    }

    /// Turns authentication on and replays the pending link at once, if there is one.
    public mutating func authenticate() -> LinkDecision<Output>? {
        guard let token = setAuthenticated(true) else { return nil }
        if case .replayed(let decision) = resume(token) { return decision }
        return nil
    }
}

/// A link waiting for authentication.
public struct PendingLink: Hashable, Sendable {
    /// The URL as it was opened.
    public let url: String
    /// The pattern it matched.
    public let pattern: String
    /// The router's revision when it was opened.
    public let revision: UInt64

    /// Creates a pending link from its members.
    public init(url: String, pattern: String, revision: UInt64) {
        self.url = url
        self.pattern = pattern
        self.revision = revision
    }
}

/// Permission to replay a pending link, valid until another link is opened.
public struct LinkResumeToken: Hashable, Sendable {
    /// The pending link to replay.
    public let pending: PendingLink
    /// The router's revision when the token was issued.
    public let revision: UInt64
}

/// What a URL matched, and what its mapping produced.
public struct LinkMatch<Output: Sendable>: Sendable {
    /// The parsed, normalised URL.
    public let url: LinkURL
    /// The index of the winning mapping.
    public let mapping: Int
    /// Its pattern, as written.
    public let pattern: String
    /// Path parameters, then query items.
    public let parameters: LinkParameters
    /// What the mapping produced.
    public let output: Output
    /// Whether the mapping requires authentication.
    public let requiresAuth: Bool

    @usableFromInline
    init(
        url: LinkURL, mapping: Int, pattern: String, parameters: LinkParameters, output: Output,
        requiresAuth: Bool
    ) {
        self.url = url
        self.mapping = mapping
        self.pattern = pattern
        self.parameters = parameters
        self.output = output
        self.requiresAuth = requiresAuth
    }
}

/// What a URL would do, before the authentication gate.
public enum LinkEvaluation<Output: Sendable>: Sendable {
    /// A pattern matched and its mapping produced an output.
    case matched(LinkMatch<Output>)
    /// The URL was refused: malformed, over an input limit, from an origin not allowed, or
    /// refused by its mapping.
    case rejected(LinkRejection)
    /// The URL is valid but no pattern matched it.
    case unhandled(LinkURL)
}

/// What opening a link did.
public enum LinkDecision<Output: Sendable>: Sendable {
    /// The link matched; apply `match.output`.
    case handled(LinkMatch<Output>)
    /// The link waits for authentication; `superseded` is the pending link it replaced.
    case pending(PendingLink, superseded: PendingLink?)
    /// The link was refused.
    case rejected(LinkRejection)
    /// No pattern matched the URL.
    case unhandled(LinkURL)

    /// `handled`, `pending`, `rejected` or `unhandled`.
    public var name: OutcomeName {
        switch self {
        case .handled: return .handled
        case .pending: return .pending
        case .rejected: return .rejected
        case .unhandled: return .unhandled
        }
    }
}

/// What resuming a pending link did.
public enum LinkResume<Output: Sendable>: Sendable {
    /// The link was re-checked and this is the decision to apply.
    case replayed(LinkDecision<Output>)
    /// A newer link was opened after the token was issued; nothing was replayed.
    case stale(superseded: PendingLink?)
    /// No link was pending.
    case nothingPending
}

extension LinkMatch: Equatable where Output: Equatable {
    public static func == (lhs: LinkMatch, rhs: LinkMatch) -> Bool {
        lhs.url == rhs.url && lhs.mapping == rhs.mapping && lhs.parameters == rhs.parameters
            && lhs.output == rhs.output && lhs.requiresAuth == rhs.requiresAuth
    }
}

extension LinkDecision: Equatable where Output: Equatable {}
extension LinkEvaluation: Equatable where Output: Equatable {}
extension LinkResume: Equatable where Output: Equatable {}
