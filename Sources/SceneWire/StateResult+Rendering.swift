import SceneCore
import Foundation
import SceneFlow

extension StateResult {
    /// The readable scene tree (the same text as `RegistryState.tree`).
    public var tree: String {
        SceneTree(
            app: app, phase: phase, focused: focused, immersive: immersive, pendingLink: pendingLink,
            scenes: scenes.map { scene in
                SceneTree.Scene(
                    id: scene.id, kind: SceneTree.describeKind(scene.kind, size: scene.size, style: scene.style),
                    policy: SceneTree.describePolicy(scene.instances, max: scene.max))
            },
            instances: instances.map { info in
                SceneTree.Instance(
                    id: info.id, scene: info.scene, value: info.value, phase: info.phase, focused: info.focused,
                    pushedFrom: info.pushedFrom, path: info.path.map(\.description))
            }
        ).text
    }

    /// The scenes, their instances and paths as a Graphviz `dot` graph.
    public var dot: String {
        var lines = ["digraph \"\(app)\" {", "  rankdir=LR;", "  node [shape=box];"]
        for scene in scenes {
            lines.append("  \"scene:\(scene.id)\" [label=\"\(escape(scene.id))\\n\(escape("\(scene.kind), \(scene.instances)"))\", shape=folder];")
        }
        for info in instances {
            // Each part escaped, then joined by DOT's own line break (`\n`, written once).
            let label = graphLabel(info).map(escape).joined(separator: "\\n")
            lines.append("  \"\(info.id)\" [label=\"\(label)\"\(info.focused ? ", style=bold" : "")];")
            lines.append("  \"scene:\(info.scene)\" -> \"\(info.id)\";")
            var previous = info.id
            for (index, step) in info.path.enumerated() {
                let node = "\(info.id)#\(index)"
                lines.append("  \"\(node)\" [label=\"\(escape(step.description))\", shape=\(step.isModal ? "note" : "box"), style=rounded];")
                lines.append("  \"\(previous)\" -> \"\(node)\";")
                previous = node
            }
            if let parent = info.pushedFrom {
                lines.append("  \"\(parent)\" -> \"\(info.id)\" [label=\"pushed\", style=dashed];")
            }
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }

    /// The same graph as Mermaid `flowchart` text.
    public var mermaid: String {
        func id(_ text: String) -> String { text.map { $0.isLetter || $0.isNumber ? String($0) : "_" }.joined() }
        var lines = ["flowchart LR"]
        for scene in scenes {
            lines.append("  scene_\(id(scene.id))[[\"\(mermaidEscape(scene.id)) (\(scene.kind), \(scene.instances))\"]]")
        }
        for info in instances {
            let label = graphLabel(info).joined(separator: " · ")
            lines.append("  \(id(info.id))[\"\(mermaidEscape(label))\"]")
            lines.append("  scene_\(id(info.scene)) --> \(id(info.id))")
            var previous = id(info.id)
            for (index, step) in info.path.enumerated() {
                let node = "\(id(info.id))_\(index)"
                lines.append("  \(node)(\"\(mermaidEscape(step.description))\")")
                lines.append("  \(previous) --> \(node)")
                previous = node
            }
            if let parent = info.pushedFrom { lines.append("  \(id(parent)) -. pushed .-> \(id(info.id))") }
        }
        return lines.joined(separator: "\n")
    }

    /// An instance's label in a graph, as its lines: id and value, then phase and focus.
    private func graphLabel(_ info: InstanceObject) -> [String] {
        var label = info.id
        if !info.value.isNull { label += " = \(info.value)" }
        return [label, info.phase + (info.focused ? ", focused" : "")]
    }

    private func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
    }

    private func mermaidEscape(_ text: String) -> String {
        text.replacingOccurrences(of: "\"", with: "#quot;")
    }
}
