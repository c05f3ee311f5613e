import Foundation
import SceneCore
import SceneFlow
import SceneLinks
import Testing

func problems(_ text: String) -> [String] {
    do {
        _ = try Manifest.load(from: Data(text.utf8))
        return []
    } catch {
        return error.problems.map(\.description)
    }
}

@Suite("Manifest")
struct ManifestTests {
    @Test("a manifest that is not JSON is reported at its line and column, with the line and a caret under the place")
    func jsonErrorLocated() {
        let text = "{\n  \"app\": \"a\",\n  \"scenes\": [{\"id\": \"w\", \"kind\": window}]\n}\n"
        #expect(problems(text) == ["$: not valid JSON: invalid value at line 3, column 34\n    \"scenes\": [{\"id\": \"w\", \"kind\": window}]\n                                   ^"])
    }

    @Test("the demo manifest loads with every scene, kind and policy")
    func demo() throws {
        let manifest = Manifest.demo
        #expect(manifest.app == "demo")
        #expect(manifest.immersive == .reject)
        #expect(manifest.scenes.map(\.id) == ["main", "viewer", "notes", "globe", "theatre", "portal"])
        #expect(manifest.scenes.map(\.instances) == [.single, .perValue, .multiple(max: 3), .single, .single, .single])
        #expect(manifest.scenes[3].kind == .volume(size: VolumeSize(width: 0.6, height: 0.6, depth: 0.6)))
        #expect(manifest.scenes[4].kind == .immersive(style: .full))
        #expect(manifest.linkPolicy.schemes == ["demo", "demoapp", "https"])
    }

    @Test("defaults: windows and volumes are multiple, immersive spaces single and mixed")
    func defaults() throws {
        let manifest = try Manifest(json: [
            "app": "a",
            "scenes": [["id": "w", "kind": "window"], ["id": "i", "kind": "immersive"],
                       ["id": "v", "kind": "volume", "size": [1, 1, 1]]],
        ])
        #expect(manifest.scenes.map(\.instances) == [.multiple(max: nil), .single, .multiple(max: nil)])
        #expect(manifest.scenes[1].kind == .immersive(style: .mixed))
        #expect(manifest.scenes.allSatisfy { $0.restore })
    }

    @Test("each mistake is reported with its JSON path", arguments: [
        (#"{"app":"a","scenes":[{"id":"x","kind":"volumn"}]}"#, #"scenes[0].kind: unknown kind "volumn" (expected window, volume or immersive)"#),
        (#"{"app":"a","scenes":[{"id":"x","kind":"window"},{"id":"x","kind":"window"}]}"#, #"scenes[1].id: duplicate scene id "x" (first at scenes[0])"#),
        (#"{"app":"a","scenes":[{"id":"v","kind":"volume"}]}"#, "scenes[0].size: a volume needs a size [width, height, depth] of positive numbers, in metres"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","instnaces":"single"}]}"#, "scenes[0].instnaces: unknown key (expected id, kind, size, style, instances, scope, claims, links, restore, launch, attach, in_process, restart, decides, decideTimeout, activatable, interface, defaultSize, resizability, placement, styles, requires)"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","decides":true}]}"#, "scenes[0].decides: only a scene with a launch command or running in process has code to decide"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","in_process":true,"decideTimeout":2}]}"#, #"scenes[0].decideTimeout: goes with "decides": true"#),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","in_process":true,"decides":true,"decideTimeout":0}]}"#, "scenes[0].decideTimeout: must be a positive number of seconds, at most 60"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","in_process":true,"decides":"yes"}]}"#, "scenes[0].decides: must be true or false"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","instances":{"max":0}}]}"#, "scenes[0].instances.max: must be a whole number of at least 1"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","instances":"many"}]}"#, #"scenes[0].instances: must be "single", "perValue", "multiple" or {"max": n}"#),
        (#"{"app":"a","immersive":"queue","scenes":[]}"#, #"immersive: must be "reject" or "replace""#),
        (#"{"scenes":[]}"#, "app: missing"),
        (#"{"app":"a"}"#, "scenes: missing"),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","scope":[{"when":{},"present":"sheet","reject":"no"}]}]}"#, #"scenes[0].scope[0]: a rule needs exactly one of "present", "reject" or "pass""#),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","scope":[{"when":{},"present":"popover"}]}]}"#, #"scenes[0].scope[0].present: must be "push", "sheet" or "cover""#),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","claims":[{"when":3,"present":"push"}]}]}"#, "scenes[0].claims[0].when: must be an object (keys the route must have, with equal values)"),
        (#"{"app":"a","links":{"schemes":["d"],"hosts":["h"]},"scenes":[{"id":"w","kind":"window","links":[{"pattern":"/a/*r/b"}]}]}"#, #"scenes[0].links[0].pattern: wildcard "*r" must be the last segment"#),
        (#"{"app":"a","links":{"schemes":["d"],"hosts":["h"]},"scenes":[{"id":"w","kind":"window","links":[{"pattern":"/v/:doc","value":"${id}"}]}]}"#, #"scenes[0].links[0].value: placeholder "${id}" names no parameter of the pattern (it has: doc)"#),
        (#"{"app":"a","links":{"schemes":["d"],"hosts":["h"]},"scenes":[{"id":"w","kind":"window","instances":"perValue","links":[{"pattern":"/v/:doc"}]}]}"#, #"scenes[0].links[0]: scene "w" opens one instance per value: the link needs a "value""#),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","links":[{"pattern":"/v"}]}]}"#, "links: scenes declare links, but no origin is allowed, so every link would be refused"),
        (#"{"app":"a","links":{"schemes":["d"],"hosts":["h"]},"scenes":[{"id":"w","kind":"window","links":[{"pattern":"/v/:a"}]},{"id":"x","kind":"window","links":[{"pattern":"/v/:a"}]}]}"#, #"scenes[1].links[0].pattern: pattern "/v/:a" duplicates the one at scenes[0].links[0]"#),
        (#"{"app":"a","scenes":[{"id":"w w","kind":"window"}]}"#, #"scenes[0].id: "w w" must use only ASCII letters, digits, "_", "." and "-""#),
        (#"{"app":"a","scenes":[{"id":"w","kind":"window","size":[1,1,1]}]}"#, "scenes[0].size: only a volume has a size"),
        (#"[1,2]"#, "$: a manifest must be a JSON object"),
    ])
    func problem(text: String, expected: String) {
        #expect(problems(text) == [expected])
    }

    @Test("text that is not JSON is one problem at $")
    func notJSON() {
        let found = problems("{\"app\": ")
        #expect(found.count == 1)
        #expect(found.first?.hasPrefix("$: not valid JSON") == true)
    }

    @Test("every problem is reported at once")
    func allAtOnce() {
        let found = problems(#"{"app":"","scenes":[{"id":"a","kind":"volumn"},{"kind":"window","restore":"yes"}]}"#)
        #expect(found == [
            "app: must not be empty",
            #"scenes[0].kind: unknown kind "volumn" (expected window, volume or immersive)"#,
            "scenes[1].id: missing",
            "scenes[1].restore: must be true or false",
        ])
    }
}

@Suite("Launch paths in a manifest file")
struct ManifestLaunchPathTests {
    @Test("a relative command path or working folder is the manifest's folder's; a bare name and an absolute path stay as written")
    func relativeToManifest() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-paths-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("app.json")
        try Data(#"""
            {"app": "a", "scenes": [
              {"id": "local", "kind": "window", "launch": {"command": ["./bin/scene", "--x"], "cwd": "work"}},
              {"id": "path", "kind": "window", "launch": {"command": ["python3", "scene.py"], "cwd": "/srv"}},
              {"id": "absolute", "kind": "window", "launch": {"command": ["/usr/bin/env", "true"]}}
            ]}
            """#.utf8).write(to: file)
        let manifest = try Manifest.load(contentsOf: file)
        let launches = Dictionary(uniqueKeysWithValues: manifest.scenes.map { ($0.id, $0.launch) })
        let base = folder.standardizedFileURL.path
        #expect(launches["local"]??.command == ["\(base)/./bin/scene", "--x"])
        #expect(launches["local"]??.workingDirectory == "\(base)/work")
        #expect(launches["path"]??.command == ["python3", "scene.py"])
        #expect(launches["path"]??.workingDirectory == "/srv")
        #expect(launches["absolute"]??.command == ["/usr/bin/env", "true"])
    }
}

@Suite("Link origins in a manifest")
struct ManifestOriginTests {
    @Test("an origin's mistakes are reported with their JSON path", arguments: [
        (#"{"scheme": "https"}"#, "links.origins[0].hosts: a https origin must list its hosts"),
        (#"{"scheme": "https", "hosts": ["a.example"], "hostIsRoute": true}"#, "links.origins[0].hostIsRoute: a web link's host is never part of its route"),
        (#"{"scheme": "1x"}"#, #"links.origins[0].scheme: "1x" is not a scheme"#),
        (#"{"scheme": "myapp", "hostIsRoute": "yes"}"#, "links.origins[0].hostIsRoute: must be true or false"),
        (#"{"scheme": "myapp", "port": 1}"#, "links.origins[0].port: unknown key"),
    ])
    func mistakes(origin: String, message: String) {
        let found = problems(#"{"app": "a", "links": {"origins": [\#(origin)]}, "scenes": []}"#)
        #expect(found.contains { $0.hasPrefix(message) }, "\(found)")
    }

    @Test("the older {schemes, hosts} form loads, with a note that writes it as origins")
    func olderFormNote() throws {
        let manifest = try Manifest.load(from: Data(#"{"app": "a", "links": {"schemes": ["d"], "hosts": ["h"]}, "scenes": []}"#.utf8))
        #expect(manifest.linkPolicy == LinkOriginPolicy(schemes: ["d"], hosts: ["h"]))
        #expect(manifest.notes.map(\.description) == [
            #"links: {"schemes", "hosts"} allows every scheme with every host; as origins: {"origins": [{"hosts":["h"],"scheme":"d"}]}"#,
        ])
    }

    @Test("the demo's custom scheme routes by its host: demoapp://viewer/42 lands as demo://demo.example/viewer/42 does")
    func demoCustomScheme() async throws {
        let registry = try SceneRegistry(manifest: .demo)
        guard case .handled(let info, let opened) = await registry.openLink("demoapp://viewer/42") else {
            Issue.record("demoapp://viewer/42 must be handled")
            return
        }
        #expect(opened)
        #expect(info.value == "42")
        #expect(info.path == [.push(["screen": "page", "doc": "42"])])
    }
}
