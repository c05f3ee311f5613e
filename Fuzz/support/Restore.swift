// What the fuzz targets share (compiled with each target).
import Foundation
import SceneCore
import SceneJSON

/// Restores `snapshot` into a fresh registry of the demo app: restored whole, or refused
/// with problems and nothing open.
func restores(_ snapshot: RegistrySnapshot<JSONValue>) {
    blocking {
        let registry = demoRegistry()
        do throws(RegistryRestoreError) {
            try await registry.restore(snapshot)
        } catch {
            precondition(!error.problems.isEmpty, "a snapshot was refused without a problem")
            let open = await registry.snapshot().instances
            precondition(open.isEmpty, "a refused snapshot left instances open")
        }
    }
}

/// A registry of the demo app. Its manifest is read for each input, not kept in a global:
/// LeakSanitizer cannot follow the pointers of a global Swift value whose enums carry tags
/// in their spare bits, and would report the manifest as leaked.
func demoRegistry() -> SceneRegistry<JSONValue> {
    guard let manifest = try? Manifest.load(from: Data(Manifest.demoText.utf8)), let registry = try? SceneRegistry<JSONValue>(manifest: manifest)
    else { fatalError("the demo manifest does not load") }
    return registry
}
