import Foundation
import Testing

/// The harness that starts the tests' child processes.
@Suite("Child processes of the tests")
struct ChildProcessTests {
    @Test("a child that writes more than a pipe holds, to both outputs, runs to its end while nobody reads, and every byte is kept")
    func outputIsDrained() async throws {
        // 1 MiB on standard output and 256 KiB on standard error: a pipe holds 64 KiB.
        let script = "head -c 1048576 /dev/zero | tr '\\0' o; head -c 262144 /dev/zero | tr '\\0' e >&2; echo done >&2"
        let child = try ChildProcess(["-c", script], executable: "/bin/sh")
        #expect(await child.wait(timeout: .seconds(60)) == 0)
        let output = child.standardOutput
        #expect(output.utf8.count == 1 << 20 && output.utf8.allSatisfy { $0 == UInt8(ascii: "o") })
        let errors = child.standardError
        #expect(errors.utf8.count == (1 << 18) + 5 && errors.hasSuffix("done\n"))
    }

    @Test("readOutput returns through the marker's line and keeps the rest for the next read")
    func readOutputKeepsTheRest() async throws {
        let child = try ChildProcess(["-c", "printf 'one\\ntwo three\\nfour\\n'"], executable: "/bin/sh")
        #expect(try await child.readOutput(until: "two") == "one\ntwo three\n")
        #expect(await child.wait(timeout: .seconds(60)) == 0)
        #expect(child.standardOutput == "four\n")
        #expect(child.standardOutput == "")
    }
}
