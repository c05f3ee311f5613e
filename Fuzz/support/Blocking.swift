// What the fuzz targets share (compiled with each target).
import Dispatch
import SceneSync

/// Runs `body` to its end and answers its value: a fuzz target's entry point is
/// synchronous, and the registry is an actor.
func blocking<T: Sendable>(_ body: @escaping @Sendable () async -> T) -> T {
    let result = Locked<T?>(nil)
    let done = DispatchSemaphore(value: 0)
    Task {
        let value = await body()
        result.withLock { $0 = value }
        done.signal()
    }
    done.wait()
    return result.withLock { $0! }
}

/// The bytes libFuzzer gives a target.
func bytes(_ data: UnsafePointer<UInt8>, _ size: Int) -> [UInt8] {
    Array(UnsafeBufferPointer(start: data, count: size))
}

/// Before the first input: the Swift concurrency runtime started (its threads and caches
/// are made once and kept), so that what an input allocates is the input's own.
@_cdecl("LLVMFuzzerInitialize")
public func initialize(_ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>) -> CInt {
    blocking { await Task.yield() }
    return 0
}
