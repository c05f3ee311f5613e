import Foundation
import SceneCore
import SceneJSON
import SceneWire
import Testing

/// The `label` attributes of a DOT text, unescaped as Graphviz reads them: `\"` is a
/// quote, `\\` a backslash, `\n` a line break.
private func dotLabels(_ dot: String) -> [String] {
    var labels: [String] = []
    var rest = Substring(dot)
    while let start = rest.range(of: "label=\"") {
        var label = ""
        var index = start.upperBound
        while index < rest.endIndex, rest[index] != "\"" {
            if rest[index] == "\\" {
                index = rest.index(after: index)
                switch rest[index] {
                case "n": label.append("\n")
                default: label.append(rest[index])
                }
            } else {
                label.append(rest[index])
            }
            index = rest.index(after: index)
        }
        labels.append(label)
        rest = rest[index...].dropFirst()
    }
    return labels
}

@Suite("The scene tree as a graph")
struct StateGraphTests {
    private func state() async throws -> StateResult {
        let registry = try SceneRegistry(manifest: .demo)
        _ = try await registry.open("viewer", value: "42")
        _ = try await registry.instance(InstanceID(scene: "viewer", number: 1))?.send(.push(["say": "\"hi\""]))
        return StateResult(await registry.state())
    }

    @Test("DOT labels read back as their text: one line break between id and phase, quotes and backslashes kept")
    func dotReadsBack() async throws {
        let dot = try await state().dot
        let labels = dotLabels(dot)
        #expect(labels.contains("viewer-1 = \"42\"\nactive, focused"), "\(labels)")
        #expect(labels.contains("viewer\nwindow, perValue"))
        #expect(labels.contains(#"push({"say":"\"hi\""})"#), "\(labels)")
        #expect(!dot.contains(#"\\n"#))
    }

    @Test("Graphviz renders the DOT text, when it is installed")
    func graphvizRenders() async throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("state-graph-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("state.dot")
        try Data(try await state().dot.utf8).write(to: input)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
        process.arguments = ["-Tsvg", "-o", folder.appendingPathComponent("state.svg").path, input.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }

    @Test("Mermaid labels hold no raw quote, and every line is a node, an edge or the header")
    func mermaidShape() async throws {
        let mermaid = try await state().mermaid
        let lines = mermaid.split(separator: "\n").map(String.init)
        #expect(lines.first == "flowchart LR")
        for line in lines.dropFirst() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            let isEdge = trimmed.contains(" --> ") || trimmed.contains(" -. pushed .-> ")
            let quoted = trimmed.split(separator: "\"", omittingEmptySubsequences: false)
            // A node's label is the one quoted part: exactly two quotes on its line.
            #expect(isEdge || quoted.count == 3, "\(line)")
        }
        #expect(mermaid.contains("viewer_1[\"viewer-1 = #quot;42#quot; · active, focused\"]"))
    }
}
