import SceneCore
import SceneFlow
import SceneJSON
import Testing

/// One request awaiting a presentation, told apart by identity.
private final class Waiter: Sendable {}

@Suite("Presentations: who awaits a result, and how a presentation ends")
struct PresentationBookRules {
    private let main = InstanceID(scene: "main", number: 1)
    private let picker = InstanceID(scene: "picker", number: 1)
    private let other = InstanceID(scene: "main", number: 2)

    @Test("a finished instance answers all its waiters; one not open or nobody awaits is not_presented")
    func finish() {
        var book = PresentationBook<Waiter>()
        let (first, second) = (Waiter(), Waiter())
        book.await(first, on: picker, from: main)
        book.await(second, on: picker, from: other)
        #expect(book.finish(picker, as: Optional<Int>.none).map(\.1) == .failure(.notPresented(picker)))
        guard case .success(let (presentation, instance)) = book.finish(picker, as: 7) else {
            Issue.record("the presentation must finish")
            return
        }
        #expect(instance == 7)
        #expect(presentation.from == main)
        #expect(presentation.waiters.map(ObjectIdentifier.init) == [first, second].map(ObjectIdentifier.init))
        #expect(book.isEmpty)
        #expect(book.finish(picker, as: 7).map(\.1) == .failure(.notPresented(picker)))
    }

    @Test("a forgotten waiter no longer waits; a presentation nobody awaits ends")
    func forget() {
        var book = PresentationBook<Waiter>()
        let (first, second) = (Waiter(), Waiter())
        book.await(first, on: picker, from: main)
        book.await(second, on: picker, from: main)
        book.forget(first)
        #expect(book.presented[picker]?.waiters.map(ObjectIdentifier.init) == [ObjectIdentifier(second)])
        book.forget(second)
        #expect(book.isEmpty)
    }

    @Test("a presented instance dismissed ends dismissed_without_result; those presented from a dismissed one are orphans, by id")
    func end() {
        var book = PresentationBook<Waiter>()
        let (waiter, orphanWaiter) = (Waiter(), Waiter())
        let second = InstanceID(scene: "picker", number: 2)
        book.await(waiter, on: picker, from: main)
        book.await(orphanWaiter, on: second, from: other)
        let (withoutResult, orphans) = book.end(after: [picker, other])
        #expect(withoutResult.map { ObjectIdentifier($0.0) } == [ObjectIdentifier(waiter)])
        #expect(withoutResult.map(\.1) == [.dismissedWithoutResult(picker)])
        #expect(orphans == [second])
        let taken = book.take(second)
        #expect(taken.map(PresentationBook<Waiter>.orphaned) == .parentDismissed(other))
        #expect(book.take(second) == nil)
    }

    @Test("an orphan is dismissed parent_dismissed only while open and not presented anew")
    func orphanDismissed() {
        var book = PresentationBook<Waiter>()
        #expect(book.dismissesOrphan(picker, isOpen: true))
        #expect(!book.dismissesOrphan(picker, isOpen: false))
        book.await(Waiter(), on: picker, from: other)
        #expect(!book.dismissesOrphan(picker, isOpen: true))
    }
}

private func info(_ text: String) -> InstanceInfo<JSONValue> {
    let id = InstanceID(text)!
    return InstanceInfo(id: id, scene: id.scene, kind: .window, value: nil, phase: .active, focused: true, path: [], pushedFrom: nil)
}

@Suite("Programs: $k, a link step's outcome, and where a link's program lands")
struct ProgramRules {
    private typealias Result_ = ProgramStepResult<JSONValue>

    @Test("$k names the instance of step k's result; a result that names none is not_open; an id is itself")
    func references() {
        let results: [Result_] = [.opened(.opened(info("main-1"))), .dismissed([InstanceID("notes-1")!])]
        #expect(Result_.instance(.step(0), after: results) == .success(InstanceID("main-1")!))
        #expect(Result_.instance(.step(1), after: results) == .failure(.notOpen("$1 (step 1 answered no instance)")))
        #expect(Result_.instance(.id(InstanceID("x-3")!), after: []) == .success(InstanceID("x-3")!))
    }

    @Test(
        "a program whose $k names no earlier step, or a step whose result has no instance, is invalid at that step",
        arguments: [
            ([ProgramStep<JSONValue>.open(scene: "main", value: nil), .focus(.step(0))], nil as Int?),
            ([.focus(.step(0))], 0),
            ([.open(scene: "main", value: nil), .focus(.step(1))], 1),
            ([.open(scene: "main", value: nil), .focus(.step(-1))], 1),
            ([.dismissImmersive, .focus(.step(0))], 1),
            ([.focus(.id(InstanceID("main-1")!))], nil),
        ])
    func validity(steps: [ProgramStep<JSONValue>], invalidStep: Int?) {
        #expect(ProgramStep.problem(in: steps)?.step == invalidStep)
    }

    @Test("a link step fails with a refused or unhandled link's reason, or its failed program's; else it is the step's result")
    func linked() {
        let failed = ProgramOutcome<JSONValue>(
            results: [], failure: ProgramFailure(step: 0, method: "scene.open", reason: .unknownScene("x")))
        #expect(Result_.linked(.rejected(.noHandler)) == .failure(.noHandler))
        #expect(Result_.linked(.unhandled(path: "/x")) == .failure(.linkUnhandled(path: "/x")))
        #expect(Result_.linked(.program(failed)) == .failure(.unknownScene("x")))
        let handled = LinkOutcome<JSONValue>.handled(info("main-1"), opened: false)
        #expect(Result_.linked(handled) == .success(.linked(handled)))
        let pending = LinkOutcome<JSONValue>.pending(url: "app://x", superseded: nil)
        #expect(Result_.linked(pending) == .success(.linked(pending)))
    }

    @Test("a link's program lands in the last instance a step names, opened when any step opened one; not when a step failed")
    func landing() {
        let steps: [Result_] = [.opened(.opened(info("notes-1"))), .focused(info("main-1")), .dismissed([])]
        let landed = ProgramOutcome(results: steps, failure: nil).linkLanding
        #expect(landed?.instance == InstanceID("main-1")! && landed?.opened == true)
        let focusedOnly = ProgramOutcome<JSONValue>(results: [.opened(.focused(info("main-1")))], failure: nil).linkLanding
        #expect(focusedOnly?.opened == false)
        #expect(ProgramOutcome<JSONValue>(results: [.dismissed([])], failure: nil).linkLanding == nil)
        let failure = ProgramFailure(step: 1, method: "scene.open", reason: .noHandler)
        #expect(ProgramOutcome(results: steps, failure: failure).linkLanding == nil)
    }
}

private func saved(_ id: String, phase: ScenePhase = .active, pushedFrom: String? = nil) -> InstanceSnapshot<JSONValue> {
    InstanceSnapshot(
        id: InstanceID(id)!, value: nil, phase: phase, flow: FlowSnapshot(path: [], queuedModals: []),
        pushedFrom: pushedFrom.flatMap(InstanceID.init))
}

private func snapshot(
    _ instances: [InstanceSnapshot<JSONValue>], focus: [String] = [], counters: [String: Int] = [:],
    closed: [InstanceSnapshot<JSONValue>]? = nil
) -> RegistrySnapshot<JSONValue> {
    RegistrySnapshot(
        app: "plan", instances: instances, focusOrder: focus.compactMap(InstanceID.init), immersive: nil, pendingLink: nil,
        authenticated: false, counters: counters, closed: closed)
}

private let declarations: [String: SceneDeclaration<JSONValue>] = [
    "main": SceneDeclaration(id: "main", kind: .window, instances: .single),
    "notes": SceneDeclaration(id: "notes", kind: .window),
    "draft": SceneDeclaration(id: "draft", kind: .window, restore: false),
    "globe": SceneDeclaration(id: "globe", kind: .volume(size: VolumeSize(width: 1, height: 1, depth: 1))),
]

private var emptyBook: RegistryBook {
    RegistryBook(
        scenes: declarations.mapValues { SceneFacts(kind: $0.kind, policy: $0.instances) }, immersivePolicy: .reject,
        requirements: RequirementGraph())
}

private func plan(_ snapshot: RegistrySnapshot<JSONValue>) throws(RegistryRestoreError) -> RestorePlan<JSONValue> {
    try RestorePlan(restoring: snapshot, over: emptyBook, app: "plan", declarations: declarations)
}

private func problems(_ snapshot: RegistrySnapshot<JSONValue>) -> [String] {
    do {
        _ = try plan(snapshot)
        return []
    } catch {
        return error.problems.map(\.path)
    }
}

@Suite("Restoring a snapshot, as a plan: what comes back, and what refuses it whole")
struct RestorePlanRules {
    @Test("instances come back in order, one opening as active; a scene not restored is skipped, its numbers still used")
    func kept() throws {
        let restored = try plan(snapshot(
            [saved("main-1"), saved("notes-3", phase: .opening), saved("draft-2")], focus: ["main-1", "notes-3"]))
        #expect(restored.kept.map(\.id.description) == ["main-1", "notes-3"])
        #expect(restored.book.records[InstanceID("notes-3")!]?.phase == .active)
        #expect(restored.book.records[InstanceID("draft-2")!] == nil)
        #expect(restored.book.counters["draft"] == 2)
        #expect(restored.book.focused == InstanceID("notes-3")!)
    }

    @Test("a disconnected instance stays so only when a process will start for it", arguments: [
        (ScenePhase.disconnected, true, ScenePhase.disconnected), (.disconnected, false, .active), (.opening, true, .active),
        (.background, false, .background),
    ])
    func phase(saved: ScenePhase, launched: Bool, restored: ScenePhase) {
        #expect(RestorePlan<JSONValue>.restoredPhase(saved, launched: launched) == restored)
    }

    @Test("every problem is reported at once, each where it is: undeclared, duplicate, closed, a broken policy, a bad push")
    func everyProblem() {
        #expect(problems(snapshot([
            saved("gone-1"), saved("notes-1"), saved("notes-1"), saved("notes-2", phase: .closed), saved("main-1"), saved("main-2"),
            saved("notes-4", pushedFrom: "notes-4"), saved("globe-1"), saved("notes-5", pushedFrom: "globe-1"),
        ], focus: ["notes-9"], counters: ["notes": -1])) == [
            "instances[0].id", "instances[2].id", "instances[3].phase", "instances[5]", "instances[6].pushedFrom",
            "instances[8].pushedFrom", "focusOrder[0]", "counters.notes",
        ])
    }

    @Test("pushed windows: one level, one child per parent; the parent is hidden from focus while covered")
    func pushes() throws {
        let restored = try plan(snapshot([saved("main-1"), saved("notes-1", pushedFrom: "main-1")], focus: ["main-1", "notes-1"]))
        #expect(restored.book.records[InstanceID("main-1")!]?.pushedChild == InstanceID("notes-1")!)
        #expect(restored.book.focus.ordered == [InstanceID("notes-1")!])
        #expect(problems(snapshot([
            saved("main-1"), saved("notes-1", pushedFrom: "main-1"), saved("notes-2", pushedFrom: "main-1"),
            saved("notes-3", pushedFrom: "notes-1"),
        ])) == ["instances[2].pushedFrom", "instances[3].pushedFrom"])
    }

    @Test("a pushed window not restored gives its parent its place; one whose parent is not restored is a window of its own")
    func skippedPushes() throws {
        let uncovered = try plan(snapshot([saved("main-1", phase: .background), saved("draft-1", pushedFrom: "main-1")]))
        #expect(uncovered.book.records[InstanceID("main-1")!]?.phase == .active)
        let orphan = try plan(snapshot([saved("draft-1"), saved("notes-1", pushedFrom: "draft-1")]))
        #expect(orphan.book.records[InstanceID("notes-1")!]?.pushedFrom == nil)
    }

    @Test("what can be reopened: entries of scenes still declared and restored")
    func reopenable() throws {
        let restored = try plan(snapshot([], closed: [saved("notes-7", phase: .closed), saved("draft-1", phase: .closed), saved("gone-1", phase: .closed)]))
        #expect(restored.reopenable.map(\.id.description) == ["notes-7"])
    }
}

@Suite("Loading a session: how each saved instance opens, and the focus after")
struct SessionOpeningRules {
    private func plan(_ instances: [InstanceSnapshot<JSONValue>], focus: [String] = []) -> SessionPlan<JSONValue> {
        SessionPlan(loading: snapshot(instances, focus: focus), over: emptyBook)
    }

    @Test("a saved window opens; one pushed opens pushed from its parent's new instance, or not at all when that did not open")
    func opening() {
        let load = plan([saved("main-1"), saved("notes-2", pushedFrom: "main-1")])
        #expect(load.opening(saved("main-1"), renamed: [:]) == .open)
        #expect(load.opening(saved("notes-2", pushedFrom: "main-1"), renamed: [InstanceID("main-1")!: InstanceID("main-4")!])
            == .push(from: InstanceID("main-4")!))
        #expect(load.opening(saved("notes-2", pushedFrom: "main-1"), renamed: [:]) == .skip)
    }

    @Test("focus follows the saved order, under the new ids, leaving out what did not open")
    func focus() {
        let load = plan([saved("main-1"), saved("notes-2")], focus: ["notes-2", "main-1"])
        #expect(load.focusOrder(renamed: [InstanceID("main-1")!: InstanceID("main-5")!]) == [InstanceID("main-5")!])
    }

    @Test("a saved path opens again only while it is valid")
    func savedPlan() {
        #expect(saved("main-1").savedPlan?.steps == [])
        let invalid = InstanceSnapshot<JSONValue>(
            id: InstanceID("main-1")!, value: nil, phase: .active,
            flow: FlowSnapshot(path: [.sheet("a"), .sheet("b")], queuedModals: []), pushedFrom: nil)
        #expect(invalid.savedPlan == nil)
    }
}

@Suite("A program step written as JSON reads back as itself")
struct ProgramStepJSONTests {
    @Test(
        "every kind of step, with ids and $k references",
        arguments: [
            ProgramStep<JSONValue>.open(scene: "viewer", value: "7"), .open(scene: "main", value: nil),
            .push(scene: "notes", value: nil, from: .step(0)), .focus(.id(InstanceID("main-1")!)),
            .dismiss(.step(1), force: true), .dismissScene("viewer", value: "7", force: false), .dismissImmersive,
            .route(["screen": "globe"], from: .id(InstanceID("main-1")!)), .send(.push("a"), to: .step(0)),
            .apply([.push("a"), .sheet("b")], to: .step(0)), .link("demo://demo.example/viewer/7"),
        ])
    func roundTrip(step: ProgramStep<JSONValue>) throws {
        #expect(try ProgramStep<JSONValue>(json: step.json(), at: 0) == step)
    }
}
