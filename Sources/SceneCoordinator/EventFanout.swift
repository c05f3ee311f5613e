import SceneCore
import SceneFlow
import SceneJSON
import SceneSocket
import SceneWire

/// Where each registry event goes in a coordinator, on the loop thread, as it is emitted:
/// to every subscribed connection whose topics and filters take it (one encoding per event, written
/// straight to each connection), to the scene process of the instance it concerns, and to
/// the state file's writer.
///
/// - Subscribers see every event after their `subscribe` answer's `seq`, in order, with no
///   gap: events are written as they are emitted, on the thread that emits them. A peer
///   that does not read is disconnected at its write-queue cap, as for any write.
final class EventFanout {
    private var subscribers: [Session] = []
    /// Called for each event that changes what the state file holds.
    var stateChanged: (() -> Void)?
    /// Called for each flow or phase change of an instance a process backs.
    var sceneChanged: ((SequencedEvent<JSONValue>) -> Void)?

    var subscriberCount: Int { subscribers.count }

    func subscribe(_ session: Session) {
        guard !subscribers.contains(where: { $0 === session }) else { return }
        subscribers.append(session)
    }

    func unsubscribe(_ session: Session) {
        subscribers.removeAll { $0 === session }
    }

    /// One event, as the registry emits it.
    func publish(_ event: SequencedEvent<JSONValue>) {
        if !subscribers.isEmpty {
            let topic = WireTopic(of: event.event)
            var keys: EventKeys?  // made for the first subscriber that filters beyond topics
            var frame: [UInt8] = []  // encoded for the first subscriber that takes it
            // Iterating a copy: a write that disconnects a subscriber removes it meanwhile.
            for session in subscribers {
                guard let subscription = session.subscription, subscription.takes(topic) else { continue }
                if subscription.filters {
                    if keys == nil { keys = EventKeys(event.event) }
                    guard let keys, subscription.takes(keys) else { continue }
                }
                if frame.isEmpty {
                    frame = WireCodec.framedRequest(id: nil, method: WireMethod.event, params: WireCodec.eventParams(event))
                }
                session.connection.sendFramed(frame)
            }
        }
        switch event.event {
        case .flowChanged, .phaseChanged:
            sceneChanged?(event)
            stateChanged?()
        case .linkHandled, .linkRejected, .requestRejected:
            break
        default:
            stateChanged?()
        }
    }
}
