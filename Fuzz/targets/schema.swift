// Fuzz target: a JSON Schema subset document (a scene interface's params and signals)
// against a value: the input is `[schema, value]`. Reading answers a schema or a typed
// error with problems; checking a value answers nothing or one problem whose path is under
// `$`, the same each time.
import SceneJSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard case .array(let pair)? = try? JSONParser.parse(bytes(data, size)), let document = pair.first else { return 0 }
    let value = pair.count > 1 ? pair[1] : .null
    let schema: JSONSchema
    do {
        schema = try JSONSchema(json: document)
    } catch {
        precondition(!error.problems.isEmpty, "a schema was refused without a problem")
        return 0
    }
    let problem = schema.violation(of: value)
    precondition(problem == schema.violation(of: value), "a value was checked two ways")
    if let problem { precondition(problem.path.hasPrefix("$"), "a problem's path \(problem.path) is not under $") }
    // Each value the schema lists is checked like any other, without a crash.
    for allowed in schema.allowed ?? [] { _ = schema.violation(of: allowed) }
    return 0
}
