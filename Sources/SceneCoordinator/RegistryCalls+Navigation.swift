import SceneCore
import SceneFlow
import SceneJSON
import SceneWire

// What the methods of navigation across scenes do on the registry: routes, deep links and
// sign-in, programs, presentations and their results.

extension RouteParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let from)? = members["from"], let route = members["route"], !route.isNull else { return nil }
        return Self(from: from, route: route)
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let from: InstanceID
        let route: R
        do throws(WireError) {
            from = try instanceID(self.from, field: "from")
            route = try WireRoutes<R>.decode(R.self, from: self.route, member: "route")
        } catch {
            return .refused(error)
        }
        return .answer(registry.beginRoute(route, from: from)) { outcome in
            RouteResult(outcome: outcome.name, instance: InstanceObject(WireRoutes<R>.json(outcome.instance)), via: outcome.via.map(\.description))
        }
    }
}

extension LinkOpenParams: WireRegistryCall {
    static func plain(_ members: [String: JSONValue]) -> Self? {
        guard case .string(let url)? = members["url"] else { return nil }
        return Self(url: url)
    }

    @_specialize(where R == JSONValue)
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        registry.beginLink(url).map { result in result.map(WireResults.linkAnswer) }
    }
}

extension AuthSetParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        guard let replay = registry.beginSetAuthenticated(authenticated) else {
            return .done(.success(.success(JSONValue.object(["replayed": .null]))))
        }
        return replay.map { result in
            // What the replayed link answered, its failure included, is the result.
            let replayed: WireAnswer
            switch result {
            case .success(let outcome): replayed = WireResults.linkAnswer(outcome)
            case .failure(let reason): replayed = .failure(.domain(reason))
            }
            switch replayed {
            case .success(let written): return .success(.success(Replayed(result: written)))
            case .failure(let error): return .success(.success(JSONValue.object(["replayed": .object(["error": error.json])])))
            }
        }
    }
}

extension ProgramParams: WireRegistryCall {
    static func read(_ params: JSONValue?) throws(WireError) -> Self {
        guard case .array(let steps)? = params?["steps"] else { throw .invalidParams("steps: must be an array of steps") }
        return Self(steps: steps)
    }

    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let program: [ProgramStep<R>]
        do throws(WireError) {
            let json: [ProgramStep<JSONValue>]
            do {
                json = try ProgramStep<JSONValue>.program(json: steps)
            } catch {
                throw .invalidParams(error.description)
            }
            program = try json.enumerated().map { index, step throws(WireError) in try WireResults.typed(step, index: index) }
        } catch {
            return .refused(error)
        }
        return registry.beginProgram(program, by: scene).map { outcome in outcome.map(WireResults.programAnswer) }
    }
}

extension PresentParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        let from: InstanceID
        do throws(WireError) { from = try instanceID(self.from, field: "from") } catch { return .refused(error) }
        return .answer(registry.beginPresent(self.scene, value: value, from: from)) { outcome in
            PresentResult(instance: InstanceObject(WireRoutes<R>.json(outcome.instance)), result: outcome.result)
        }
    }
}

extension FinishParams: WireRegistryCall {
    func begin<R: Route>(from scene: InstanceID?, on registry: isolated SceneRegistry<R>) -> RegistryStep<R, WireAnswer> {
        .now { () throws(CallFailure) in
            guard let instance else { throw .wire(.invalidParams("instance: missing (a control connection names it)")) }
            let id = try CallFailure.instance(instance)
            try CallFailure.registry { () throws(RegistryRejection) in try registry.finish(id, result: result) }
            return EmptyResult()
        }
    }
}

/// The `auth.set` result when a pending link was replayed: {replayed: its result}.
private struct Replayed: WireWritable {
    let result: any WireWritable

    func write(to output: inout [UInt8]) {
        JSONValue.append(#"{"replayed":"#, to: &output)
        result.write(to: &output)
        output.append(UInt8(ascii: "}"))
    }
}
