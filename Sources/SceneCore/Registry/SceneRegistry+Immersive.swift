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
            let id = try self.book.openImmersive.get()
            let before = self.infoIfOpen(id)?.style
            guard let declaration = self.declarationsByID[id.scene] else { throw .instanceNotOpen(id) }
            let changes = try declaration.styleChange(to: style, from: before, of: id).get()
            self.styles[id] = style
            let info = try self.info(id)
            if changes {
                self.flush()
                self.log.emit(.changed(info))
            }
            return info
        }
    }
}
