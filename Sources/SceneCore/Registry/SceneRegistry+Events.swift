import SceneFlow
import SceneJSON
import SceneSync

extension SceneRegistry {
    /// Applies `intent` to instance `id`'s flow in this step; `nil` when it is not open.
    @discardableResult
    func perform(
        _ intent: FlowIntent<R>, in id: InstanceID, request: String, by source: FlowCause.Source, naming: Bool = true
    ) -> FlowOutcome<R>? {
        guard let instance = instances[id] else { return nil }
        return entering(instance) { $0.perform(intent, request: request, by: source, naming: naming) }
    }

    /// Publishes what the bookkeeping recorded, in order.
    func flush() {
        // The spare array, held alone here (a flush within this one finds none spare).
        var taken: [BookEvent] = []
        swap(&taken, &spareEvents)
        book.takeEvents(into: &taken)
        defer {
            taken.removeAll(keepingCapacity: true)
            spareEvents = taken
        }
        for event in taken {
            switch event {
            case .opened(let id):
                if let instance = instances[id] { entering(instance) { $0.phase = .active } }
                guard let info = infoIfOpen(id) else { continue }
                if let entry = reopenList.announceOpened(id) {
                    log.emit(.reopened(info, entry: entry))
                } else {
                    log.emit(.opened(info))
                }
            case .focused(let id):
                log.emit(.focused(id))
            case .dismissed(let id, let reason):
                log.emit(.dismissed(id, reason: reason))
            case .phaseChanged(let id, let phase):
                if let instance = instances[id] { entering(instance) { $0.phase = phase } }
                log.emit(.phaseChanged(id, phase: phase))
            case .pushed(let id, let from):
                log.emit(.pushed(id, from: from))
            }
        }
    }

    /// Runs a request that finishes in one step; a rejection is also published as
    /// `request.rejected`.
    func rejectingSync<T>(
        _ request: String, _ body: (isolated SceneRegistry) throws(RegistryRejection) -> T
    ) throws(RegistryRejection) -> T {
        do {
            return try body(self)
        } catch {
            reject(request, error)
            throw error
        }
    }
}
