import SceneJSON

extension SceneRegistry {
    /// Focuses a window or volume.
    @_specialize(where R == JSONValue)
    @discardableResult
    public func focus(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        try rejectingSync("scene.focus") { (self) throws(RegistryRejection) in
            try self.book.focusRequest(id).get()
            self.flush()
            return try self.info(id)
        }
    }

    /// Records a phase an instance reports for itself: `active`, `inactive` or
    /// `background`. A window a pushed one covers stays `background` until that one goes:
    /// another report is refused ``RegistryRejection/coveredByPushedWindow(_:)``.
    @_specialize(where R == JSONValue)
    public func setPhase(_ id: InstanceID, _ phase: ScenePhase) throws(RegistryRejection) {
        try rejectingSync("scene.phase") { (self) throws(RegistryRejection) in
            try self.book.report(id, phase).get()
            self.flush()
        }
    }
}
