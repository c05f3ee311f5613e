import Foundation
import Glibc
import SceneSocket
import SceneSync
@testable import SceneTesting
import Testing

@Suite("Thread dumps: what every thread does when a wait runs out")
struct ThreadDumpTests {
    // A child of the tests is dumped, not the tests' own process: attaching to that would
    // stop every other test running meanwhile.
    @Test("a dump names every thread of the process, with what it waits in")
    func namesEveryThread() async throws {
        let sleeper = try Processes.spawn("/bin/sleep", arguments: ["60"], environment: [:])
        defer {
            kill(sleeper, SIGKILL)
            var status: Int32 = 0
            while waitpid(sleeper, &status, 0) < 0, errno == EINTR {}
        }
        let dump = await ThreadDump.capture(of: sleeper)
        #expect(dump.contains("\"sleep\""), "\(dump.prefix(2000))")
        if SpawnedProcess.executable("gdb", path: ProcessInfo.processInfo.environment["PATH"]) != nil {
            // A backtrace, down to the C library's sleep.
            #expect(dump.hasPrefix("Thread 1 "), "\(dump.prefix(2000))")
            #expect(dump.contains("nanosleep"), "\(dump.prefix(2000))")
        } else {
            #expect(dump.contains("waiting in"), "\(dump.prefix(2000))")
        }
    }

    @Test("a recorded dump is written to a file of its own, and waits that run out together share one")
    func recordedOnce() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("thread-dump-test-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let taken = Locked(0)
        let recorder = ThreadDump.Recorder(folder: folder) {
            taken.withLock { $0 += 1 }
            return "Thread 1 (Thread 0x1 (LWP 1) \"main\"):\n#0  0x1 in waiting () from /lib/x\n"
        }
        let paths = await withTaskGroup(of: String.self) { group in
            for wait in 0..<8 { group.addTask { await recorder.record(because: "wait \(wait)", reuse: .seconds(600)) } }
            return await group.reduce(into: Set<String>()) { $0.insert($1) }
        }
        #expect(paths.count == 1)
        let first = try #require(paths.first)
        #expect(taken.withLock { $0 } == 1)
        #expect(try String(contentsOfFile: first, encoding: .utf8).contains("\"main\""))
        let later = await recorder.record(because: "a later wait", reuse: .zero)
        #expect(later != first)
        #expect(taken.withLock { $0 } == 2)
    }

    @Test(
        "a gdb frame line gives its function, whatever the address, arguments and place around it",
        arguments: [
            ("#0  __futex_abstimed_wait_common64 (private=..., cancel=...) at ./nptl/futex-internal.c:57", "__futex_abstimed_wait_common64"),
            ("#3  0x00007f1 in closure #1 in EventLoop.run() () from /lib/libX.so", "closure #1 in EventLoop.run()"),
            ("#12 0x000055d in static Coordinator.start(app:declarations:) ()", "static Coordinator.start(app:declarations:)"),
            ("#4  0x00007f2 in start_thread (arg=...) at ./nptl/pthread_create.c:442", "start_thread"),
            ("Thread 2 (Thread 0x7f (LWP 9) \"pool\"):", nil),
        ] as [(String, String?)])
    func frameFunction(line: String, function: String?) {
        #expect(ThreadDump.function(inFrame: Substring(line)) == function)
    }

    @Test("the summary gives one line per thread: its name, where it is, and the first frames below that are not plumbing")
    func summary() {
        let dump = """
            Thread 2 (Thread 0x7f1 (LWP 12) "scene-loop"):
            #0  0x00007f3 in epoll_wait (epfd=...) at ../sysdeps/epoll_wait.c:30
            #1  0x000055a in EventLoop.run() () from /tmp/x
            #2  0x000055b in start_thread (arg=...) at ./nptl/pthread_create.c:442

            Thread 1 (Thread 0x7f2 (LWP 11) "tests"):
            #0  __futex_abstimed_wait_common64 (private=...) at ./nptl/futex-internal.c:57
            #1  0x00007f4 in __new_sem_wait_slow64 (sem=...) at ./nptl/sem_waitcommon.c:183
            #2  0x00007f5 in _dispatch_semaphore_wait_slow () from /lib/libdispatch.so
            #3  0x00007f6 in EventLoop.shutdown() () from /tmp/x
            #4  0x00007f7 in Coordinator.stop() () from /tmp/x
            """
        #expect(ThreadDump.summary(of: dump) == """
            2 threads:
              scene-loop: epoll_wait … EventLoop.run()
              tests: __futex_abstimed_wait_common64 … EventLoop.shutdown() < Coordinator.stop()

            """)
    }
}
