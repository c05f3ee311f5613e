import Foundation
import SceneCore
import SceneFlow
import SceneSocket
import SceneWire

/// The loop-thread side of a coordinator: the listener and its sessions.
final class CoordinatorServer: ListenerHandler {
    let registry: any ServedRegistry
    let configuration: CoordinatorConfiguration
    let loop: EventLoop
    let supervisor: Supervisor
    /// With `--durable`: registry answers wait until their events are on disk.
    let groupCommit: GroupCommit?
    /// Where each registry event goes, as it is emitted.
    let fanout: EventFanout
    /// The last events, for subscribers that resume.
    let history: EventHistory
    /// The id of the line of event numbers this coordinator continues (`origin` in a
    /// `subscribe` answer): a durable coordinator's, kept across its restarts; else this
    /// run's own.
    let origin: String
    /// The numbers a durable restart skipped (its state's mark was past its journal's last
    /// line): no event has them.
    let skipped: ClosedRange<UInt64>?
    private var listener: SocketListener?
    private var sessions: [ObjectIdentifier: Session] = [:]
    /// The descriptors its connections and scene processes may hold together.
    private let descriptors: DescriptorBudget
    private var nextSession = 1
    /// Set by the coordinator: stop everything, once the shutdown answer is out.
    var onShutdownRequest: (() -> Void)?
    /// Set once the coordinator stops serving: what a session reads after it is ignored.
    private(set) var closed = false
    /// The attach tokens given out.
    let tokens: AttachTokens
    /// Peers (uid, pid) that said hello with bad tokens lately.
    private var throttles: [PeerKey: HelloThrottle] = [:]
    /// Connections turned away, and peers of another user refused, are logged at most once
    /// a second each: a burst writes one line, then one that counts the rest.
    private var turnedAway = WarningThrottle()
    private var refusedPeers = WarningThrottle()
    /// Writes the state file (with `--state`).
    private var stateWriter: StateWriter?
    private var stateWriteScheduled = false

    struct PeerKey: Hashable {
        let uid: UInt32?
        let pid: Int32?
    }

    init(
        registry: any ServedRegistry, configuration: CoordinatorConfiguration, loop: EventLoop, journal: Journal?,
        history: EventHistory, tokens: [AttachToken] = []
    ) throws {
        self.registry = registry
        self.tokens = AttachTokens(tokens)
        self.history = history
        self.groupCommit = journal.map { GroupCommit(journal: $0, loop: loop) }
        if let journal {
            // What the restore emitted (journaled, not on disk yet) waits for the disk like
            // everything after it.
            let restored = journal.events(after: journal.numberedAfter).compactMap { event -> EventHistory.Entry? in
                guard let seq = event["seq"]?.intValue.flatMap(UInt64.init(exactly:)) else { return nil }
                return EventHistory.Entry(seq: seq, recorded: event)
            }
            fanout = EventFanout(delivered: journal.numberedAfter, holding: restored)
            skipped = journal.numberedAfter > journal.openedThrough ? (journal.openedThrough + 1)...journal.numberedAfter : nil
        } else {
            fanout = EventFanout(delivered: registry.sequence)
            skipped = nil
        }
        origin = journal?.origin ?? SceneToken.make().text
        self.configuration = configuration
        self.loop = loop
        self.supervisor = Supervisor(registry: registry, configuration: configuration, loop: loop, tokens: self.tokens)
        let events = LoopBound(fanout, loop: loop)
        groupCommit?.onSynced = { seq in events.value.release(through: seq) }
        let scenes = supervisor.bound
        fanout.sceneChanged = { event in Session.relayToScene(event) { scenes.value.session(of: $0) } }
        registry.observeEvents { event in events.value.publish(event) }
        let listener = try SocketListener.listen(
            path: configuration.socketPath, loop: loop, maximumFrame: configuration.maximumFrame,
            allowedUID: configuration.allowedUID)
        descriptors = DescriptorBudget(headroom: configuration.descriptorHeadroom)
        self.listener = listener
        listener.handler = self
        supervisor.noRoomForProcess = { [weak self] in
            guard let self else { return "the coordinator has stopped" }
            return self.noRoomForProcess
        }
        Log.info("serving \(registry.app) on \(configuration.socketPath)")
    }

    var sessionCount: Int { sessions.count }

    /// How many more descriptors connections and scene processes may take.
    private var descriptorsLeft: Int { descriptors.ceiling - sessions.count - supervisor.unreaped }

    /// Why a connection cannot be taken now, keeping `kept` connections (and their
    /// descriptors) for scene processes that have not said hello yet; nil when it can.
    /// `fd` is the descriptor it was accepted into.
    private func noRoomForConnection(keeping kept: Int, fd: Int32) -> String? {
        if sessions.count + kept >= configuration.maximumConnections {
            let forProcesses = kept > 0 ? ", \(kept) of them kept for scene processes it started" : ""
            return "the coordinator serves at most \(configuration.maximumConnections) connections\(forProcesses)"
        }
        if descriptorsLeft - kept <= 0 || descriptors.crowds(fd) {
            return descriptors.refusal + "; try again once connections close"
        }
        return nil
    }

    /// Why a scene process cannot be started now, or nil: it takes a descriptor (its pidfd)
    /// at once, and a connection and its descriptor are kept for it until it says hello,
    /// as they are for those started before it.
    private var noRoomForProcess: String? {
        let kept = supervisor.awaitingHello
        if sessions.count + kept >= configuration.maximumConnections {
            return "the coordinator serves at most \(configuration.maximumConnections) connections, and has none for a process"
        }
        if descriptorsLeft - kept < 2 { return descriptors.refusal + ", and has no more for a process" }
        return nil
    }

    /// Writes the state file with `writer` now and within 100 ms of every change of
    /// instances, paths or processes from now on (changes coalesce).
    func writeState(with writer: StateWriter) {
        stateWriter = writer
        fanout.stateChanged = { [unowned self] in self.stateChanged() }
        supervisor.onChange = { [unowned self] in self.stateChanged() }
        tokens.onChange = { [unowned self] in self.stateChanged() }
        stateChanged()
    }

    private func stateChanged() {
        guard let writer = stateWriter, !stateWriteScheduled, !closed else { return }
        stateWriteScheduled = true
        loop.scheduleOnLoop(after: .milliseconds(100)) { [weak self] in
            self?.stateWriteScheduled = false
            Task { await writer.writeNow() }
        }
    }

    func listener(_ listener: SocketListener, didAccept connection: SocketConnection) {
        connection.writeQueueCap = configuration.writeQueueCap
        guard !closed else {
            connection.close(.local("shutting down"))
            return
        }
        let kept = supervisor.awaitingHello
        if let why = noRoomForConnection(keeping: kept, fd: connection.fd) {
            // A process the coordinator started, come to say hello, takes what was kept for
            // it. (The check reads /proc, so it is made only when the room runs short.)
            let isKeptFor = kept > 0 && connection.peerPID.map(supervisor.isAwaitingHello(peer:)) == true
            guard isKeptFor, noRoomForConnection(keeping: kept - 1, fd: connection.fd) == nil else {
                return turnAway(connection, why)
            }
        }
        let session = Session(connection: connection, server: self, name: "session-\(nextSession)")
        nextSession += 1
        sessions[ObjectIdentifier(session)] = session
        connection.handler = session
    }

    /// Answers `connection` `too_many_connections` with `why` and closes it, both at once:
    /// a burst of peers turned away holds one descriptor at a time, not one each until
    /// the loop's turn ends.
    private func turnAway(_ connection: SocketConnection, _ why: String) {
        warn("refused a connection: \(why)", throttledBy: \.turnedAway)
        let error = WireError.domain(reason: .tooManyConnections, message: why)
        connection.sendFramed(WireCodec.framedResponse(id: .null, error: error))
        connection.closeAfterFlush(.local("too many connections"))
        connection.flush()
    }

    /// Logs `message`, or counts it while `throttle`'s last line is less than a second old
    /// (the count is logged when the second is over).
    private func warn(_ message: String, throttledBy throttle: ReferenceWritableKeyPath<CoordinatorServer, WarningThrottle>) {
        let now = loop.clock.secondsSinceStart
        switch self[keyPath: throttle].admit(message, at: now) {
        case .write:
            Log.warn(message)
        case .hold(let summaryAt?):
            loop.scheduleOnLoop(after: .milliseconds(max(0, Int(((summaryAt - now) * 1000).rounded(.up))))) { [weak self] in
                guard let self, let line = self[keyPath: throttle].summary(at: self.loop.clock.secondsSinceStart) else { return }
                Log.warn(line)
            }
        case .hold(nil):
            break
        }
    }

    /// How long to hold a scene hello from `connection`'s peer before looking at it.
    func holdForSceneHello(_ connection: SocketConnection) -> Duration {
        let now = loop.clock.secondsSinceStart
        let key = PeerKey(uid: connection.peerUID, pid: connection.peerPID)
        // `hold` records the look, so it runs on the stored throttle, in place.
        guard let hold = throttles[key]?.hold(at: now) else { return .zero }
        return .milliseconds(Int(hold * 1000))
    }

    /// A scene hello from `connection`'s peer was refused.
    func sceneHelloRefused(_ connection: SocketConnection) {
        let now = loop.clock.secondsSinceStart
        // Forget peers that have been quiet for a window, now and then, so the table stays
        // as small as the peers that guessed lately.
        if throttles.count >= 64, throttles.count.isMultiple(of: 64) { throttles = throttles.filter { !$0.value.isIdle(at: now) } }
        throttles[PeerKey(uid: connection.peerUID, pid: connection.peerPID), default: HelloThrottle()].refused(at: now)
    }

    func listener(_ listener: SocketListener, didRefusePeer uid: UInt32, pid: Int32) {
        warn(
            "refused a peer of uid \(uid) (pid \(pid)): only uid \(configuration.allowedUID.map(String.init) ?? "any") may connect",
            throttledBy: \.refusedPeers)
    }

    func sessionDidClose(_ session: Session, reason: CloseReason) {
        sessions[ObjectIdentifier(session)] = nil
        if session.role == .scene { supervisor.sessionClosed(session, reason: reason) }
    }

    /// A `coordinator.shutdown` answer was queued: stop; the loop writes what is queued
    /// (that answer included) before it closes the connections.
    func requestShutdown() {
        onShutdownRequest?()
    }

    /// Stops accepting and closes every session (answers already queued are flushed first;
    /// with a durable journal, what it recorded is made durable first, and the answers
    /// waiting for it are written).
    func close() {
        guard !closed else { return }
        closed = true
        groupCommit?.syncNow()
        listener?.close()
        listener = nil
        supervisor.close()
        for session in Array(sessions.values) { session.shutdown() }
        Log.info("stopped serving \(registry.app)")
    }
}
