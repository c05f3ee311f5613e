public import SceneCore
public import SceneFlow
public import SceneJSON

// The params and results of the flow methods: flow.send, flow.apply, flow.batch,
// flow.transaction, flow.reconcile (Protocols/ has their shapes).

/// `flow.send` {instance, intent}.
public struct FlowSendParams: Codable, Hashable, Sendable {
    /// The instance whose flow takes the intent.
    public var instance: String
    /// The intent to apply; an unknown `type` or a missing argument is -32602.
    public var intent: FlowIntent<JSONValue>
    /// Params for `flow.send`, with every member given.
    public init(instance: String, intent: FlowIntent<JSONValue>) {
        self.instance = instance
        self.intent = intent
    }
}

/// The `flow.send` result: {outcome: "changed" | "queued" | "unchanged", path}.
public struct FlowSendResult: Codable, Hashable, Sendable {
    /// `changed`, `queued` or `unchanged`; a rejected intent is an error, never a result.
    public var outcome: OutcomeName
    /// The instance's path after the intent.
    public var path: [RouteStep<JSONValue>]
    /// The `flow.send` result, with every member given.
    public init(outcome: OutcomeName, path: [RouteStep<JSONValue>]) {
        self.outcome = outcome
        self.path = path
    }
}

/// `flow.apply` {instance, plan}.
public struct FlowApplyParams: Codable, Hashable, Sendable {
    /// The instance whose path is reset.
    public var instance: String
    /// The steps of the path to reset to. The instance checks them as a `reset` intent's:
    /// a plan that breaks the modal rule is -32000 `invalid_plan`.
    public var plan: [RouteStep<JSONValue>]
    /// Params for `flow.apply`, with every member given.
    public init(instance: String, plan: [RouteStep<JSONValue>]) {
        self.instance = instance
        self.plan = plan
    }

    /// Params for `flow.apply` to a plan already checked.
    public init(instance: String, plan: FlowPlan<JSONValue>) {
        self.init(instance: instance, plan: plan.steps)
    }
}

/// A result that is a path: {path}.
public struct PathResult: Codable, Hashable, Sendable {
    /// The instance's path after the request (`flow.apply`, `flow.transaction`).
    public var path: [RouteStep<JSONValue>]
    /// The result holding `path`.
    public init(path: [RouteStep<JSONValue>]) { self.path = path }
}

/// `flow.batch` {instance, intents, stopOnFailure?}.
public struct FlowBatchParams: Codable, Hashable, Sendable {
    /// The instance whose flow takes the intents.
    public var instance: String
    /// The intents, applied one by one in order (may be empty).
    public var intents: [FlowIntent<JSONValue>]
    /// Whether a rejected intent stops the rest (those before it stay applied); false
    /// when nil.
    public var stopOnFailure: Bool?
    /// Params for `flow.batch`, going on past rejections unless `stopOnFailure` says not to.
    public init(instance: String, intents: [FlowIntent<JSONValue>], stopOnFailure: Bool? = nil) {
        self.instance = instance
        self.intents = intents
        self.stopOnFailure = stopOnFailure
    }
}

/// One intent's outcome in a batch: {outcome, error?} — `error` is the JSON-RPC error
/// object a rejected intent would have been answered with.
public struct BatchOutcome: Codable, Hashable, Sendable {
    /// `changed`, `queued`, `unchanged`, or `rejected`.
    public var outcome: OutcomeName
    /// For a rejected intent, the error object it alone would have got; nil (left out)
    /// otherwise.
    public var error: JSONValue?
    /// One intent's outcome, with `error` only for a rejected one.
    public init(outcome: OutcomeName, error: JSONValue? = nil) {
        self.outcome = outcome
        self.error = error
    }
}

/// The `flow.batch` result: {outcomes, path}.
public struct FlowBatchResultObject: Codable, Hashable, Sendable {
    /// One outcome per applied intent, in order; fewer than the intents when the batch
    /// stopped.
    public var outcomes: [BatchOutcome]
    /// The instance's path after the batch.
    public var path: [RouteStep<JSONValue>]
    /// The `flow.batch` result, with every member given.
    public init(outcomes: [BatchOutcome], path: [RouteStep<JSONValue>]) {
        self.outcomes = outcomes
        self.path = path
    }
}

/// `flow.transaction` {instance, intents}.
public struct FlowTransactionParams: Codable, Hashable, Sendable {
    /// The instance whose flow takes the intents.
    public var instance: String
    /// The intents, applied all together or not at all; a rejection carries the failing
    /// intent's `data.index`.
    public var intents: [FlowIntent<JSONValue>]
    /// Params for `flow.transaction`, with every member given.
    public init(instance: String, intents: [FlowIntent<JSONValue>]) {
        self.instance = instance
        self.intents = intents
    }
}

/// `flow.reconcile` {instance, observed, policy}.
public struct FlowReconcileParams: Codable, Hashable, Sendable {
    /// The instance whose path a UI toolkit reports.
    public var instance: String
    /// The path the toolkit shows now.
    public var observed: [RouteStep<JSONValue>]
    /// `adopt` or `reject` (required): what to do when `observed` differs.
    public var policy: String
    /// Params for `flow.reconcile`, with every member given.
    public init(instance: String, observed: [RouteStep<JSONValue>], policy: ReconcilePolicy) {
        self.instance = instance
        self.observed = observed
        self.policy = policy.rawValue
    }
}

/// The `flow.reconcile` result: {outcome: "changed" | "unchanged", path, intents}.
public struct FlowReconcileResultObject: Codable, Hashable, Sendable {
    /// `changed`, or `unchanged` when the observed path was the instance's already.
    public var outcome: OutcomeName
    /// The instance's path after the reconcile.
    public var path: [RouteStep<JSONValue>]
    /// The intents the difference became, in the order they were applied.
    public var intents: [FlowIntent<JSONValue>]
    /// The result, with every member given.
    public init(outcome: OutcomeName, path: [RouteStep<JSONValue>], intents: [FlowIntent<JSONValue>]) {
        self.outcome = outcome
        self.path = path
        self.intents = intents
    }
}

extension FlowReconcileResultObject: WireWritable {
    public func write(to output: inout [UInt8]) {
        ((try? JSONValue(encoding: self)) ?? .null).write(to: &output)
    }
}
