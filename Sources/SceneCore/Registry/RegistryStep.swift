package import SceneFlow
import SceneSync

/// A registry request as far as it went in the step it was made in.
///
/// Most requests finish at once. One that must wait — for an instance that is still
/// opening, for what backs a new instance to start, or for a scene's answer to an
/// interactive close — applies everything up to that wait and hands back the rest, which
/// ``SceneRegistry/finish(_:)`` awaits. A server running on the registry's executor so
/// answers a request that need not wait in the turn that read it, and suspends only for
/// the rest.
///
/// - A rejection in either part is also a `request.rejected` event, emitted once.
package enum RegistryStep<R: Route, T: Sendable>: Sendable {
    /// Finished in this step: what it did, or why not.
    case done(Result<T, RegistryRejection>)
    /// Applied up to a wait; the rest runs when it is awaited.
    case waiting(RegistryWait<R, T>)

    /// Whether the request finished in its step.
    package var isDone: Bool {
        if case .done = self { return true }
        return false
    }

    /// This step with its result turned by `transform`: now when it is done, else once its
    /// wait is over.
    package func map<U: Sendable>(
        _ transform: @escaping @Sendable (Result<T, RegistryRejection>) -> Result<U, RegistryRejection>
    ) -> RegistryStep<R, U> {
        switch self {
        case .done(let result):
            return .done(transform(result))
        case .waiting(let wait):
            return .waiting(RegistryWait { registry in transform(await wait.rest(registry)) })
        }
    }
}

/// The rest of a request that must wait: it runs, on the registry, when it is awaited
/// (``SceneRegistry/finish(_:)``), once.
package struct RegistryWait<R: Route, T: Sendable>: Sendable {
    let rest: @Sendable (isolated SceneRegistry<R>) async -> Result<T, RegistryRejection>
}

extension SceneRegistry {
    /// Awaits what is left of `step` and answers what the request did, or why not.
    package func finish<T>(_ step: RegistryStep<R, T>) async -> Result<T, RegistryRejection> {
        switch step {
        case .done(let result): return result
        case .waiting(let wait): return await wait.rest(self)
        }
    }

    /// Awaits what is left of `wait` in a task of its own, on this registry's executor, and
    /// hands its answer to `body` there.
    package func whenFinished<T>(
        _ wait: RegistryWait<R, T>, _ body: @escaping @Sendable (isolated SceneRegistry<R>, Result<T, RegistryRejection>) -> Void
    ) {
        // Created in this actor's isolation, the task starts on its executor directly.
        Task {
            let result = await wait.rest(self)
            body(self, result)
        }
    }

    /// `step`, then `next` with its result: at once when the step is done, else after its
    /// wait.
    func then<T, U>(
        _ step: RegistryStep<R, T>,
        _ next: @escaping @Sendable (isolated SceneRegistry<R>, Result<T, RegistryRejection>) -> Result<U, RegistryRejection>
    ) -> RegistryStep<R, U> {
        switch step {
        case .done(let result):
            return .done(next(self, result))
        case .waiting(let wait):
            return .waiting(RegistryWait { registry in next(registry, await wait.rest(registry)) })
        }
    }

    /// `step`, then `next` with its value when it succeeded; a failure passes through.
    func thenOnSuccess<T, U>(
        _ step: RegistryStep<R, T>,
        _ next: @escaping @Sendable (isolated SceneRegistry<R>, T) throws(RegistryRejection) -> U
    ) -> RegistryStep<R, U> {
        then(step) { registry, result in
            switch result {
            case .success(let value):
                do throws(RegistryRejection) {
                    return .success(try next(registry, value))
                } catch {
                    return .failure(error)
                }
            case .failure(let reason):
                return .failure(reason)
            }
        }
    }

    /// `step`, then the step `next` makes of its value when it succeeded; a failure passes
    /// through.
    func chain<T, U>(
        _ step: RegistryStep<R, T>, _ next: @escaping @Sendable (isolated SceneRegistry<R>, T) -> RegistryStep<R, U>
    ) -> RegistryStep<R, U> {
        switch step {
        case .done(.success(let value)):
            return next(self, value)
        case .done(.failure(let reason)):
            return .done(.failure(reason))
        case .waiting(let wait):
            return .waiting(RegistryWait { registry in
                switch await wait.rest(registry) {
                case .success(let value): return await registry.finish(next(registry, value))
                case .failure(let reason): return .failure(reason)
                }
            })
        }
    }

    /// A wait for `id` to finish opening, registered now, then `next`.
    func afterOpening<T>(
        _ id: InstanceID, _ next: @escaping @Sendable (isolated SceneRegistry<R>) throws(RegistryRejection) -> T
    ) -> RegistryStep<R, T> {
        let wait = OpeningWait()
        openingWaiters[id, default: []].append(wait)
        return .waiting(RegistryWait { registry in
            do throws(RegistryRejection) {
                try await wait.wait().get()
                return .success(try next(registry))
            } catch {
                return .failure(error)
            }
        })
    }

    /// Runs `body` as request `request`: a rejection, now or after a wait, is also a
    /// `request.rejected` event.
    func step<T>(
        _ request: String, _ body: () throws(RegistryRejection) -> RegistryStep<R, T>
    ) -> RegistryStep<R, T> {
        let begun: RegistryStep<R, T>
        do {
            begun = try body()
        } catch {
            reject(request, error)
            return .done(.failure(error))
        }
        switch begun {
        case .done(.success):
            return begun
        case .done(.failure(let reason)):
            reject(request, reason)
            return begun
        case .waiting:
            return then(begun) { registry, result in
                if case .failure(let reason) = result { registry.reject(request, reason) }
                return result
            }
        }
    }

    /// Publishes what is recorded, then `reason` as a `request.rejected` event.
    func reject(_ request: String, _ reason: RegistryRejection) {
        flush()
        log.emit(.requestRejected(request: request, reason: reason))
    }
}

/// One request's wait for an answer that another step gives — an opening instance ready
/// (or gone), a presented instance's result — registered in the step the request is made
/// in: the answer may come before the rest of the request runs to await it, and it is kept
/// until then. Answered once; later answers are dropped.
final class RegistryPromise<Answer: Sendable>: Sendable {
    private struct State {
        var answer: Answer?
        var waiter: CheckedContinuation<Answer, Never>?
    }

    private let state = Locked(State())

    /// Gives the answer, if none was given yet.
    func resolve(_ answer: Answer) {
        let waiter = state.withLock { state -> CheckedContinuation<Answer, Never>? in
            guard state.answer == nil else { return nil }
            state.answer = answer
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: answer)
    }

    /// The answer, if there is one yet.
    var answer: Answer? { state.withLock { $0.answer } }

    /// The answer, once there is one.
    func wait() async -> Answer {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Answer? in
                if state.answer == nil { state.waiter = continuation }
                return state.answer
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}

/// A request's wait for an opening instance: active (`.success`) or gone (why).
typealias OpeningWait = RegistryPromise<Result<Void, RegistryRejection>>
