// Fuzz target: a saved session file (`session.load`). Reading answers a session or
// `invalid_session`; a session read is written back the same; its snapshot restores into
// the demo app's registry or is refused with problems, never half restored.
import SceneCoordinator
import SceneCore
import SceneJSON
import SceneWire

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSession(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    switch SavedSession.read(bytes(data, size), app: "demo", file: "fuzz.json") {
    case .success(let saved):
        guard let written = try? saved.bytes() else { preconditionFailure("a session read cannot be written back") }
        let again = SavedSession.read(written, app: "demo", file: "fuzz.json")
        precondition((try? again.get()) == saved, "a session was not read back as it was written: \(again)")
        restores(saved.snapshot)
    case .failure(let error):
        precondition(error.reason == .invalidSession, "a session file was refused with \(error), not invalid_session")
    }
    return 0
}
