import Foundation
import Glibc
import SceneCoordinator
import SceneCore
import SceneSocket
import Testing

@Suite("Socket placement and access")
struct SocketPlacementTests {
    @Test("the socket is mode 0600 in a folder of mode 0700")
    func modes() async throws {
        try await withServer { server in
            let socket = try FileManager.default.attributesOfItem(atPath: server.path)
            let folder = try FileManager.default.attributesOfItem(atPath: (server.path as NSString).deletingLastPathComponent)
            #expect((socket[.posixPermissions] as? Int) == 0o600)
            #expect((folder[.posixPermissions] as? Int) == 0o700)
        }
    }

    @Test("a second coordinator on a live socket is refused: in use")
    func inUse() async throws {
        _ = try await withServer { server in
            await #expect(throws: SocketPlacementError.inUse(server.path)) {
                try await Coordinator(configuration: CoordinatorConfiguration(socketPath: server.path)) { try SceneRegistry(manifest: .demo, executor: $0) }
            }
        }
    }

    @Test("a stale socket file that nothing answers is replaced")
    func stale() async throws {
        try await withTemporaryFolder { folder in
        let path = folder.file("demo.sock")
        // Bind and close without removing the file: a socket left by a crashed server.
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            let bytes = Array(path.utf8)
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        close(fd)
        #expect(FileManager.default.fileExists(atPath: path))
        let coordinator = try await Coordinator(configuration: CoordinatorConfiguration(socketPath: path)) {
            try SceneRegistry(manifest: .demo, executor: $0)
        }
        try await stopping(coordinator) { _ in
            let client = try RawClient(path: path)
            try await client.hello()
        }
        }
    }

    @Test("a file that is not a socket is never replaced")
    func notASocket() async throws {
        try await withTemporaryFolder { folder in
            let path = folder.file("demo.sock")
            try "keep me".write(toFile: path, atomically: true, encoding: .utf8)
            await #expect(throws: SocketPlacementError.notASocket(path)) {
                try await Coordinator(configuration: CoordinatorConfiguration(socketPath: path)) { try SceneRegistry(manifest: .demo, executor: $0) }
            }
            #expect(try String(contentsOfFile: path, encoding: .utf8) == "keep me")
        }
    }

    @Test("a path longer than a Unix socket allows is a clear error")
    func tooLong() async throws {
        let path = "/tmp/" + String(repeating: "x", count: 120) + ".sock"
        await #expect(throws: SocketPlacementError.pathTooLong(path, limit: 107)) {
            try await Coordinator(configuration: CoordinatorConfiguration(socketPath: path)) { try SceneRegistry(manifest: .demo, executor: $0) }
        }
    }

    @Test("a peer of another uid is refused by the SO_PEERCRED check")
    func otherUID() async throws {
        // The file mode would stop another user first; this tests the check itself, by
        // allowing only a uid that is not ours.
        try await withServer(configure: { $0.allowedUID = getuid() &+ 1 }) { server in
            let client = try RawClient(path: server.path)
            #expect(try await client.closesWithin())
            #expect(await server.coordinator.connectionCount() == 0)
        }
    }

    @Test("the default socket path follows XDG_RUNTIME_DIR, else /tmp/scenectl-UID")
    func defaultPath() {
        #expect(CoordinatorConfiguration.defaultSocketPath(app: "demo", environment: ["XDG_RUNTIME_DIR": "/run/user/7"])
            == "/run/user/7/scenectl/demo.sock")
        #expect(CoordinatorConfiguration.defaultSocketPath(app: "demo", environment: [:]) == "/tmp/scenectl-\(getuid())/demo.sock")
    }
}
