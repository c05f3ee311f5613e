package import SceneJSON

/// What an open does, once its scene's instance policy, the immersive rules and the
/// instance's phase are read.
package enum OpenAction: Hashable, Sendable {
    /// Wait for `id`, which is still opening, and answer it focused.
    case join(InstanceID)
    /// Focus `id`, which is open.
    case focus(InstanceID)
    /// Open instance `id`, once the instance it replaces (an open immersive space, under
    /// ``ImmersivePolicy/replace``) is dismissed.
    case open(InstanceID, replacing: Replacement?)
}

/// The instance an open replaces, and whether the instances that require its scene go with
/// it: not when it is replaced by an instance of its own scene, which so stays open.
package struct Replacement: Hashable, Sendable {
    package let id: InstanceID
    package let takesDependents: Bool

    package init(_ id: InstanceID, takesDependents: Bool) {
        self.id = id
        self.takesDependents = takesDependents
    }

    /// Its reason: `replaced`.
    package var reason: DismissReason { .replaced }
}

/// The instance a request that names a scene rather than an instance goes to: a call or
/// notification to the scene, a deep link.
package enum InstanceChoice: Hashable, Sendable {
    /// `id`, which is open, as it is.
    case existing(InstanceID)
    /// `id` once it is active: it is still opening.
    case join(InstanceID)
    /// A new instance, opened by the scene's usual rules.
    case new
}

extension RegistryBook {
    // MARK: What an open does

    /// What opening `scene` with `value` does: join an instance still opening, focus an
    /// open one, or open a new one (replacing the open immersive space under `replace`);
    /// changes nothing. Refused as ``resolveOpen(_:value:)`` refuses.
    package func openAction(_ scene: String, value: JSONValue?) -> Result<OpenAction, RegistryRejection> {
        switch resolveOpen(scene, value: value) {
        case .failure(let rejection):
            return .failure(rejection)
        case .success(.existing(let id)):
            return .success(records[id]?.phase == .opening ? .join(id) : .focus(id))
        case .success(.new(let id, nil)):
            return .success(.open(id, replacing: nil))
        case .success(.new(let id, let replacing?)):
            return .success(.open(id, replacing: Replacement(replacing, takesDependents: replacing.scene != scene)))
        }
    }

    /// Whether an intent `id`'s behaviour sends its own flow now shapes the path the
    /// instance opens with, with no event (its `scene.opened` carries the path): while it
    /// is still opening, as a deep link's plan does.
    package func presetsPath(of id: InstanceID) -> Bool {
        records[id]?.phase == .opening
    }

    // MARK: Calls to a scene

    /// Where a call to `scene` goes: its most recent instance (``mostRecent(of:)``); when
    /// that one is still opening and the scene is `activatable`, that instance once it is
    /// active (so that the calls that come while it opens all go to that one instance);
    /// when none is open, a new one if the scene is `activatable`.
    ///
    /// - Refused `unknown_scene`, or `not_open` when nothing is open and the scene is not
    ///   activatable.
    package func activationTarget(of scene: String, activatable: Bool) -> Result<InstanceChoice, RegistryRejection> {
        guard scenes[scene] != nil else { return .failure(.unknownScene(scene)) }
        if let id = mostRecent(of: scene) {
            return .success(activatable && records[id]?.phase == .opening ? .join(id) : .existing(id))
        }
        return activatable ? .success(.new) : .failure(.notOpen(scene))
    }

    // MARK: The immersive space

    /// The open immersive space a style change applies to: refused `not_open` when none is
    /// open, or the one there is still opening.
    package var openImmersive: Result<InstanceID, RegistryRejection> {
        guard let id = immersive, records[id]?.phase != .opening else { return .failure(.notOpen("an immersive space")) }
        return .success(id)
    }

    /// What `immersive.dismiss` removes: the immersive space, whichever it is, `requested`
    /// (`cancelled` while it opens, as every dismissal of an instance still opening);
    /// refused `nothing_to_dismiss` when there is none.
    package var immersiveDismissal: Result<Removal, RegistryRejection> {
        guard let id = immersive, let reason = dismissReason(id) else { return .failure(.nothingToDismiss) }
        return .success(Removal(id, reason))
    }
}

extension SceneDeclaration {
    /// Whether setting this immersive space's style to `style`, from `current`, changes it
    /// (and so is announced); refused `style_not_allowed` for a style it does not declare
    /// among its ``allowedStyles``.
    package func styleChange(to style: ImmersionStyle, from current: ImmersionStyle?, of id: InstanceID) -> Result<Bool, RegistryRejection> {
        guard allowedStyles.contains(style) else { return .failure(.styleNotAllowed(id, style: style, allowed: allowedStyles)) }
        return .success(current != style)
    }
}
