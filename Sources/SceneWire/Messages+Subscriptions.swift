// `subscribe`: what a subscription takes, where it resumes, and what it answers.

/// `subscribe` {topics?, instances?, scenes?, signals?, since?}.
public struct SubscribeParams: Codable, Hashable, Sendable {
    /// The topics to receive, of `scene`, `flow`, `link`, `request` and `signal`: nil for
    /// all, `[]` for none; an unknown topic is -32602.
    public var topics: [String]?
    /// Only events about these instances, when given.
    public var instances: [String]?
    /// Only events about instances of these scenes, when given.
    public var scenes: [String]?
    /// Only `signal.emitted` events of these signals, when given.
    public var signals: [String]?
    /// The number of the last event the client saw: every later one it may take is sent
    /// first, in order, then the live ones.
    public var since: UInt64?
    /// With `since`: the `origin` of the answer the client's events came with. A
    /// coordinator whose events are numbered in another line answers `history_gone`
    /// rather than replay events that only share their numbers.
    public var origin: String?

    /// Params for `subscribe`, to every topic unless `topics` names some; an event passes
    /// when its topic is wanted and it matches every filter given.
    public init(
        topics: [String]? = nil, instances: [String]? = nil, scenes: [String]? = nil, signals: [String]? = nil,
        since: UInt64? = nil, origin: String? = nil
    ) {
        self.topics = topics
        self.instances = instances
        self.scenes = scenes
        self.signals = signals
        self.since = since
        self.origin = origin
    }
}

/// The `subscribe` result: {seq, origin}, the number of the last event before the
/// subscription and the line of numbers it belongs to.
public struct SubscribeResult: Codable, Hashable, Sendable {
    /// The number of the last event before the subscription; every event sent for it has
    /// a greater one.
    public var seq: UInt64
    /// The id of the line of event numbers: the same across a durable coordinator's
    /// restarts, new with every run of one that is not. A client that resumes gives it back
    /// with `since`. Nil from a coordinator that does not say.
    public var origin: String?
    /// The `subscribe` result.
    public init(seq: UInt64, origin: String? = nil) {
        self.seq = seq
        self.origin = origin
    }
}
