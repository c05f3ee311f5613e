import CSceneSystem
import Glibc

/// Why a connection ended.
public enum CloseReason: Hashable, Sendable, CustomStringConvertible {
    /// The peer closed the connection between frames.
    case peerClosed
    /// The peer closed the connection in the middle of a frame.
    case eofMidFrame
    /// The stream broke the framing rules (after the owner's error reply).
    case framing(FramingError)
    /// The peer fell behind: more than `cap` bytes were queued for it.
    case writeQueueOverCap(cap: Int)
    /// A read or write failed.
    case io(SocketError)
    /// The owner closed it, for this reason.
    case local(String)
    /// The event loop stopped.
    case loopStopped

    public var description: String {
        switch self {
        case .peerClosed: return "peer closed"
        case .eofMidFrame: return "peer closed in the middle of a frame"
        case .framing(let error): return "framing error: \(error)"
        case .writeQueueOverCap(let cap): return "peer fell behind: write queue over \(cap) bytes"
        case .io(let error): return "I/O error: \(error)"
        case .local(let reason): return reason
        case .loopStopped: return "event loop stopped"
        }
    }
}

/// What a connection tells its owner. Called on the loop thread.
public protocol FrameHandler: AnyObject {
    /// A complete frame arrived; `payload` is valid only during the call.
    func connection(_ connection: SocketConnection, didReceive payload: UnsafeRawBufferPointer)
    /// The stream broke the framing rules. Nothing more is read; the owner should answer
    /// and call ``SocketConnection/closeAfterFlush(_:)``.
    func connection(_ connection: SocketConnection, didFailFraming error: FramingError)
    /// The connection ended; called once.
    func connectionDidClose(_ connection: SocketConnection, reason: CloseReason)
    /// The peer stopped sending (``SocketConnection/inputEndReason`` says whether between
    /// frames or in the middle of one) but may still read. The default closes
    /// once what is queued is written; an owner with answers still to come may wait for
    /// them and then call ``SocketConnection/closeAfterFlush(_:)``.
    func connectionDidReachEndOfInput(_ connection: SocketConnection)
}

extension FrameHandler {
    /// Closes once what is queued is written, with the reason the input ended.
    public func connectionDidReachEndOfInput(_ connection: SocketConnection) {
        connection.closeAfterFlush(connection.inputEndReason ?? .peerClosed)
    }
}

/// A non-blocking Unix stream socket that reads and writes length-prefixed frames on an
/// event loop. Every method must be called on the loop thread.
///
/// - Writes are queued in order and flushed together at the end of the loop iteration
///   (several frames in one `sendmsg`).
/// - A peer that falls behind by more than ``writeQueueCap`` bytes is disconnected.
public final class SocketConnection: LoopHandler {
    /// The event loop the connection runs on.
    public let loop: EventLoop
    /// The socket's descriptor (−1 once closed).
    public private(set) var fd: Int32
    /// The peer's user id and process id, when the kernel reported them.
    public let peerUID: UInt32?
    /// The peer's process id, when the kernel reported it.
    public let peerPID: Int32?
    /// Who hears about frames and the end of the connection.
    public var handler: (any FrameHandler)?
    /// Queued bytes, behind the frame being written, beyond which the peer is disconnected
    /// (default 8 MiB). The frame being written does not count: one frame larger than the
    /// cap still goes out whole, while a peer that does not read is cut off once the cap's
    /// worth waits behind it.
    public var writeQueueCap = 8 << 20

    private var decoder: FrameDecoder
    private var token: UInt64 = 0
    private var queue: [[UInt8]] = []
    private var queueOffset = 0
    private var queuedBytes = 0
    private var watchingWritable = false
    private var flushScheduled = false
    private var closingAfterFlush: CloseReason?
    private var framingFailed = false
    private var inputEnded = false
    /// How the peer's input ended, once it has: between frames, or in the middle of one.
    public private(set) var inputEndReason: CloseReason?
    /// Whether the connection is closed; once it is, sends are ignored.
    private(set) public var isClosed = false

    init(fd: Int32, loop: EventLoop, maximumFrame: Int, peer: (uid: UInt32, pid: Int32)?) {
        self.fd = fd
        self.loop = loop
        self.decoder = FrameDecoder(maximum: maximumFrame)
        peerUID = peer?.uid
        peerPID = peer?.pid
    }

    /// The peer of a connected socket, from `SO_PEERCRED`.
    static func peer(of fd: Int32) -> (uid: UInt32, pid: Int32)? {
        var uid: uid_t = 0
        var pid: pid_t = 0
        guard scene_peer_credentials(fd, &uid, &pid) == 0 else { return nil }
        return (uid, pid)
    }

    /// Connects to the Unix socket at `path` without blocking: a full backlog is retried
    /// (briefly sleeping) until `timeout`. Returns the connected descriptor.
    public static func connectDescriptor(path: String, timeout: Duration = .seconds(10)) async throws(SocketError) -> Int32 {
        let deadline = ContinuousClock.now + timeout
        while true {
            let fd = scene_unix_connect(path, 1)
            if fd >= 0 { return fd }
            let error = SocketError("connect(\(path))")
            guard error.code == EAGAIN, ContinuousClock.now < deadline else { throw error }
            try? await Task.sleep(for: .milliseconds(2))
        }
    }

    /// Takes over a connected descriptor and registers it with `loop`. Call on the loop
    /// thread; on failure the descriptor is closed.
    public static func adopt(_ fd: Int32, loop: EventLoop, maximumFrame: Int = 1 << 20) throws(SocketError)
        -> SocketConnection
    {
        let connection = SocketConnection(fd: fd, loop: loop, maximumFrame: maximumFrame, peer: peer(of: fd))
        try connection.start()
        return connection
    }

    /// Registers with the loop; reading starts.
    func start() throws(SocketError) {
        do {
            token = try loop.register(fd, events: UInt32(SCENE_EPOLLIN | SCENE_EPOLLRDHUP), handler: self)
        } catch {
            Glibc.close(fd)
            fd = -1
            isClosed = true
            throw error
        }
    }

    /// How many bytes wait to be written.
    public var pendingBytes: Int { queuedBytes }

    /// Queues `payload` as one frame.
    public func send(_ payload: some Collection<UInt8>) {
        guard !isClosed, closingAfterFlush == nil else { return }
        enqueue(FrameDecoder.frame(payload))
    }

    /// Queues bytes that already carry their frame headers.
    public func sendFramed(_ bytes: [UInt8]) {
        guard !isClosed, closingAfterFlush == nil, !bytes.isEmpty else { return }
        enqueue(bytes)
    }

    /// Bytes waiting behind the frame being written: what the cap limits.
    private var waitingBehindHead: Int {
        guard let head = queue.first else { return 0 }
        return queuedBytes - (head.count - queueOffset)
    }

    private func enqueue(_ bytes: [UInt8]) {
        queue.append(bytes)
        queuedBytes += bytes.count
        if waitingBehindHead > writeQueueCap {
            // Over the cap counts only what the peer has not taken: write what it will take
            // now, and disconnect only if it still lags.
            flush()
            if isClosed { return }
            if waitingBehindHead > writeQueueCap {
                close(.writeQueueOverCap(cap: writeQueueCap))
                return
            }
        }
        if !flushScheduled {
            flushScheduled = true
            loop.scheduleFlush(self)
        }
    }

    /// Closes once everything queued has been written (or the peer is gone).
    public func closeAfterFlush(_ reason: CloseReason) {
        guard !isClosed else { return }
        closingAfterFlush = reason
        if queuedBytes == 0 {
            close(reason)
        } else if !flushScheduled {
            flushScheduled = true
            loop.scheduleFlush(self)
        }
    }

    /// Closes now; queued bytes are dropped.
    public func close(_ reason: CloseReason) {
        guard !isClosed else { return }
        isClosed = true
        loop.deregister(fd, token: token)
        Glibc.close(fd)
        fd = -1
        queue.removeAll()
        queuedBytes = 0
        let handler = self.handler
        self.handler = nil
        handler?.connectionDidClose(self, reason: reason)
    }

    func loopDidStop() { close(.loopStopped) }

    func handle(events: UInt32) {
        if events & UInt32(SCENE_EPOLLOUT) != 0 { flush() }
        if events & UInt32(SCENE_EPOLLIN | SCENE_EPOLLHUP | SCENE_EPOLLERR | SCENE_EPOLLRDHUP) != 0 { readAvailable() }
    }

    private func readAvailable() {
        let scratch = loop.scratch
        // Bounded per wake-up, so one busy peer cannot starve the others.
        for _ in 0..<16 {
            guard !isClosed else { return }
            let count = scene_recv(fd, scratch.baseAddress, scratch.count)
            if count > 0 {
                if framingFailed { continue }
                let error = decoder.feed(UnsafeRawBufferPointer(rebasing: scratch[..<count])) { payload in
                    if !self.isClosed { self.handler?.connection(self, didReceive: payload) }
                }
                if let error, !framingFailed {
                    framingFailed = true
                    handler?.connection(self, didFailFraming: error)
                }
                // A short read took everything there was: the socket is level-triggered, so
                // more input (or its end) wakes the loop again. Asking now would cost a
                // system call that answers EAGAIN.
                if count < scratch.count { return }
            } else if count == 0 {
                if decoder.hasPartialFrame, !framingFailed, !inputEnded {
                    // Answers to the complete requests before the cut still go out.
                    inputEndReason = .eofMidFrame
                    stopReading()
                    handler?.connectionDidReachEndOfInput(self)
                } else if inputEnded {
                    // Fully closed now: nothing more can be delivered.
                    close(closingAfterFlush ?? .peerClosed)
                } else if let reason = closingAfterFlush {
                    // Closing already (after an error answer): let that answer go out first.
                    stopReading()
                    if queuedBytes == 0 { close(reason) }
                } else {
                    // Half-closed: stop watching input; the peer may still read answers.
                    inputEndReason = .peerClosed
                    inputEnded = true
                    watchingWritable = queuedBytes > 0
                    loop.modify(fd, token: token, events: watchingWritable ? UInt32(SCENE_EPOLLOUT) : 0)
                    handler?.connectionDidReachEndOfInput(self)
                }
                return
            } else {
                if errno == EAGAIN || errno == EWOULDBLOCK { return }
                close(.io(SocketError("recv")))
                return
            }
        }
    }

    /// Stops watching input (the peer sent its last byte); keeps watching writability while
    /// answers wait.
    private func stopReading() {
        inputEnded = true
        watchingWritable = queuedBytes > 0
        loop.modify(fd, token: token, events: watchingWritable ? UInt32(SCENE_EPOLLOUT) : 0)
    }

    /// Writes what is queued, as far as the socket takes it.
    public func flush() {
        flushScheduled = false
        guard !isClosed else { return }
        while !queue.isEmpty {
            let written = writeQueued()
            if written < 0 {
                if errno == EAGAIN || errno == EWOULDBLOCK {
                    if !watchingWritable {
                        watchingWritable = true
                        let input = inputEnded ? 0 : UInt32(SCENE_EPOLLIN | SCENE_EPOLLRDHUP)
                        loop.modify(fd, token: token, events: input | UInt32(SCENE_EPOLLOUT))
                    }
                    return
                }
                close(.io(SocketError("sendmsg")))
                return
            }
            consume(written)
        }
        if watchingWritable {
            watchingWritable = false
            loop.modify(fd, token: token, events: inputEnded ? 0 : UInt32(SCENE_EPOLLIN | SCENE_EPOLLRDHUP))
        }
        if let reason = closingAfterFlush { close(reason) }
    }

    /// One `sendmsg` of up to 64 queued buffers; returns bytes written or −1.
    private func writeQueued() -> Int {
        let count = min(queue.count, EventLoop.maximumVectors)
        if count == 1 {
            return queue[0].withUnsafeBytes { bytes in
                scene_send(fd, bytes.baseAddress! + queueOffset, bytes.count - queueOffset)
            }
        }
        // The arrays stay alive in `queue` for the whole call.
        return withVectors(0, count, loop.vectors)
    }

    private func withVectors(_ index: Int, _ count: Int, _ vectors: UnsafeMutableBufferPointer<iovec>) -> Int {
        if index == count {
            return Int(scene_sendv(fd, vectors.baseAddress, Int32(count)))
        }
        return queue[index].withUnsafeBytes { bytes in
            let skip = index == 0 ? queueOffset : 0
            vectors[index] = iovec(
                iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip), iov_len: bytes.count - skip)
            return withVectors(index + 1, count, vectors)
        }
    }

    private func consume(_ written: Int) {
        var remaining = written
        queuedBytes -= written
        while remaining > 0 {
            let available = queue[0].count - queueOffset
            if remaining >= available {
                remaining -= available
                queue.removeFirst()
                queueOffset = 0
            } else {
                queueOffset += remaining
                remaining = 0
            }
        }
    }
}
