import SceneFlow

extension SceneRegistry {
    /// Changes the open immersive space's style, as visionOS's `immersionStyle(selection:in:)`
    /// does while a space is open: a `scene.changed` event with the instance as it is now
    /// (none when the style is already that one).
    ///
    /// - Throws: `not_open` when no immersive space is open; `style_not_allowed` for a style
    ///   its scene does not declare among its `styles` (each also a `request.rejected`).
    @discardableResult
    public func setImmersiveStyle(_ style: ImmersionStyle) throws(RegistryRejection) -> InstanceInfo<R> {
        try rejectingSync("immersive.style") { (self) throws(RegistryRejection) in
            guard let id = self.book.immersive, let record = self.book.records[id], record.phase != .opening,
                let declaration = self.declarationsByID[id.scene]
            else { throw .notOpen("an immersive space") }
            let allowed = declaration.allowedStyles
            guard allowed.contains(style) else { throw .styleNotAllowed(id, style: style, allowed: allowed) }
            let before = self.infoIfOpen(id)?.style
            self.styles[id] = style
            let info = try self.info(id)
            if before != style {
                self.flush()
                self.log.emit(.changed(info))
            }
            return info
        }
    }
}
