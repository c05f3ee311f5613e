import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

/// What registry requests answer, as the wire writes it: a program's steps' results, a
/// program's answer, a link's answer, and a program's steps in the registry's own routes.
enum WireResults {
    /// A program step's result as the wire writes it: the result of the method it stands
    /// for.
    static func result<R: Route>(_ result: ProgramStepResult<R>) -> any WireWritable {
        typealias Routes = WireRoutes<R>
        switch result {
        case .opened(let outcome):
            return InstanceInfoResult(Routes.json(outcome.instance), outcome: outcome.name)
        case .pushed(let info), .focused(let info):
            return InstanceInfoResult(Routes.json(info))
        case .dismissed(let dismissed), .dismissedImmersive(let dismissed):
            return DismissResult(dismissed: dismissed.map(\.description))
        case .dismissedScene(let outcome):
            return DismissResult(dismissed: outcome.dismissed.map(\.description), vetoed: outcome.vetoed.map(\.description))
        case .routed(let outcome):
            return RouteResult(
                outcome: outcome.name, instance: InstanceObject(Routes.json(outcome.instance)), via: outcome.via.map(\.description))
        case .sent(let outcome, let path):
            return FlowSendResult(outcome: outcome.name, path: Routes.json(path))
        case .applied(let path):
            return PathResult(path: Routes.json(path))
        case .linked(let outcome):
            switch linkAnswer(outcome) {
            case .success(let written): return written
            case .failure(let error): return JSONValue.object(["error": error.json])
            }
        }
    }

    /// A program's answer: `{completed, results}`, or the failing step's error with `step`
    /// (its index) and `results` (of the steps before it) added to its data.
    static func programAnswer<R: Route>(_ outcome: ProgramOutcome<R>) -> WireAnswer {
        let results = outcome.results.map { step in
            var bytes: [UInt8] = []
            result(step).write(to: &bytes)
            return (try? JSONParser.parse(bytes)) ?? .null
        }
        guard let failure = outcome.failure else {
            return .success(ProgramResult(completed: results.count, results: results))
        }
        let error = WireError.domain(failure.reason)
        return .failure(error.adding(
            ["step": .integer(failure.step), "results": .array(results)],
            message: "step \(failure.step) (\(failure.method)) failed: \(error.message)"))
    }

    /// A program step of JSON routes as one of the registry's routes.
    static func typed<R: Route>(_ step: ProgramStep<JSONValue>, index: Int) throws(WireError) -> ProgramStep<R> {
        typealias Routes = WireRoutes<R>
        let params = "steps[\(index)].params"
        switch step {
        case .open(let scene, let value): return .open(scene: scene, value: value)
        case .push(let scene, let value, let from): return .push(scene: scene, value: value, from: from)
        case .focus(let ref): return .focus(ref)
        case .dismiss(let ref, let force): return .dismiss(ref, force: force)
        case .dismissScene(let scene, let value, let force): return .dismissScene(scene, value: value, force: force)
        case .dismissImmersive: return .dismissImmersive
        case .route(let route, let from):
            return .route(try Routes.decode(R.self, from: route, member: "\(params).route"), from: from)
        case .send(let intent, let ref):
            return .send(try Routes.decode(FlowIntent<R>.self, from: intent, member: "\(params).intent"), to: ref)
        case .apply(let plan, let ref):
            return .apply(try Routes.decode([RouteStep<R>].self, from: plan, member: "\(params).plan"), to: ref)
        case .link(let url): return .link(url)
        }
    }

    /// A link outcome as the `link.open` result, or its error.
    static func linkAnswer<R: Route>(_ outcome: LinkOutcome<R>) -> WireAnswer {
        switch outcome {
        case .handled(let info, let opened):
            return .success(LinkOpenResult(outcome: .handled, instance: InstanceObject(WireRoutes<R>.json(info)), opened: opened))
        case .pending(_, let superseded):
            return .success(LinkOpenResult(outcome: .pending, superseded: superseded))
        case .rejected(let reason):
            return .failure(.domain(reason))
        case .unhandled(let path):
            return .failure(.domain(RegistryRejection.linkUnhandled(path: path)))
        case .program(let outcome):
            return programAnswer(outcome).map { program in LinkOpenResult(outcome: .handled, program: program as? ProgramResult) }
        }
    }
}
