// Fuzz target: a state file. Reading answers a state or a typed error with problems; a
// state read is written back the same (what it accepts, it writes back to the same
// state); its snapshot restores into the demo app's registry or is refused with problems,
// never half restored.
import SceneCoordinator
import SceneCore
import SceneJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzState(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch Result(catching: { () throws(StateFileError) in try StateFile.decode(bytes(data, size), path: "state.json") }) {
    case .success(let state):
        let again = Result { () throws(StateFileError) in try StateFile.decode(StateFile.encode(state), path: "state.json") }
        precondition((try? again.get()) == state, "a state file was not read back as it was written: \(again)")
        restores(state.snapshot)
    case .failure(let error):
        precondition(!error.problems.isEmpty, "a state file was refused without a problem")
    }
    return 0
}
