// Fuzz target: a manifest file. Loading reports problems or yields scenes; a manifest
// that loads builds a registry (its link router with every diagnostic) or reports why not.
import Foundation
import SceneCore
import SceneFlow

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = Data(bytes: data, count: size)
    switch Result(catching: { () throws(ManifestError) in try Manifest.load(from: text) }) {
    case .success(let manifest):
        precondition(!manifest.app.isEmpty, "a manifest loaded without an app")
        _ = try? SceneRegistry(manifest: manifest)
    case .failure(let error):
        precondition(!error.problems.isEmpty, "a manifest was refused without a problem")
    }
    return 0
}
