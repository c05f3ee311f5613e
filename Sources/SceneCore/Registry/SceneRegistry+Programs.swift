import SceneFlow

extension SceneRegistry {
    /// Runs `steps` in order, as one request: each as its method would, a step's `$k`
    /// naming the instance of step `k`'s result. The first step that fails ends the
    /// program; the steps before it stay applied (there is no rollback). Flow changes a
    /// `send` or `apply` step makes are caused by `program`.
    ///
    /// - Throws: ``RegistryRejection/invalidProgram(step:detail:)`` before any step runs,
    ///   when a step refers to a step that is not an earlier one or whose result names no
    ///   instance.
    public func run(program steps: [ProgramStep<R>]) async throws(RegistryRejection) -> ProgramOutcome<R> {
        try await run(program: steps, by: nil)
    }

    /// ``run(program:)`` as the own program of instance `scene`: a `dismiss` step of that
    /// instance does not ask it (a scene's own request).
    package func run(program steps: [ProgramStep<R>], by scene: InstanceID?) async throws(RegistryRejection) -> ProgramOutcome<R> {
        try await finish(beginProgram(steps, by: scene)).get()
    }

    /// ``run(program:by:)`` as far as it goes now: done, unless a step must wait (for an
    /// instance to open, a scene to decide or answer a close).
    package func beginProgram(_ steps: [ProgramStep<R>], by scene: InstanceID? = nil) -> RegistryStep<R, ProgramOutcome<R>> {
        if let problem = ProgramStep.problem(in: steps) {
            let reason = RegistryRejection.invalidProgram(step: problem.step, detail: problem.detail)
            reject("scene.program", reason)
            return .done(.failure(reason))
        }
        return runSteps(steps, from: 0, results: [], by: scene)
    }

    /// Runs `steps` from `index` on, after `results`, until one waits or fails.
    private func runSteps(_ steps: [ProgramStep<R>], from index: Int, results: [ProgramStepResult<R>], by scene: InstanceID?)
        -> RegistryStep<R, ProgramOutcome<R>>
    {
        var results = results
        for at in index..<steps.count {
            switch beginStep(steps[at], after: results, by: scene) {
            case .done(.success(let result)):
                results.append(result)
            case .done(.failure(let reason)):
                return .done(.success(ProgramOutcome(
                    results: results, failure: ProgramFailure(step: at, method: steps[at].method, reason: reason))))
            case .waiting(let wait):
                let before = results
                return .waiting(RegistryWait { registry in
                    switch await wait.rest(registry) {
                    case .success(let result):
                        return await registry.finish(registry.runSteps(steps, from: at + 1, results: before + [result], by: scene))
                    case .failure(let reason):
                        return .success(ProgramOutcome(
                            results: before, failure: ProgramFailure(step: at, method: steps[at].method, reason: reason)))
                    }
                })
            }
        }
        return .done(.success(ProgramOutcome(results: results, failure: nil)))
    }

    /// One step, begun as its method begins; its `$k` resolved against `results`.
    private func beginStep(_ step: ProgramStep<R>, after results: [ProgramStepResult<R>], by scene: InstanceID?)
        -> RegistryStep<R, ProgramStepResult<R>>
    {
        func resolve(_ ref: InstanceRef) throws(RegistryRejection) -> InstanceID {
            switch ProgramStepResult.instance(ref, after: results) {
            case .success(let id):
                return id
            case .failure(let reason):
                reject(step.method, reason)
                throw reason
            }
        }
        do throws(RegistryRejection) {
            switch step {
            case .open(let scene, let value):
                return beginOpen(scene, value: value).map { $0.map(ProgramStepResult.opened) }
            case .push(let scene, let value, let from):
                return beginPush(scene, value: value, from: try resolve(from)).map { $0.map(ProgramStepResult.pushed) }
            case .focus(let ref):
                return .done(.success(.focused(try focus(try resolve(ref)))))
            case .dismiss(let ref, let force):
                let target = try resolve(ref)
                return beginDismiss(target, force: force, closingItself: ProgramStep<R>.closesItself(target, by: scene)).map { $0.map(ProgramStepResult.dismissed) }
            case .dismissScene(let scene, let value, let force):
                return beginDismiss(scene: scene, value: value, force: force).map { $0.map(ProgramStepResult.dismissedScene) }
            case .dismissImmersive:
                return .done(.success(.dismissedImmersive(try dismissImmersive())))
            case .route(let route, let from):
                return beginRoute(route, from: try resolve(from)).map { $0.map(ProgramStepResult.routed) }
            case .send(let intent, let ref):
                let (outcome, path) = try withInstance(try resolve(ref), for: "flow.send") { instance throws(RegistryRejection) in
                    (try instance.send(intent, by: .program), instance.path)
                }
                if case .rejected(let reason) = outcome { throw .flow(reason) }
                return .done(.success(.sent(outcome, path: path)))
            case .apply(let steps, let ref):
                let (outcome, path) = try withInstance(try resolve(ref), for: "flow.apply") { instance throws(RegistryRejection) in
                    (try instance.apply(steps: steps, by: .program), instance.path)
                }
                if case .rejected(let reason) = outcome { throw .flow(reason) }
                return .done(.success(.applied(path: path)))
            case .link(let url):
                return beginLink(url).map { $0.flatMap(ProgramStepResult.linked) }
            }
        } catch {
            return .done(.failure(error))
        }
    }
}
