import SceneCore
import SceneJSON
import Testing

/// A bookkeeping value with `open` opened (each `"scene"`, or `"scene opening"` for one
/// still opening), and a group supervision over `groups`.
private func supervised(
    _ scenes: [String: [String]], groups: [SupervisionGroup], open: [String]
) throws -> (RegistryBook, GroupSupervision) {
    let graph = RequirementGraph(scenes.keys.sorted().map { RequirementGraph.Scene(id: $0, requires: scenes[$0]!) })
    var book = RegistryBook(
        scenes: scenes.mapValues { _ in SceneFacts(kind: .window, policy: .multiple(max: nil)) }, immersivePolicy: .reject,
        requirements: graph)
    for step in open {
        let words = step.split(separator: " ").map(String.init)
        guard case .new(let id, _) = try book.resolveOpen(words[0], value: nil).get() else { continue }
        book.reserve(id, value: nil)
        if words.last != "opening" { book.activate(id) }
    }
    var byScene: [String: SupervisionGroup] = [:]
    for group in groups { for scene in group.scenes { byScene[scene] = group } }
    return (book, GroupSupervision(groups: byScene))
}

private let trio: [String: [String]] = ["a": [], "b": [], "c": [], "loner": []]

@Suite("Supervision groups as a value: who restarts with a scene, and the intensity that dismisses them all")
struct GroupSupervisionTests {
    @Test(
        "within the intensity, the strategy names who restarts with a scene",
        arguments: [
            (SupervisionGroup.Strategy.oneForOne, "b", [String]()),
            (.oneForAll, "b", ["a-1", "c-1"]),
            (.restForOne, "b", ["c-1"]),
            (.restForOne, "c", []),
        ])
    func strategy(_ strategy: SupervisionGroup.Strategy, restarted scene: String, others: [String]) throws {
        let (book, initial) = try supervised(
            trio, groups: [SupervisionGroup(id: "g", strategy: strategy, scenes: ["a", "b", "c"])], open: ["a", "b", "c"])
        var groups = initial
        let decision = groups.restarted(InstanceID(scene: scene, number: 1), now: 0, in: book)
        #expect(decision == .restart(group: "g", others: others.compactMap(InstanceID.init)))
    }

    @Test("a scene in no group, or an instance that is not open, restarts alone")
    func alone() throws {
        let (book, initial) = try supervised(
            trio, groups: [SupervisionGroup(id: "g", strategy: .oneForAll, scenes: ["a", "b"])], open: ["a", "b", "loner"])
        var groups = initial
        #expect(groups.restarted(InstanceID(scene: "loner", number: 1), now: 0, in: book) == .alone)
        #expect(groups.restarted(InstanceID(scene: "a", number: 9), now: 0, in: book) == .alone)
        #expect(groups.histories.isEmpty)
    }

    @Test("one restart more than maxRestarts within the window dismisses every member restart_intensity, an opening one too")
    func intensity() throws {
        let group = SupervisionGroup(id: "g", strategy: .oneForOne, scenes: ["a", "b"], maxRestarts: 2, withinSeconds: 10)
        let (book, initial) = try supervised(trio, groups: [group], open: ["a", "b opening"])
        var groups = initial
        let a = InstanceID(scene: "a", number: 1)
        #expect(groups.restarted(a, now: 0, in: book) == .restart(group: "g", others: []))
        #expect(groups.restarted(a, now: 5, in: book) == .restart(group: "g", others: []))
        #expect(groups.restarted(a, now: 9, in: book) == .dismiss(group: "g", [
            Removal(InstanceID(scene: "a", number: 1), .restartIntensity), Removal(InstanceID(scene: "b", number: 1), .restartIntensity),
        ]))
    }

    @Test("restarts older than the window no longer count")
    func window() throws {
        let group = SupervisionGroup(id: "g", strategy: .oneForOne, scenes: ["a"], maxRestarts: 1, withinSeconds: 10)
        let (book, initial) = try supervised(trio, groups: [group], open: ["a"])
        var groups = initial
        let a = InstanceID(scene: "a", number: 1)
        #expect(groups.restarted(a, now: 0, in: book) == .restart(group: "g", others: []))
        #expect(groups.restarted(a, now: 10, in: book) == .restart(group: "g", others: []))
        #expect(groups.restarted(a, now: 15, in: book) == .dismiss(group: "g", [Removal(a, .restartIntensity)]))
    }

    @Test("past the intensity, a dependent still opening goes cancelled")
    func openingDependent() throws {
        let scenes: [String: [String]] = ["a": [], "user": ["a"]]
        let group = SupervisionGroup(id: "g", strategy: .oneForOne, scenes: ["a"], maxRestarts: 0)
        let (book, initial) = try supervised(scenes, groups: [group], open: ["a", "user opening"])
        var groups = initial
        #expect(groups.restarted(InstanceID(scene: "a", number: 1), now: 0, in: book) == .dismiss(group: "g", [
            Removal(InstanceID(scene: "user", number: 1), .cancelled), Removal(InstanceID(scene: "a", number: 1), .restartIntensity),
        ]))
    }

    @Test("past the intensity, instances of other scenes that require a member go too, requirement_dismissed, before the members they require")
    func dependentsFirst() throws {
        let scenes: [String: [String]] = ["a": [], "b": [], "user": ["a"]]
        let group = SupervisionGroup(id: "g", strategy: .oneForOne, scenes: ["a", "b"], maxRestarts: 0)
        let (book, initial) = try supervised(scenes, groups: [group], open: ["a", "b", "user"])
        var groups = initial
        #expect(groups.restarted(InstanceID(scene: "b", number: 1), now: 0, in: book) == .dismiss(group: "g", [
            Removal(InstanceID(scene: "b", number: 1), .restartIntensity),
            Removal(InstanceID(scene: "user", number: 1), .requirementDismissed),
            Removal(InstanceID(scene: "a", number: 1), .restartIntensity),
        ]))
    }
}
