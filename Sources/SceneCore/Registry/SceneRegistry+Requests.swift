public import SceneJSON

extension SceneRegistry {
    /// Opens `scene` with `value`, by its instance policy.
    ///
    /// - `single`: the one instance (its own value kept); `perValue`: one per value;
    ///   `multiple`: a new one each time, up to its maximum.
    /// - Immersive spaces: at most one open; another one is refused
    ///   `immersive_space_busy` (policy `reject`) or replaces it (policy `replace`).
    @discardableResult
    public func open(_ scene: String, value: JSONValue? = nil) async throws(RegistryRejection) -> OpenOutcome<R> {
        try await finish(beginOpen(scene, value: value)).get()
    }

    /// ``open(_:value:)`` as far as it goes now: done, unless the instance is still
    /// opening or what backs a new one must start.
    public func beginOpen(_ scene: String, value: JSONValue? = nil) -> RegistryStep<R, OpenOutcome<R>> {
        step("scene.open") { () throws(RegistryRejection) in try openStep(scene, value: value) }
    }

    /// Opens `scene` in place of window `from`, as visionOS's `pushWindow` does.
    ///
    /// - `from` goes to the background until the pushed window is dismissed.
    /// - The scenes `scene` requires open first, as for ``open(_:value:)``.
    /// - Refused `not_a_window`, `push_from_pushed_window`, `covered_by_pushed_window`,
    ///   or `already_open` when the target resolves to an open instance.
    @discardableResult
    public func push(_ scene: String, value: JSONValue? = nil, from: InstanceID) async throws(RegistryRejection)
        -> InstanceInfo<R>
    {
        try await finish(beginPush(scene, value: value, from: from)).get()
    }

    /// ``push(_:value:from:)`` as far as it goes now: done, unless what backs the pushed
    /// window must start.
    public func beginPush(_ scene: String, value: JSONValue? = nil, from: InstanceID) -> RegistryStep<R, InstanceInfo<R>> {
        step("scene.push") { () throws(RegistryRejection) in try pushStep(scene, value: value, from: from) }
    }

    /// Pushes as far as it goes now; `requirementsOpened` says the scenes `scene` requires
    /// were opened already.
    private func pushStep(_ scene: String, value: JSONValue?, from: InstanceID, requirementsOpened: Bool = false)
        throws(RegistryRejection) -> RegistryStep<R, InstanceInfo<R>>
    {
        // Checked before any requirement opens, and again after.
        let id = try book.resolvePush(scene, value: value, from: from).get()
        if !requirementsOpened, book.requirements.requires[scene] != nil, let first = openingRequirements(of: scene, then: { registry throws(RegistryRejection) in
            try registry.pushStep(scene, value: value, from: from, requirementsOpened: true)
        }) {
            return first
        }
        reserve(id, value: value, pushedFrom: from)
        if startLaunch(id) { return .done(.success(try info(id))) }
        return afterOpening(id) { registry throws(RegistryRejection) in try registry.info(id) }
    }

    /// Dismisses one instance and the windows pushed from it.
    @discardableResult
    public func dismiss(_ id: InstanceID) throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("scene.dismiss") { (self) throws(RegistryRejection) in try self.dismissNow(id) }
    }

    /// Dismisses every instance of `scene`, or only the one(s) with `value`.
    @discardableResult
    public func dismiss(scene: String, value: JSONValue? = nil) throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("scene.dismiss") { (self) throws(RegistryRejection) in
            var dismissed: [InstanceID] = []
            for id in try self.book.dismissTargets(scene, value: value).get() {
                guard let reason = self.book.dismissReason(id) else { continue }
                dismissed += self.remove(id, reason: reason)
            }
            return dismissed
        }
    }

    /// Dismisses the open immersive space, whichever it is.
    @discardableResult
    public func dismissImmersive() throws(RegistryRejection) -> [InstanceID] {
        try rejectingSync("immersive.dismiss") { (self) throws(RegistryRejection) in
            guard let id = self.book.immersive else { throw .nothingToDismiss }
            return self.remove(id, reason: .requested)
        }
    }

    /// Focuses a window or volume.
    @discardableResult
    public func focus(_ id: InstanceID) throws(RegistryRejection) -> InstanceInfo<R> {
        try rejectingSync("scene.focus") { (self) throws(RegistryRejection) in
            try self.book.focusRequest(id).get()
            self.flush()
            return try self.info(id)
        }
    }

    /// Records a phase an instance reports for itself: `active`, `inactive` or
    /// `background`.
    public func setPhase(_ id: InstanceID, _ phase: ScenePhase) throws(RegistryRejection) {
        try rejectingSync("scene.phase") { (self) throws(RegistryRejection) in
            try self.book.report(id, phase).get()
            self.flush()
        }
    }
}
