import SceneJSON
import SceneSocket
import SceneWire

/// Reads answers and events on the loop thread.
final class ClientHandler: FrameHandler {
    let link: ClientLink

    init(link: ClientLink) {
        self.link = link
    }

    func connection(_ connection: SocketConnection, didReceive payload: UnsafeRawBufferPointer) {
        guard case .success(let envelope) = Envelope.scan(payload) else {
            connection.close(.local("the coordinator sent something that is not a JSON-RPC object"))
            return
        }
        if envelope.method == WireMethod.event, let range = envelope.params {
            let params = Envelope.value(at: range, in: payload)
            if let number = params["seq"]?.intValue, let seq = UInt64(exactly: number), let type = params["type"]?.stringValue {
                link.events.publish(WireEvent(seq: seq, type: type, params: params))
            }
            return
        }
        if let method = envelope.method {
            // A request or notification from the coordinator.
            let params = envelope.params.map { Envelope.value(at: $0, in: payload) }
            let id = envelope.id
            let message = IncomingMessage(method: method, params: params, expectsAnswer: id != nil)
            switch link.handling {
            case .none:
                if let id { ClientLink.write(id, .failure(.methodNotFound(method)), to: connection) }
            case .immediate(let handler):
                let outcome = handler(message)
                if let id { ClientLink.write(id, outcome, to: connection) }
            case .dispatch(let handler):
                var reply: Reply?
                if let id {
                    let link = self.link
                    reply = { outcome in link.answer(id, outcome) }
                }
                handler(message, reply)
            case .async(let handler):
                if let id {
                    let link = self.link
                    Task {
                        let outcome = await handler(message)
                        link.answer(id, outcome)
                    }
                } else {
                    // Notifications reach the handler one at a time, in the order they came.
                    link.notifications?.post(message)
                }
            }
            return
        }
        guard let id = envelope.id?.intValue else { return }
        if let range = envelope.error {
            let error = WireError(json: Envelope.value(at: range, in: payload))
                ?? WireError(code: WireCode.domain, message: "malformed error object")
            link.resolve(id, .failure(.remote(error)))
        } else if let range = envelope.result {
            link.resolve(id, .success(Envelope.value(at: range, in: payload)))
        } else {
            link.resolve(id, .failure(.invalidResponse("an answer with neither result nor error")))
        }
    }

    func connection(_ connection: SocketConnection, didFailFraming error: FramingError) {
        connection.close(.framing(error))
    }

    func connectionDidClose(_ connection: SocketConnection, reason: CloseReason) {
        link.closed(.connectionClosed(reason.description))
    }
}
