// Fuzz target: a program's steps (`scene.program`, a link's program). Reading answers the
// steps or a typed error naming a step; steps read are written back the same; and they run
// on the demo app's registry to an outcome whose results stop where it failed, if it did.
import SceneCore
import SceneJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProgram(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard case .array(let json)? = try? JSONParser.parse(bytes(data, size)) else { return 0 }
    let steps: [ProgramStep<JSONValue>]
    do {
        steps = try ProgramStep<JSONValue>.program(json: json)
    } catch {
        precondition(error.step >= 0 && error.step < json.count, "a refusal names step \(error.step) of \(json.count)")
        return 0
    }
    let written = steps.map { try? $0.json() }
    precondition(!written.contains(nil), "a step read could not be written back")
    let again = try? ProgramStep<JSONValue>.program(json: written.compactMap { $0 })
    precondition(again == steps, "steps were not read back as they were written")
    blocking {
        let registry = demoRegistry()
        guard let outcome = try? await registry.run(program: steps) else { return }
        if let failure = outcome.failure {
            precondition(failure.step < steps.count && outcome.results.count == failure.step,
                         "a program failed at step \(failure.step) with \(outcome.results.count) results")
        } else {
            precondition(outcome.results.count == steps.count, "a program ran \(outcome.results.count) of \(steps.count) steps")
        }
    }
    return 0
}
