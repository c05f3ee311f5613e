import Foundation
import SceneCore
import SceneFlow
import SceneSocket
import SceneWire

/// The loop-thread side of a coordinator: the listener and its sessions.
final class CoordinatorServer: ListenerHandler {
    let registry: SceneRegistry<JSONValue>
    let configuration: CoordinatorConfiguration
    let loop: EventLoop
    let supervisor: Supervisor
    /// With `--durable`: what registry requests sync before they are answered.
    let journal: Journal?
    private var listener: SocketListener?
    private var sessions: [ObjectIdentifier: Session] = [:]
    private var nextSession = 1
    /// Set by the coordinator: stop everything, once the shutdown answer is out.
    var onShutdownRequest: (() -> Void)?
    private var closed = false
    /// Peers (uid, pid) that said hello with bad tokens lately.
    private var throttles: [PeerKey: HelloThrottle] = [:]
    private let started = ContinuousClock.now

    struct PeerKey: Hashable {
        let uid: UInt32?
        let pid: Int32?
    }

    init(registry: SceneRegistry<JSONValue>, configuration: CoordinatorConfiguration, loop: EventLoop, journal: Journal?) throws {
        self.registry = registry
        self.journal = journal
        self.configuration = configuration
        self.loop = loop
        self.supervisor = Supervisor(registry: registry, configuration: configuration, loop: loop)
        let listener = try SocketListener.listen(
            path: configuration.socketPath, loop: loop, maximumFrame: configuration.maximumFrame,
            allowedUID: configuration.allowedUID)
        self.listener = listener
        listener.handler = self
        Log.info("serving \(registry.app) on \(configuration.socketPath)")
    }

    var sessionCount: Int { sessions.count }

    func listener(_ listener: SocketListener, didAccept connection: SocketConnection) {
        connection.writeQueueCap = configuration.writeQueueCap
        guard !closed else {
            connection.close(.local("shutting down"))
            return
        }
        guard sessions.count < configuration.maximumConnections else {
            Log.warn("refused a connection: \(configuration.maximumConnections) connections already")
            let error = WireError.domain(
                reason: WireReason.tooManyConnections,
                message: "the coordinator serves at most \(configuration.maximumConnections) connections")
            connection.send(WireCodec.response(id: .null, error: error))
            connection.closeAfterFlush(.local("too many connections"))
            return
        }
        let session = Session(connection: connection, server: self, name: "session-\(nextSession)")
        nextSession += 1
        sessions[ObjectIdentifier(session)] = session
        connection.handler = session
    }

    /// A scene hello from `connection`'s peer was refused: how long to hold the answer.
    func holdForRefusedHello(_ connection: SocketConnection) -> Duration {
        let now = (ContinuousClock.now - started) / .seconds(1)
        // Forget peers that have been quiet for a window, so the table cannot grow.
        if throttles.count > 1024 { throttles = throttles.filter { !$0.value.isIdle(at: now) } }
        let key = PeerKey(uid: connection.peerUID, pid: connection.peerPID)
        let hold = throttles[key, default: HelloThrottle()].refused(at: now)
        return .milliseconds(Int(hold * 1000))
    }

    func listener(_ listener: SocketListener, didRefusePeer uid: UInt32, pid: Int32) {
        Log.warn("refused a peer of uid \(uid) (pid \(pid)): only uid \(configuration.allowedUID.map(String.init) ?? "any") may connect")
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

    /// Stops accepting and closes every session (answers already queued are flushed first).
    func close() {
        guard !closed else { return }
        closed = true
        listener?.close()
        listener = nil
        supervisor.close()
        for session in Array(sessions.values) { session.shutdown() }
        Log.info("stopped serving \(registry.app)")
    }
}
