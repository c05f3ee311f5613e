import Distributed
import SceneSync

// The Swift runtime's entry points behind `executeDistributedTarget` (exported by
// libswiftCore and libswiftDistributed; the Distributed module declares them the same way).
// `executeDistributedTarget` asks the demangler for a target's parameter and return types
// on every call; a scene answers the same few functions again and again, so it asks once
// per function and runs the target itself.

@_silgen_name("swift_distributed_getGenericEnvironment")
private func genericEnvironment(_ name: UnsafePointer<UInt8>, _ length: UInt) -> UnsafeRawPointer?

@_silgen_name("swift_func_getParameterCount")
private func parameterCount(_ name: UnsafePointer<UInt8>, _ length: UInt) -> Int32

@_silgen_name("swift_func_getParameterTypeInfo")
private func parameterTypes(
    _ name: UnsafePointer<UInt8>, _ length: UInt, _ genericEnvironment: UnsafeRawPointer?, _ genericArguments: UnsafeRawPointer?,
    _ types: UnsafeMutableRawPointer, _ capacity: Int
) -> Int32

@_silgen_name("swift_func_getReturnTypeInfo")
private func returnType(
    _ name: UnsafePointer<UInt8>, _ length: UInt, _ genericEnvironment: UnsafeRawPointer?, _ genericArguments: UnsafeRawPointer?
) -> (any Any.Type)?

@_silgen_name("swift_distributed_execute_target")
private func executeTarget<Decoder: DistributedTargetInvocationDecoder>(
    on actor: AnyObject, _ name: UnsafePointer<UInt8>, _ length: UInt, argumentDecoder: inout Decoder,
    argumentTypes: UnsafeRawPointer, resultBuffer: UnsafeMutableRawPointer, substitutions: UnsafeRawPointer?,
    witnessTables: UnsafeRawPointer?, numWitnessTables: UInt
) async throws

/// A non-generic distributed function, with its parameter and return types read once.
// Unchecked: its buffers are written once, in `init`, and only read after (never freed).
final class DistributedTarget: @unchecked Sendable {
    /// The mangled name, NUL-terminated, kept for the life of the program.
    private let name: UnsafeMutableBufferPointer<UInt8>
    private let argumentTypes: UnsafeMutableBufferPointer<any Any.Type>
    private let result: any Any.Type
    private let resultSize: Int
    private let resultAlignment: Int
    private let destroy: @Sendable (UnsafeMutableRawPointer) -> Void
    /// The value in a result buffer, as an answer (nil for a function returning nothing).
    private let answer: (any ResultReader)?

    /// The function `identifier` names, when it is one the runtime knows and is not
    /// generic (a generic one needs substitutions: nil, and the caller uses
    /// `executeDistributedTarget`).
    private init?(_ identifier: String) {
        let bytes = Array(identifier.utf8)
        let length = UInt(bytes.count)
        let name = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count + 1)
        _ = name.initialize(from: bytes + [0])
        guard let base = UnsafePointer(name.baseAddress), genericEnvironment(base, length) == nil else {
            name.deallocate()
            return nil
        }
        let count = parameterCount(base, length)
        let types = UnsafeMutableBufferPointer<any Any.Type>.allocate(capacity: max(Int(count), 1))
        guard count >= 0, parameterTypes(base, length, nil, nil, UnsafeMutableRawPointer(types.baseAddress!), Int(count)) == count,
            let result = returnType(base, length, nil, nil)
        else {
            types.deallocate()
            name.deallocate()
            return nil
        }
        func layout<R>(_: R.Type) -> (Int, Int, @Sendable (UnsafeMutableRawPointer) -> Void) {
            (MemoryLayout<R>.size, MemoryLayout<R>.alignment, { $0.assumingMemoryBound(to: R.self).deinitialize(count: 1) })
        }
        (resultSize, resultAlignment, destroy) = _openExistential(result, do: layout)
        if result == Void.self {
            answer = nil
        } else if let encodable = result as? any Encodable.Type {
            func reader<T: Encodable>(_: T.Type) -> any ResultReader { Answering<T>() }
            answer = _openExistential(encodable, do: reader)
        } else {
            types.deallocate()
            name.deallocate()
            return nil
        }
        self.name = name
        self.argumentTypes = UnsafeMutableBufferPointer(rebasing: types[0..<Int(count)])
        self.result = result
    }

    /// Runs the function on `actor`, with its arguments from `decoder`, and answers what it
    /// returned (`null` for nothing), or throws what it threw as a call error.
    ///
    /// It runs where its caller runs (the scene's host, on the scene's executor), so the
    /// call reaches the actor with no hop, and its answer needs no handler.
    nonisolated(nonsending) func execute(on actor: some DistributedActor, decoder: inout SceneInvocationDecoder) async throws(SceneError)
        -> ScenePayload
    {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(resultSize, 1), alignment: resultAlignment)
        defer { buffer.deallocate() }
        do {
            try await executeTarget(
                on: actor, UnsafePointer(name.baseAddress!), UInt(name.count - 1), argumentDecoder: &decoder,
                argumentTypes: UnsafeRawPointer(argumentTypes.baseAddress!), resultBuffer: buffer, substitutions: nil,
                witnessTables: nil, numWitnessTables: 0)
        } catch {
            // What the arguments' decoding threw (-32602), or the function's own error.
            throw SceneError(thrown: error)
        }
        defer { destroy(buffer) }
        return answer?.answer(in: UnsafeRawPointer(buffer)) ?? ScenePayload(json: .null)
    }

    /// Targets already read, by mangled name; nil for one that cannot be run this way.
    private static let known = Locked<[String: DistributedTarget?]>([:])

    /// The target `identifier` names, read once.
    static func named(_ identifier: String) -> DistributedTarget? {
        if let known = known.withLock({ $0[identifier] }) { return known }
        let target = DistributedTarget(identifier)
        known.withLock { $0[identifier] = target }
        return target
    }
}

/// Reads a function's result out of its buffer as an answer.
private protocol ResultReader: Sendable {
    func answer(in buffer: UnsafeRawPointer) -> ScenePayload
}

/// Reads a `T`. The compiler holds a distributed function's result to the system's
/// serialization requirement (Codable & Sendable), so a `T` that is Encodable here is
/// Sendable too; the two existentials share one layout.
private struct Answering<T: Encodable>: ResultReader {
    func answer(in buffer: UnsafeRawPointer) -> ScenePayload {
        ScenePayload(unsafeBitCast(buffer.load(as: T.self) as any Encodable, to: (any Encodable & Sendable).self))
    }
}
