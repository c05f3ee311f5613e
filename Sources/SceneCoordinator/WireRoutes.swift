import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

/// The routes of a registry of any route type, to and from the wire's JSON.
///
/// A registry of JSON routes (a manifest's) passes through untouched; any other route type
/// goes through its `Codable` conformance, so an app's own route enum is served as the JSON
/// it encodes to.
enum WireRoutes<R: Route> {
    /// Whether the registry's routes are the wire's JSON already.
    static var isJSON: Bool { R.self == JSONValue.self }

    /// A path as the wire carries it. A route that cannot be encoded (a non-finite number)
    /// is written as null.
    static func json(_ path: [RouteStep<R>]) -> [RouteStep<JSONValue>] {
        if isJSON { return unsafeBitCast(path, to: [RouteStep<JSONValue>].self) }
        return path.map { step in RouteStep(step.kind, (try? JSONValue.encoded(step.route)) ?? .null) }
    }

    static func json(_ info: InstanceInfo<R>) -> InstanceInfo<JSONValue> {
        if isJSON { return unsafeBitCast(info, to: InstanceInfo<JSONValue>.self) }
        return info.mappingPath(json)
    }

    static func json(_ event: SequencedEvent<R>) -> SequencedEvent<JSONValue> {
        if isJSON { return unsafeBitCast(event, to: SequencedEvent<JSONValue>.self) }
        return SequencedEvent(seq: event.seq, event: event.event.mappingPaths(json))
    }

    /// A value of the registry's type from the wire's JSON.
    ///
    /// - Throws: -32602 naming `member` and what does not fit.
    static func decode<T: Decodable>(_ type: T.Type, from json: some Encodable & Sendable, member: String) throws(WireError) -> T {
        if let same = json as? T { return same }
        do {
            return try JSONValue.encoded(json).decoded(as: T.self)
        } catch {
            throw .invalidParams("\(member): \(error)")
        }
    }

    /// A snapshot with its routes as JSON: what the state file keeps (a route that cannot
    /// be encoded is null, as on the wire).
    static func json(_ snapshot: RegistrySnapshot<R>) -> RegistrySnapshot<JSONValue> {
        if isJSON { return unsafeBitCast(snapshot, to: RegistrySnapshot<JSONValue>.self) }
        func jsonInstance(_ item: InstanceSnapshot<R>) -> InstanceSnapshot<JSONValue> {
            let path: [RouteStep<JSONValue>] = json(item.flow.path)
            let queued: [RouteStep<JSONValue>] = json(item.flow.queuedModals)
            let flow = FlowSnapshot<JSONValue>(path: path, queuedModals: queued)
            return InstanceSnapshot<JSONValue>(
                id: item.id, value: item.value, phase: item.phase, flow: flow, pushedFrom: item.pushedFrom, style: item.style)
        }
        var converted = RegistrySnapshot<JSONValue>(
            app: snapshot.app, instances: snapshot.instances.map(jsonInstance), focusOrder: snapshot.focusOrder,
            immersive: snapshot.immersive, pendingLink: snapshot.pendingLink, authenticated: snapshot.authenticated,
            counters: snapshot.counters)
        converted.version = snapshot.version
        converted.closed = snapshot.closed?.map(jsonInstance)
        return converted
    }
}
