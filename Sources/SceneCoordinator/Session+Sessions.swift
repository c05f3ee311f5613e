import Foundation
import Glibc
package import SceneCore
package import SceneJSON
import SceneSocket
import SceneSync
package import SceneWire

/// A saved session: what was open, as a registry snapshot, in `STATEFILE.sessions/NAME.json`.
package struct SavedSession: Codable, Hashable, Sendable {
    /// Always `"scene-coordinator-session"`.
    package var format = "scene-coordinator-session"
    package var version = 1
    package var snapshot: RegistrySnapshot<JSONValue>

    package init(snapshot: RegistrySnapshot<JSONValue>) {
        self.snapshot = snapshot
    }

    /// The bytes of a session file holding this session.
    package func bytes() throws -> [UInt8] { Array(try JSONValue.encoded(self).description.utf8) }

    /// The session a session file's bytes hold, for a registry of app `app`; `file` names
    /// it in the error. `invalid_session` for what is not JSON of a session's shape, or a
    /// session of another format, version or app.
    package static func read(_ bytes: [UInt8], app: String, file: String) -> Result<SavedSession, WireError> {
        let saved: SavedSession
        do {
            saved = try JSONParser.parse(bytes).decoded(as: SavedSession.self)
        } catch {
            return .failure(.domain(reason: .invalidSession, message: "\(file) is not a saved session: \(error)", data: ["detail": .string("\(error)")]))
        }
        guard saved.format == "scene-coordinator-session", saved.version == 1,
            saved.snapshot.version == RegistrySnapshot<JSONValue>.currentVersion, saved.snapshot.app == app
        else {
            return .failure(.domain(
                reason: .invalidSession, message: "\(file) is not a session of app \(app)",
                data: ["detail": .string("another app or format")]))
        }
        return .success(saved)
    }
}

/// `session.save`, `session.load`, `session.list`, `session.delete`: named sets of open
/// instances, kept beside the state file.
extension Session {
    /// The folder sessions live in, or the error that there is none.
    private var sessionFolder: Result<String, WireError> {
        guard let state = server.configuration.stateFile else {
            return .failure(.domain(
                reason: .noStateFile,
                message: "sessions are kept beside the state file; this coordinator serves without one (--state FILE)"))
        }
        return .success(state + ".sessions")
    }

    /// The file of session `name` (its name checked first: -32602).
    private func sessionFile(_ name: String) -> Result<String, WireError> {
        guard SessionParams.isValidName(name) else {
            return .failure(.invalidParams("name: \"\(name)\" must be 1 to 64 of A-Z a-z 0-9 _ . -"))
        }
        return sessionFolder.map { "\($0)/\(name).json" }
    }

    private func unknownSession(_ name: String) -> WireError {
        .domain(reason: .unknownSession, message: "no session \"\(name)\" is saved", data: ["name": .string(name)])
    }

    /// `session.list`, in its turn among the connection's queued requests: the saved
    /// names, sorted.
    func listSessions(id: JSONValue) {
        answerSession(id) { () throws(WireError) in
            let folder = try sessionFolder.get()
            let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".json") }.map { String($0.dropLast(5)) }.filter(SessionParams.isValidName).sorted()
            return WireCodec.json(SessionListResult(sessions: names))
        }
    }

    /// `session.delete`, in its turn.
    func deleteSession(id: JSONValue, params: JSONValue?) {
        answerSession(id) { () throws(WireError) in
            let name = try WireCodec.decode(SessionParams.self, from: params).name
            let file = try sessionFile(name).get()
            guard unlink(file) == 0 else {
                if errno == ENOENT { throw unknownSession(name) }
                let problem = "\(SocketError("unlink \(file)"))"
                throw .domain(reason: .cannotDelete, message: problem, data: ["detail": .string(problem)])
            }
            return .object([:])
        }
    }

    /// Answers request `id` with `body`'s result or error, in its turn.
    private func answerSession(_ id: JSONValue, _ body: () throws(WireError) -> JSONValue) {
        do throws(WireError) {
            answerRegistry(id, frame: WireCodec.framedResponse(id: id, result: try body()))
        } catch {
            answerRegistry(id, frame: WireCodec.framedResponse(id: id, error: error))
        }
    }

    /// `session.save`, in its turn: takes what is open once the requests before it are
    /// answered, and is answered once its file is written (off the loop; the requests after
    /// it wait, as behind any request that waits).
    func saveSession(id: JSONValue, params: JSONValue?) {
        let file: String
        do throws(WireError) {
            file = try sessionFile(try WireCodec.decode(SessionParams.self, from: params).name).get()
        } catch {
            answerRegistry(id, frame: WireCodec.framedResponse(id: id, error: error))
            return
        }
        let saved = SavedSession(snapshot: registry.sessionSnapshot())
        behindWait = FIFOQueue()
        let session = bound
        Task.detached {
            let frame: [UInt8]
            do {
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                close(try DurableFile.replace(file, with: try saved.bytes()))
                frame = WireCodec.framedResponse(id: id, result: JSONValue.object([:]))
            } catch {
                frame = WireCodec.framedResponse(id: id, error: .domain(
                    reason: .cannotSave, message: "cannot write \(file): \(error)", data: ["detail": .string("\(error)")]))
            }
            session.loop.execute { session.value.finishedWaiting(id, frame: frame) }
        }
    }

    /// `session.load`, in its turn: the saved session read (a small file, on the loop),
    /// then loaded by the registry in place of what is open.
    func loadSession(id: JSONValue, params: JSONValue?) {
        do throws(WireError) {
            apply(try savedSession(params), id: id)
        } catch {
            answerRegistry(id, frame: WireCodec.framedResponse(id: id, error: error))
        }
    }

    /// The registry call that loads the session `params` name.
    private func savedSession(_ params: JSONValue?) throws(WireError) -> LoadSession {
        let request = try WireCodec.decode(SessionLoadParams.self, from: params)
        let file = try sessionFile(request.name).get()
        // A regular file of a sane size only: not a link, a FIFO or a device.
        var info = stat()
        guard lstat(file, &info) == 0 else { throw unknownSession(request.name) }
        guard info.st_mode & S_IFMT == S_IFREG, info.st_size <= 16 << 20, let data = FileManager.default.contents(atPath: file) else {
            throw .domain(
                reason: .invalidSession, message: "session \"\(request.name)\" is not a regular file of at most 16 MiB",
                data: ["detail": .string("not a regular file of at most 16 MiB")])
        }
        let saved = try SavedSession.read([UInt8](data), app: registry.app, file: file).get()
        return LoadSession(snapshot: saved.snapshot, force: request.force ?? false)
    }
}
