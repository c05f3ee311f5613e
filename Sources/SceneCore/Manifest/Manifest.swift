public import Foundation
import SceneFlow
public import SceneJSON
public import SceneLinks
public import SceneSync

/// An app's scenes declared as data: the JSON file a coordinator serves.
///
/// ```json
/// {"app": "demo",
///  "links": {"origins": [{"scheme": "demo", "hosts": ["demo.example"]}, {"scheme": "https", "hosts": ["demo.example"]},
///                        {"scheme": "demoapp"}]},
///  "immersive": "reject",
///  "scenes": [{"id": "main", "kind": "window", "instances": "single"}, …]}
/// ```
///
/// Loading reports every problem with its JSON path (`scenes[2].kind: unknown kind
/// "volumn"`), never just the first.
public struct Manifest: Sendable {
    /// The app's name.
    public let app: String
    /// Which link origins are allowed (closed when the manifest names none).
    public let linkPolicy: LinkOriginPolicy
    /// What opening a second immersive space does.
    public let immersive: ImmersivePolicy
    /// The scenes, in declaration order.
    public let scenes: [SceneDeclaration<JSONValue>]
    /// The document the manifest was loaded from.
    public let json: JSONValue
    /// What loads but is better written otherwise, with its JSON path (the older `links`
    /// form, and how to write it as origins).
    public let notes: [ManifestProblem]

    /// Loads a manifest from JSON text; `folder` is where a relative launch command path
    /// or working folder is resolved (the manifest file's folder).
    public static func load(from data: Data, folder: String? = nil) throws(ManifestError) -> Manifest {
        let bytes = [UInt8](data)
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw ManifestError(problems: [ManifestProblem(path: "$", message: "not valid JSON: \(Self.locate(error, in: bytes))")])
        }
        return try Manifest(json: json, folder: folder)
    }

    /// A parse error at its line and column (both from 1, the column in characters), with
    /// the offending line and a caret under the place.
    static func locate(_ error: JSONParseError, in bytes: [UInt8]) -> String {
        let offset = min(max(error.offset, 0), bytes.count)
        let lineStart = bytes[..<offset].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let lineEnd = bytes[offset...].firstIndex(of: UInt8(ascii: "\n")) ?? bytes.count
        let line = bytes[..<offset].filter { $0 == UInt8(ascii: "\n") }.count + 1
        let before = String(decoding: bytes[lineStart..<offset], as: UTF8.self)
        let text = String(decoding: bytes[lineStart..<lineEnd], as: UTF8.self).replacingOccurrences(of: "\t", with: " ")
        let column = before.count + 1
        return "\(error.message) at line \(line), column \(column)\n  \(text)\n  \(String(repeating: " ", count: column - 1))^"
    }

    /// Loads a manifest from a file.
    public static func load(contentsOf url: URL) throws(ManifestError) -> Manifest {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw ManifestError(problems: [ManifestProblem(path: "$", message: "cannot read \(url.path): \(error.localizedDescription)")])
        }
        return try load(from: data, folder: url.absoluteURL.deletingLastPathComponent().standardizedFileURL.path)
    }

    /// Builds a manifest from its JSON document; `folder` is where a relative launch command
    /// path (`./bin/scene`, one with a `/`) or working folder is resolved.
    public init(json: JSONValue, folder: String? = nil) throws(ManifestError) {
        var reader = ManifestReader()
        reader.base = folder
        let parsed = reader.read(json)
        guard reader.problems.isEmpty, let parsed else { throw ManifestError(problems: reader.problems) }
        self.app = parsed.app
        self.linkPolicy = parsed.policy
        self.notes = reader.notes
        self.immersive = parsed.immersive
        self.scenes = parsed.scenes
        self.json = json
    }
}

/// One problem in a manifest, at a JSON path (`scenes[2].kind: unknown kind "volumn"`).
public typealias ManifestProblem = JSONProblem

/// Why a manifest could not be loaded: every problem, in document order.
public struct ManifestError: JSONProblemReport {
    public let problems: [ManifestProblem]

    /// Creates the error from its problems.
    public init(problems: [ManifestProblem]) {
        self.problems = problems
    }

    public var code: String { "invalid_manifest" }
}

extension SceneRegistry where R == JSONValue {
    /// A registry serving `manifest`, with the behaviours of its in-process scenes, what
    /// backs its process scenes, and on `executor` when one is given (see
    /// ``SceneRegistry/init(app:declarations:linkPolicy:linkLimits:immersive:behaviors:processes:closePolicy:timeouts:time:reopenLimit:executor:)``).
    public init(
        manifest: Manifest, behaviors: [String: SceneBehaviorFactory<JSONValue>] = [:], processes: (any SceneBacking)? = nil,
        closePolicy: ClosePolicy? = nil, timeouts: SceneTimeouts = .standard, time: (any TimeSource)? = nil,
        reopenLimit: Int = 20, executor: (any SerialExecutor)? = nil
    ) throws(RegistryConfigurationError) {
        try self.init(
            app: manifest.app, declarations: manifest.scenes, linkPolicy: manifest.linkPolicy,
            immersive: manifest.immersive, behaviors: behaviors, processes: processes, closePolicy: closePolicy,
            timeouts: timeouts, time: time, reopenLimit: reopenLimit, executor: executor)
    }
}
