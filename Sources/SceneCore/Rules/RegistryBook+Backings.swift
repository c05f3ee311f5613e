/// What the registry does once the launch of what backs an instance (a process, or a
/// behaviour that starts) is over.
package enum LaunchEnd: Hashable, Sendable {
    /// The instance was dismissed while it started, and it did start: stop it.
    case stop
    /// Nothing: it was dismissed and nothing started, or it is no longer opening.
    case nothing
    /// It is ready: active, focused, announced.
    case activate
    /// It could not start: removed `cancelled`, its open answered with the launcher's
    /// reason.
    case cancel(RegistryRejection)
}

/// What the registry does when an instance's process says hello.
package enum Attachment: Hashable, Sendable {
    /// The instance was opening: its launch is complete (``LaunchEnd/activate``).
    case activate
    /// The instance was disconnected: it comes back (`scene.restarted`, then its phase).
    case reconnect
    /// The instance was open and connected: nothing changes.
    case nothing
}

extension RegistryBook {
    // MARK: What backs an instance

    /// What the end of `id`'s launch does, by whether it started (`result`) and where the
    /// instance stands now.
    package func launchEnd(_ id: InstanceID, _ result: Result<Void, RegistryRejection>) -> LaunchEnd {
        guard let record = records[id] else {
            if case .success = result { return .stop }
            return .nothing
        }
        guard record.phase == .opening else { return .nothing }
        switch result {
        case .success: return .activate
        case .failure(let reason): return .cancel(reason)
        }
    }

    /// What a hello from `id`'s process does; refused `not_open` when `id` is not open.
    package func attachment(_ id: InstanceID) -> Result<Attachment, RegistryRejection> {
        guard let record = records[id] else { return .failure(.instanceNotOpen(id)) }
        switch record.phase {
        case .opening: return .success(.activate)
        case .disconnected: return .success(.reconnect)
        default: return .success(.nothing)
        }
    }

    /// Whether the end of `id`'s process disconnects it (`scene.disconnected`): only an open
    /// instance past its opening (an opening one's launch answers for it).
    package func disconnects(_ id: InstanceID) -> Bool {
        guard let record = records[id] else { return false }
        return record.phase != .opening
    }
}
