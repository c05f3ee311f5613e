import Foundation
import Glibc
import SceneSocket

/// A real OpenSSH server on the loopback address, for tests and benchmarks that put a
/// scene on "another host": a scene process that reaches a coordinator only through an
/// `ssh -L` forward of its socket, as one on another machine would.
///
/// It runs with everything of its own in `folder`: a fresh host key, a key pair whose
/// public half is the only one it accepts, its config, and a free port on 127.0.0.1; it
/// logs in the user running it. `openssh-server` is installed (with `apt-get`) when
/// `sshd` is missing, so a test that uses it runs everywhere and skips nothing.
public final class LoopbackSSH: @unchecked Sendable {
    // Unchecked: `server` is set once, in `start`, and only stopped after (once).

    /// Why the server or a forward could not be set up.
    public typealias Failure = ToolFailure

    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The user a forward logs in as: the one running this process.
    public let user: String
    private let folder: String
    private let server: Child

    /// Where `sshd` is looked for (and installed to).
    public static let sshd = "/usr/sbin/sshd"

    private init(folder: String, port: Int, user: String, server: Child) {
        self.folder = folder
        self.port = port
        self.user = user
        self.server = server
    }

    deinit { stop() }

    /// Starts a server whose files are in `folder` (an existing, private folder); answers
    /// once it accepts connections.
    public static func start(in folder: String, timeout: Duration = .seconds(30)) async throws(Failure) -> LoopbackSSH {
        try await install()
        for key in ["host_key", "id"] {
            try run("/usr/bin/ssh-keygen", ["-q", "-t", "ed25519", "-N", "", "-f", "\(folder)/\(key)"])
        }
        do {
            try FileManager.default.copyItem(atPath: "\(folder)/id.pub", toPath: "\(folder)/authorized_keys")
        } catch {
            throw Failure(description: "cannot write authorized_keys: \(error)")
        }
        let port = try freePort()
        let config = """
            Port \(port)
            ListenAddress 127.0.0.1
            HostKey \(folder)/host_key
            AuthorizedKeysFile \(folder)/authorized_keys
            PidFile \(folder)/sshd.pid
            StrictModes no
            UsePAM no
            PasswordAuthentication no
            KbdInteractiveAuthentication no
            PubkeyAuthentication yes
            PermitRootLogin prohibit-password
            AllowStreamLocalForwarding yes
            StreamLocalBindUnlink yes
            LogLevel ERROR

            """
        // Privilege separation needs its folder when the server runs as root.
        if getuid() == 0 { try? FileManager.default.createDirectory(atPath: "/run/sshd", withIntermediateDirectories: true) }
        let server: Child
        do {
            try config.write(toFile: "\(folder)/sshd_config", atomically: true, encoding: .utf8)
        } catch {
            throw Failure(description: "cannot write sshd_config: \(error)")
        }
        server = try Child(sshd, ["-D", "-e", "-f", "\(folder)/sshd_config"], log: "\(folder)/sshd.log")
        let user = String(cString: getpwuid(getuid()).pointee.pw_name)
        let ssh = LoopbackSSH(folder: folder, port: port, user: user, server: server)
        let deadline = ContinuousClock.now + timeout
        while !accepts(port: port) {
            guard server.isRunning, ContinuousClock.now < deadline else {
                throw Failure(description: "sshd did not listen on 127.0.0.1:\(port): \(log(folder, "sshd.log"))")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return ssh
    }

    /// A running `ssh -N -L local:remote`: a Unix socket forwarded as it is.
    public final class Forward: Sendable {
        private let process: Child

        fileprivate init(_ process: Child) { self.process = process }

        deinit { close() }

        /// Ends the forward (SIGKILL: as a lost network would): every connection through it
        /// drops.
        public func close() { process.kill() }
    }

    /// Forwards the local Unix socket `local` to `remote` on this server's side; answers
    /// once `local` exists.
    public func forward(_ local: String, to remote: String, timeout: Duration = .seconds(30)) async throws(Failure) -> Forward {
        let name = "ssh-\(UInt32.random(in: 0...UInt32.max)).log"
        let process = try Child(
            "/usr/bin/ssh",
            [
                "-n", "-N", "-p", "\(port)", "-i", "\(folder)/id", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no",
                "-o", "UserKnownHostsFile=/dev/null", "-o", "ExitOnForwardFailure=yes", "-o", "StreamLocalBindUnlink=yes",
                "-o", "LogLevel=ERROR", "-L", "\(local):\(remote)", "\(user)@127.0.0.1",
            ], log: "\(folder)/\(name)")
        let forward = Forward(process)
        let deadline = ContinuousClock.now + timeout
        while !FileManager.default.fileExists(atPath: local) {
            guard process.isRunning, ContinuousClock.now < deadline else {
                forward.close()
                throw Failure(description: "ssh -L \(local) did not come up: \(Self.log(folder, name))")
            }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return forward
    }

    /// Stops the server (a forward still open keeps its own session until it is closed).
    public func stop() { server.kill() }

    // MARK: Helpers

    /// Installs `openssh-server` and the client when `sshd` or `ssh` is missing.
    private static func install() async throws(Failure) {
        let manager = FileManager.default
        try await SystemPackages.ensure(["openssh-server", "openssh-client"]) {
            manager.isExecutableFile(atPath: sshd) && manager.isExecutableFile(atPath: "/usr/bin/ssh")
        }
    }

    /// Runs a command to its end; throws with its error output when it fails.
    private static func run(_ executable: String, _ arguments: [String]) throws(Failure) {
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("loopback-ssh-\(getpid()).log").path
        defer { try? FileManager.default.removeItem(atPath: log) }
        let status = try Child(executable, arguments, log: log).wait()
        guard status == 0 else {
            throw Failure(description: "\(executable) \(arguments.joined(separator: " ")): exit \(status): \(Self.log("", log))")
        }
    }

    private static func log(_ folder: String, _ name: String) -> String {
        let path = folder.isEmpty ? name : "\(folder)/\(name)"
        return ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A TCP port on the loopback address that nothing listens on now.
    private static func freePort() throws(Failure) -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound else { throw Failure(description: "no free port on 127.0.0.1") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func accepts(port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(fd) }
        var address = loopback(port: port)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}
