import Foundation
import Glibc

/// Failures of a real process's POSIX calls, without changing its code: libfiu's
/// `fiu-run -x` starts a program with the POSIX preload library, and ``enable(_:in:errno:probability:)``
/// and ``disable(_:in:)`` turn its failure points (`posix/io/dir/rename`,
/// `posix/io/sync/fsync`, …) on and off while it runs, through `fiu-ctrl`'s named pipes.
///
/// `fiu-utils` is installed with `apt-get` when missing, so a test that uses it runs
/// everywhere and skips nothing.
public struct FaultInjection: Sendable {
    /// Why libfiu could not be installed, or a failure point could not be set.
    public typealias Failure = ToolFailure

    /// Where `fiu-run` is looked for (and installed to).
    public static let fiuRun = "/usr/bin/fiu-run"
    /// Where `fiu-ctrl` is looked for.
    public static let fiuControl = "/usr/bin/fiu-ctrl"

    /// The base name of the control pipes (`<base>-<pid>.in`, `.out`), in the folder given.
    public let control: String

    private init(control: String) {
        self.control = control
    }

    /// Fault injection whose control pipes are in `folder` (an existing, private folder);
    /// libfiu is installed first when it is missing.
    public static func prepare(in folder: String) async throws(Failure) -> FaultInjection {
        try await SystemPackages.ensure(["fiu-utils"]) {
            FileManager.default.isExecutableFile(atPath: fiuRun) && FileManager.default.isExecutableFile(atPath: fiuControl)
        }
        return FaultInjection(control: "\(folder)/fiu")
    }

    /// The arguments of `fiu-run` that start `command` with the POSIX failure points, those
    /// of `failing` on from its first instruction (every call failing with `errno`, or
    /// libfiu's choice when nil), the others off: run ``fiuRun`` with them.
    public func arguments(running command: [String], failing: [String] = [], errno: Int32? = nil) -> [String] {
        let enabled = failing.flatMap { point in ["-c", "enable name=\(point)" + (errno.map { ",failinfo=\($0)" } ?? "")] }
        return ["-x", "-f", control] + enabled + command
    }

    /// Turns failure point `point` on in process `pid` (started with
    /// ``arguments(running:failing:errno:)``):
    /// every call fails, or one in `1 / probability`, with `errno` (libfiu's choice among
    /// the call's documented ones when nil).
    public func enable(_ point: String, in pid: Int32, errno: Int32? = nil, probability: Double? = nil) async throws(Failure) {
        var parameters = "name=\(point)"
        if let probability { parameters += ",probability=\(probability)" }
        if let errno { parameters += ",failinfo=\(errno)" }
        try await control(probability == nil ? "enable \(parameters)" : "enable_random \(parameters)", pid)
    }

    /// Turns failure point `point` off in process `pid`.
    public func disable(_ point: String, in pid: Int32) async throws(Failure) {
        try await control("disable name=\(point)", pid)
    }

    private func control(_ command: String, _ pid: Int32) async throws(Failure) {
        let log = "\(control)-ctrl-\(UInt32.random(in: 0...UInt32.max)).log"
        defer { try? FileManager.default.removeItem(atPath: log) }
        let child = try Child(Self.fiuControl, ["-f", control, "-c", command, "\(pid)"], log: log)
        let status = await child.finished(poll: .milliseconds(5))
        guard status == 0 else {
            let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            throw Failure(description: "fiu-ctrl -c \"\(command)\" \(pid): exit \(status): \(said)")
        }
    }
}
