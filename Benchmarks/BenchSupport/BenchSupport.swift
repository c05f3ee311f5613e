// Helpers shared by the benchmark executables.
public import Foundation
import Glibc
import SceneSocket

/// A deterministic generator (SplitMix64), so every run measures the same inputs.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The number after `name` on the command line, or `value`.
public func option(_ name: String, default value: Double) -> Double {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let parsed = Double(arguments[index + 1])
    else { return value }
    return parsed
}

/// The text after `name` on the command line, or nil.
public func textOption(_ name: String) -> String? {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// A duration in seconds.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The median of `values` (the upper one for an even count).
public func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// `min  median  max` of `values`, each formatted with `format`.
public func spread(_ values: [Double], format: String) -> String {
    let sorted = values.sorted()
    return [sorted.first!, median(sorted), sorted.last!].map { String(format: format, $0) }.joined(separator: "  ")
}

/// Pads `text` with spaces to `width` characters.
public func padded(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
}

/// A process's resident memory in KiB (`VmRSS` of `/proc/<pid>/status`); 0 when unknown.
public func residentKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}

/// The `p`-quantile (0...1) of `values`, nearest rank; 0 for none.
public func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

/// CPU time a process has used so far, user and system, in seconds (fields 14 and 15 of
/// `/proc/<pid>/stat`, in clock ticks); nil when the process is gone.
public func cpuSeconds(_ pid: Int32) -> Double? {
    guard let fields = Processes.statFields(of: pid), fields.count > 12,
        let user = Double(fields[11]), let system = Double(fields[12])
    else { return nil }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}

/// Runs a program (an absolute path) to completion and returns its standard output;
/// throws when it cannot start or exits with a failure. The child starts with no signal
/// blocked (a Swift concurrency thread blocks most of them, and a spawned process would
/// inherit that) and no descriptor of this process beyond 0, 1 and 2.
@discardableResult
public func runProgram(_ executable: String, _ arguments: [String], environment: [String: String]? = nil) throws -> String {
    let output = try Processes.pipe()
    let pid: pid_t
    do {
        pid = try Processes.spawn(
            executable, arguments: arguments,
            environment: ProcessInfo.processInfo.environment.merging(environment ?? [:]) { $1 }, output: output.write)
    } catch {
        close(output.write)
        close(output.read)
        throw BenchError("cannot start \(executable): \(error)")
    }
    close(output.write)
    let data = Processes.readToEnd(output.read)
    close(output.read)
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    guard status == 0 else {
        throw BenchError("\(URL(fileURLWithPath: executable).lastPathComponent) \(arguments.joined(separator: " ")) failed (wait status \(status))")
    }
    return String(decoding: data, as: UTF8.self)
}

/// A benchmark that cannot go on, and why.
public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// The release `scenectl serve` beside this benchmark's executable, serving `manifest` on
/// a socket in a temporary folder of its own, in a process of its own; stopped (SIGTERM,
/// then reaped) by ``stop()``, and its folder removed.
public final class ServedCoordinator: @unchecked Sendable {
    // Unchecked: every member is set once, in `init`.
    /// The executables beside this one (`scenectl`, the example scenes).
    public static let folder = URL(
        fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    ).deletingLastPathComponent()
    /// The socket it serves on.
    public let socket: String
    /// Its temporary folder.
    public let temporary: URL
    private let process: Process

    /// Starts it; answers once its socket accepts connections. `arguments` are added to
    /// `serve`'s.
    public init(name: String, manifest: String, arguments: [String] = []) throws {
        let scenectl = Self.folder.appendingPathComponent("scenectl").path
        guard FileManager.default.isExecutableFile(atPath: scenectl) else {
            throw BenchError("\(scenectl) is missing; run `swift build -c release` first")
        }
        temporary = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("\(name)-\(getpid())")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let manifestFile = temporary.appendingPathComponent("manifest.json").path
        try manifest.write(toFile: manifestFile, atomically: true, encoding: .utf8)
        socket = temporary.appendingPathComponent("serve.sock").path
        process = Process()
        process.executableURL = URL(fileURLWithPath: scenectl)
        process.arguments = ["serve", "--manifest", manifestFile, "--socket", socket] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(socket) {
            guard process.isRunning, Date() < deadline else {
                stop()
                throw BenchError("scenectl serve did not start")
            }
            usleep(5_000)
        }
    }

    /// Its pid.
    public var pid: Int32 { process.processIdentifier }

    /// Whether a connection to `path` is accepted (it is closed at once).
    private static func accepts(_ path: String) -> Bool {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8.prefix(raw.count - 1))
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) == 0 }
        }
    }

    /// Stops it and removes its folder.
    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: temporary)
    }
}
