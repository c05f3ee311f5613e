import Foundation
import Glibc
import SceneCoordinator
import SceneSocket
import Testing

@Suite("Access")
struct AccessTests {
    @Test("a process of another uid that reaches the socket is closed by the SO_PEERCRED check, unanswered",
          .enabled(if: getuid() == 0, "needs root, to run a client as another user"))
    func realPeerOfAnotherUID() async throws {
        try await withServer { server in
            // Open the folder and the socket to everyone for this test only: the file modes
            // would otherwise stop the other user first, and the check would go untested.
            let folder = URL(fileURLWithPath: server.path).deletingLastPathComponent().path
            for path in [server.folder.path, folder] { chmod(path, 0o755) }
            chmod(server.path, 0o666)
            // As uid 65534: connect, say hello, and report what comes back.
            let script = """
                import socket, struct, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                s.connect(sys.argv[1])
                body = b'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"protocol":[1],"role":"control","client":"other"}}'
                try:
                    s.sendall(struct.pack(">I", len(body)) + body)
                    s.settimeout(10)
                    print("answered" if s.recv(4) else "closed")
                except (BrokenPipeError, ConnectionResetError):
                    print("closed")
                """
            let process = try ChildProcess(
                ["--reuid=65534", "--regid=65534", "--clear-groups", "/usr/bin/python3", "-c", script, server.path],
                executable: "/usr/bin/setpriv")
            #expect(await process.wait(timeout: .seconds(20)) == 0)
            #expect(process.standardOutput == "closed\n")
            #expect(await server.coordinator.connectionCount() == 0)
        }
    }

    @Test("after three refused scene hellos a peer's next hellos wait ever longer, up to a cap")
    func throttle() {
        var throttle = HelloThrottle()
        var holds: [Double] = []
        for second in 0..<12 {
            holds.append(throttle.hold(at: Double(second)))
            throttle.refused(at: Double(second))
        }
        #expect(holds == [0, 0, 0, 0.1, 0.2, 0.4, 0.8, 1.6, 3.2, 5, 5, 5])
    }

    @Test("a peer that stops guessing is forgiven after the window")
    func forgiven() {
        var throttle = HelloThrottle()
        for second in 0..<6 { throttle.refused(at: Double(second)) }
        #expect(throttle.hold(at: 30) > 0)
        #expect(throttle.hold(at: 200) == 0)
        #expect(throttle.isIdle(at: 400))
    }
}
