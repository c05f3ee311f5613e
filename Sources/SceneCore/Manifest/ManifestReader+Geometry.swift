import SceneJSON

extension ManifestReader {
    /// `defaultSize`, `resizability`, `placement` and `styles`: a scene's geometry, each
    /// for the kinds it fits (a window's size, a window's or volume's resizability and
    /// placement, an immersive space's styles, among which its `style`).
    mutating func readGeometry(_ members: [String: JSONValue], at path: String, kind: SceneKind) -> SceneGeometry {
        var geometry = SceneGeometry()
        if let value = members["defaultSize"] {
            if kind != .window {
                report("\(path).defaultSize", kind.isImmersive ? "an immersive space has no size" : "a volume has its size in \"size\"")
            } else if case .object(let size) = value, size.count == 2, let width = size["width"]?.doubleValue,
                let height = size["height"]?.doubleValue, width > 0, height > 0, width.isFinite, height.isFinite
            {
                geometry.defaultSize = WindowSize(width: width, height: height)
            } else {
                report("\(path).defaultSize", "must be {\"width\", \"height\"} of positive numbers, in points")
            }
        }
        if let value = members["resizability"] {
            if kind.isImmersive {
                report("\(path).resizability", "only a window or a volume is resized")
            } else if let text = value.stringValue, let resizability = Resizability(rawValue: text) {
                geometry.resizability = resizability
            } else {
                report("\(path).resizability", "must be \"automatic\", \"contentSize\" or \"contentMinSize\"")
            }
        }
        if let value = members["placement"] {
            if kind.isImmersive {
                report("\(path).placement", "only a window or a volume is placed")
            } else if let placement = WindowPlacement(json: value) {
                geometry.placement = placement
            } else {
                report("\(path).placement", "must be \"utilityPanel\" or {\"relativeTo\": a scene id, \"position\": \"leading\", \"trailing\", \"above\" or \"below\"}")
            }
        }
        if let value = members["styles"] {
            guard case .immersive(let style) = kind else {
                report("\(path).styles", "only an immersive space has styles")
                return geometry
            }
            let names = value.arrayValue?.compactMap(\.stringValue) ?? []
            let styles = names.compactMap(ImmersionStyle.init(rawValue:))
            if names.isEmpty || styles.count != names.count || styles.count != value.arrayValue?.count || Set(styles).count != styles.count {
                report("\(path).styles", "must be a list of distinct styles among \"mixed\", \"progressive\" and \"full\"")
            } else if !styles.contains(style) {
                report("\(path).style", "\"\(style.rawValue)\" is not among the scene's styles \(names)")
            } else {
                geometry.styles = styles
            }
        }
        return geometry
    }
}
