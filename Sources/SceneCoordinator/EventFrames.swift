import SceneCore
import SceneFlow
import SceneSync
import SceneWire

/// The `event` notification of each registry event, framed once and shared by every
/// subscriber: a change seen by a hundred subscribers is encoded once, not a hundred
/// times. Keeps the frames of the most recent events only.
final class EventFrames: Sendable {
    private struct State {
        var frames: [UInt64: [UInt8]] = [:]
        var newest: UInt64 = 0
    }

    /// How many recent events keep their frames (subscribers lagging further behind
    /// encode their own).
    static let kept: UInt64 = 512
    private let state = Locked(State())

    /// The framed notification for `event`.
    func frame(for event: SequencedEvent<JSONValue>) -> [UInt8] {
        if let frame = state.withLock({ $0.frames[event.seq] }) { return frame }
        // Encoded outside the lock; two subscribers racing for the same event both encode
        // it, and either frame will do.
        let frame = WireCodec.framedRequest(id: nil, method: WireMethod.event, params: RawJSON(WireCodec.eventParams(event)))
        state.withLock { state in
            state.frames[event.seq] = frame
            if event.seq > state.newest {
                state.newest = event.seq
                if event.seq > EventFrames.kept { state.frames[event.seq - EventFrames.kept] = nil }
            }
            if state.frames.count > Int(EventFrames.kept) * 2 {
                let oldest = state.newest > EventFrames.kept ? state.newest - EventFrames.kept : 0
                state.frames = state.frames.filter { $0.key > oldest }
            }
        }
        return frame
    }
}
