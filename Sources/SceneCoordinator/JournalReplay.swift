public import SceneCore
import SceneFlow
public import SceneJSON
import SceneSocket
import SceneWire
import SceneSync

extension RegistrySnapshot where R == JSONValue {
    /// This snapshot with `events` (as the wire carries them) applied in order: what the
    /// registry looked like after them, queued modals included.
    ///
    /// `reopenLimit` is the registry's: what can be reopened is trimmed to it as each
    /// dismissal is kept, as the registry trims it, so that a reopen taking an entry out of
    /// the middle leaves the same ones.
    public func applying(_ events: [JSONValue], reopenLimit: Int = 20) -> RegistrySnapshot<JSONValue> {
        var snapshot = self
        // What can be reopened, by the registry's own rules (`ReopenList`).
        var reopenable = ReopenList<JSONValue>(limit: reopenLimit, entries: closed ?? [])
        for event in events { snapshot.apply(event, reopenable: &reopenable) }
        snapshot.closed = reopenable.entries.isEmpty ? nil : reopenable.entries
        return snapshot
    }

    /// A reopen took the entry `event` names (`reopenedFrom`): none when it is no longer
    /// kept. An event written before it was named took its scene's latest entry when it
    /// was asked (a reopen takes the latest of its scene, or the latest of all).
    private static func takeReopened(_ event: JSONValue, scene: String, from reopenable: inout ReopenList<JSONValue>) {
        reopenable.replayTaken(event["reopenedFrom"]?.stringValue.flatMap(InstanceID.init), scene: scene)
    }

    private mutating func apply(_ event: JSONValue, reopenable: inout ReopenList<JSONValue>) {
        let id = EventKeys.instance(ofWire: event)
        func update(_ body: (inout InstanceSnapshot<JSONValue>) -> Void) {
            guard let id, let index = instances.firstIndex(where: { $0.id == id }) else { return }
            body(&instances[index])
        }
        switch event["type"]?.stringValue {
        case "scene.opened":
            guard let object = event["instance"], let info = try? object.decoded(as: InstanceObject.self),
                let opened = InstanceID(info.id), let phase = ScenePhase(rawValue: info.phase)
            else { return }
            if event["reopened"] == true { Self.takeReopened(event, scene: opened.scene, from: &reopenable) }
            instances.removeAll { $0.id == opened }
            instances.append(InstanceSnapshot(
                // Not `nil` alone: JSONValue is nil-literal expressible, so that would be `.null`.
                id: opened, value: info.value.isNull ? JSONValue?.none : info.value, phase: phase,
                flow: FlowSnapshot(path: info.path, queuedModals: info.queue),
                pushedFrom: info.pushedFrom.flatMap(InstanceID.init), style: info.style.flatMap(ImmersionStyle.init)))
            instances.sort { $0.id < $1.id }
            counters[opened.scene] = max(counters[opened.scene] ?? 0, opened.number)
            if info.kind == "immersive" { immersive = opened }
        case "scene.dismissed":
            guard let id else { return }
            // Kept for scene.reopen as the registry keeps it.
            // A reason this version does not know is no cancellation: only `cancelled` is.
            if let gone = instances.first(where: { $0.id == id }),
                ReopenList<JSONValue>.keeps(phase: gone.phase, reason: event["reason"]?.stringValue.flatMap(DismissReason.init) ?? .requested)
            {
                reopenable.keep(gone)
            }
            instances.removeAll { $0.id == id }
            focusOrder.removeAll { $0 == id }
            if immersive == id { immersive = nil }
        case "scene.focused":
            guard let id else { return }
            // A reopen's only names the instance it found: focus moves by the plain ones.
            if event["reopened"] == true {
                Self.takeReopened(event, scene: id.scene, from: &reopenable)
                return
            }
            focusOrder.removeAll { $0 == id }
            focusOrder.append(id)
        case "scene.changed":
            guard let info = try? event["instance"]?.decoded(as: InstanceObject.self) else { return }
            let style = info.style.flatMap(ImmersionStyle.init)
            update { $0.style = style }
        case "scene.phase_changed":
            guard let phase = event["phase"]?.stringValue.flatMap(ScenePhase.init) else { return }
            update { $0.phase = phase }
        case "scene.pushed":
            let from = event["from"]?.stringValue.flatMap(InstanceID.init)
            update { $0.pushedFrom = from }
            // Hidden under the pushed window, the parent leaves the focus order until that
            // window goes (then a scene.focused brings it back).
            if let from { focusOrder.removeAll { $0 == from } }
        case "flow.changed":
            guard let path = try? event["path"]?.decoded(as: [RouteStep<JSONValue>].self) else { return }
            let queue = (try? event["queue"]?.decoded(as: [RouteStep<JSONValue>].self)) ?? []
            update { $0.flow = FlowSnapshot(path: path, queuedModals: queue) }
        case "flow.queued":
            guard let queue = try? event["queue"]?.decoded(as: [RouteStep<JSONValue>].self) else { return }
            update { $0.flow.queuedModals = queue }
        case "link.pending":
            pendingLink = event["url"]?.stringValue
        case "link.handled", "link.superseded", "link.rejected":
            if pendingLink == event["url"]?.stringValue { pendingLink = nil }
        case "link.authenticated":
            if let flag = event["authenticated"]?.boolValue { authenticated = flag }
        default:
            break
        }
    }
}
