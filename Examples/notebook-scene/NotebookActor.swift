// The notebook again, as a Swift distributed actor: its methods are `distributed func`s
// that any caller — another scene's code, the embedding program, a client in another
// process — calls with the compiler checking them. It runs in process or in a scene
// process (swift-scene --distributed) as the plain notebook does.
public import Distributed
public import SceneCore
import SceneFlow
public import SceneJSON

/// What every notebook answers, whoever implements it: a caller may depend on this
/// protocol alone (`$NotebookService.resolve(id:using:)`), and a scene in another language
/// answers it by the same names (`title()`, `save(draft:count:)`).
@Resolvable
public protocol NotebookService: DistributedActor where ActorSystem == SceneActorSystem {
    /// Its title.
    distributed func title() async throws -> String
    /// Keeps `draft`; answers its length times `count`.
    distributed func save(draft: String, count: Int) async throws -> Int
}

/// A notebook scene as a distributed actor.
public distributed actor NotebookActor: DistributedScene, NotebookService {
    public typealias R = JSONValue

    private let name: String
    private let context: SceneContext<JSONValue>
    private let log: @Sendable (String) -> Void
    private var drafts: [String] = []

    /// It runs beside what it talks to (the coordinator's loop in process, the client's
    /// loop in a scene process), as the plain notebook does: a call to it takes no thread
    /// switch.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { actorSystem.executor }

    public init(title: String, context: SceneContext<JSONValue>, log: @escaping @Sendable (String) -> Void = { _ in }) {
        name = title
        self.context = context
        self.log = log
        actorSystem = context.actorSystem
    }

    public func start() async throws {
        log("started as \(context.instance), a distributed actor")
    }

    public distributed func title() -> String { name }

    public distributed func save(draft: String, count: Int) -> Int {
        drafts.append(draft)
        return draft.count * count
    }

    /// The drafts kept, in order.
    public distributed func saved() -> [String] { drafts }

    /// Saves `draft` in `other`, a notebook handed over by reference, wherever it runs.
    public distributed func relay(to other: NotebookActor, draft: String) async throws -> Int {
        log("\(context.instance) → \(other.id): save(draft:count:)")
        return try await other.save(draft: draft, count: 1)
    }

    /// Saves `draft` in whatever answers ``NotebookService`` at `target` (a scene in any
    /// language).
    public distributed func relay(toService target: SceneTarget, draft: String) async throws -> Int {
        try await $NotebookService.resolve(id: target, using: actorSystem).save(draft: draft, count: 1)
    }

    /// Refuses, with its own error.
    public distributed func refuse(reason: String) throws -> Int {
        throw SceneError.domain(reason: ReasonCode(rawValue: reason), message: "the notebook refuses")
    }

    /// Fails with an error that is not a call error.
    public distributed func fail() throws -> Int {
        throw NotebookFailure.pageTorn
    }

    /// Announces `hanging`, then answers only after `seconds`.
    public distributed func hang(seconds: Int) async throws -> Int {
        try await context.emit("hanging")
        try? await Task.sleep(for: .seconds(seconds))
        return seconds
    }

    /// `{"n": n}`: the payload of the plain notebook's `echo` with those params, as a typed
    /// call (the benchmarks compare the two).
    public distributed func echo(n: Int) -> Echoed { Echoed(n: n) }

    /// Itself, as a reference a caller may hand on.
    public distributed func itself() -> NotebookActor { self }
}

/// What ``NotebookActor/echo(n:)`` answers.
public struct Echoed: Codable, Hashable, Sendable {
    public var n: Int
    public init(n: Int) { self.n = n }
}

/// Why a notebook failed.
public enum NotebookFailure: Error {
    case pageTorn
}
