/// A flow store's state as Codable data: the visible path and the queued modals.
///
/// Encodes as `{"version": 1, "path": [steps], "queuedModals": [steps]}`.
public struct FlowSnapshot<R: Route>: Hashable, Codable, Sendable {
    /// The snapshot format this library writes.
    public static var currentVersion: Int { 1 }

    /// The format version the snapshot was written in.
    public var version: Int
    /// The visible path.
    public var path: [RouteStep<R>]
    /// The modals queued behind the visible one.
    public var queuedModals: [RouteStep<R>]

    /// A snapshot of the current format.
    public init(path: [RouteStep<R>], queuedModals: [RouteStep<R>] = []) {
        self.version = Self.currentVersion
        self.path = path
        self.queuedModals = queuedModals
    }

    /// Every rule the snapshot breaks; empty when it can be restored.
    public var problems: [FlowRestoreProblem] {
        var problems: [FlowRestoreProblem] = []
        if version != Self.currentVersion { problems.append(.unsupportedVersion(version)) }
        if let problem = FlowPlan.problem(in: path) { problems.append(.invalidPath(problem)) }
        for (index, step) in queuedModals.enumerated() where !step.isModal {
            problems.append(.queuedStepNotModal(index: index))
        }
        if !queuedModals.isEmpty, path.last?.isModal != true {
            problems.append(.queueWithoutModal(count: queuedModals.count))
        }
        return problems
    }
}

/// One thing wrong with a ``FlowSnapshot``.
public enum FlowRestoreProblem: Error, Hashable, Sendable, CustomStringConvertible {
    /// The snapshot was written in a format this library does not read.
    case unsupportedVersion(Int)
    /// The path is not a valid path.
    case invalidPath(FlowPlanError)
    /// The queued step at `index` is a push; only sheets and covers queue.
    case queuedStepNotModal(index: Int)
    /// Modals are queued although no modal shows.
    case queueWithoutModal(count: Int)

    /// The stable snake_case code, the same string on the wire.
    public var code: String {
        switch self {
        case .unsupportedVersion: return "unsupported_version"
        case .invalidPath: return "invalid_path"
        case .queuedStepNotModal: return "queued_step_not_modal"
        case .queueWithoutModal: return "queue_without_modal"
        }
    }


    public var description: String {
        switch self {
        case .unsupportedVersion(let version):
            return "snapshot version \(version) is not supported (expected \(FlowSnapshot<String>.currentVersion))"
        case .invalidPath(let problem):
            return "path: \(problem)"
        case .queuedStepNotModal(let index):
            return "queuedModals[\(index)]: only a sheet or cover can be queued"
        case .queueWithoutModal(let count):
            return "queuedModals: \(count) queued behind a path that shows no modal"
        }
    }
}

/// Why a snapshot could not be restored; lists every problem found.
public struct FlowRestoreError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem, in the order found.
    public let problems: [FlowRestoreProblem]

    /// An error listing `problems`.
    public init(problems: [FlowRestoreProblem]) {
        self.problems = problems
    }

    /// The stable snake_case code, the same string on the wire.
    public var code: String { "invalid_snapshot" }


    public var description: String {
        "invalid flow snapshot: " + problems.map(\.description).joined(separator: "; ")
    }
}

extension FlowStore {
    /// The state to persist.
    public var snapshot: FlowSnapshot<R> {
        FlowSnapshot(path: _path, queuedModals: _queuedModals)
    }

    /// A store restored from `snapshot`.
    ///
    /// - Throws: ``FlowRestoreError`` listing every problem; nothing is restored then.
    public init(restoring snapshot: FlowSnapshot<R>) throws(FlowRestoreError) {
        self.init()
        try restore(snapshot)
    }

    /// Replaces the state with `snapshot`, keeping the middleware chain.
    ///
    /// - Throws: ``FlowRestoreError`` listing every problem; the store is untouched then.
    /// - Records a path and a queue event when they change.
    public mutating func restore(_ snapshot: FlowSnapshot<R>) throws(FlowRestoreError) {
        let problems = snapshot.problems
        guard problems.isEmpty else { throw FlowRestoreError(problems: problems) }
        let old = _path
        let oldQueue = _queuedModals
        _path = snapshot.path
        _queuedModals = snapshot.queuedModals
        if recordsEvents {
            if _path != old { record(.pathChanged(old: old, new: _path)) }
            if _queuedModals != oldQueue { record(.modalQueueChanged(_queuedModals)) }
        }
    }
}
