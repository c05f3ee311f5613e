import SceneLinks
import Testing

let precedencePatterns = [
    "/a/b/c", "/:x/b/d", "/*rest", "/viewer/:doc", "/viewer/new", "/files/*path",
    "/users/:id/posts/:post",
]

@Suite("Matcher precedence")
struct LinkMatcherTests {
    let matcher = LinkMatcher(patterns: precedencePatterns)

    @Test("the most specific pattern wins, with backtracking", arguments: [
        (["a", "b", "c"], 0, ["": ""]),
        (["a", "b", "d"], 1, ["x": "a"]),
        (["a", "z"], 2, ["rest": "a/z"]),
        ([], 2, ["rest": ""]),
        (["viewer", "new"], 4, [:]),
        (["viewer", "42"], 3, ["doc": "42"]),
        (["files", "a", "b", "c"], 5, ["path": "a/b/c"]),
        (["files"], 5, ["path": ""]),
        (["users", "7", "posts", "9"], 6, ["id": "7", "post": "9"]),
        (["users", "7", "posts"], 2, ["rest": "users/7/posts"]),
    ] as [([String], Int, [String: String])])
    func precedence(path: [String], winner: Int, captured: [String: String]) throws {
        let found = try #require(matcher.match(path))
        #expect(found.index == winner)
        for (name, value) in captured where !name.isEmpty {
            #expect(found.items.first { $0.name == name }?.value == value)
        }
    }

    @Test("these patterns build without diagnostics")
    func cleanBuild() {
        #expect(matcher.diagnostics.isEmpty)
    }

    @Test("a literal beats a parameter even when declared later")
    func literalBeatsParameterRegardlessOfOrder() throws {
        let matcher = LinkMatcher(patterns: ["/p/:id", "/p/me"])
        #expect(try #require(matcher.match(["p", "me"])).index == 1)
        #expect(try #require(matcher.match(["p", "you"])).index == 0)
    }

    @Test("a wildcard captures its segments as a list, keeping decoded slashes inside them")
    func wildcardSegments() throws {
        let matcher = LinkMatcher(patterns: ["/files/*path"])
        let found = try #require(matcher.match(["files", "a/b", "c"]))
        #expect(found.wildcard?.segments == ["a/b", "c"])
        #expect(found.items == [.init(name: "path", value: "a/b/c")])
    }

    @Test("among patterns of the same shape the first declared wins")
    func declarationOrder() throws {
        let matcher = LinkMatcher(patterns: ["/p/:a", "/p/:b"])
        let found = try #require(matcher.match(["p", "1"]))
        #expect(found.index == 0)
        #expect(found.items == [.init(name: "a", value: "1")])
    }

    @Test("nothing matches a path no pattern covers")
    func noMatch() {
        let matcher = LinkMatcher(patterns: ["/a", "/b/:x"])
        #expect(matcher.match(["c"]) == nil)
        #expect(matcher.match(["b"]) == nil)
        #expect(matcher.match(["b", "1", "2"]) == nil)
    }

    @Test("backtracking through many mixed branches still finds the only match")
    func deepBacktracking() throws {
        // Every level has a literal and a parameter branch; only the all-parameter path
        // ending in "end" matches, so the search must back out of every literal branch.
        var patterns: [String] = []
        for depth in 1...20 {
            patterns.append("/" + Array(repeating: "x", count: depth).joined(separator: "/") + "/dead")
        }
        patterns.append("/" + (0..<20).map { ":p\($0)" }.joined(separator: "/") + "/end")
        let matcher = LinkMatcher(patterns: patterns)
        let found = try #require(matcher.match(Array(repeating: "x", count: 20) + ["end"]))
        #expect(found.index == 20)
    }
}

@Suite("Matcher diagnostics")
struct LinkDiagnosticsTests {
    func codes(_ patterns: [String]) -> [String] {
        LinkMatcher(patterns: patterns).diagnostics.map { "\($0.index):\($0.code)" }
    }

    @Test("a duplicate pattern is reported, also when written differently")
    func duplicate() {
        #expect(codes(["/a/:x", "/a/:x/"]) == ["1:duplicate_pattern"])
        #expect(codes(["/caf%C3%A9", "/café"]) == ["1:duplicate_pattern"])
        #expect(LinkMatcher(patterns: ["/a", "//a"]).diagnostics.first?.problem == .duplicate(of: 0))
    }

    @Test("a wildcard before the last segment is invalid")
    func wildcardNotLast() {
        #expect(codes(["/a/*rest/b"]) == ["0:wildcard_not_last"])
    }

    @Test("invalid parameter names are reported", arguments: ["/a/:1x", "/a/:", "/a/:x-y", "/*", "/:é"])
    func invalidName(pattern: String) {
        #expect(codes([pattern]) == ["0:invalid_parameter_name"])
    }

    @Test("a name used twice in one pattern is invalid")
    func duplicateName() {
        #expect(codes(["/a/:x/:x"]) == ["0:duplicate_parameter_name"])
    }

    @Test("dot segments in a pattern are invalid")
    func dotSegment() {
        #expect(codes(["/a/../b"]) == ["0:dot_segment"])
    }

    @Test("a literal with a bad percent escape is invalid_encoding")
    func invalidEncoding() {
        #expect(LinkMatcher(patterns: ["/a/%zz"]).diagnostics.map(\.code) == ["invalid_encoding"])
    }

    @Test("a literal with a character no path segment holds is invalid_character", arguments: [
        "/search?q=:x", "/a#b", "/a b", "/a\\b",
    ])
    func invalidCharacter(pattern: String) {
        #expect(LinkMatcher(patterns: [pattern]).diagnostics.map(\.code) == ["invalid_character"])
    }

    @Test("the same shape with different parameter names is reported")
    func namesDiffer() {
        let diagnostics = LinkMatcher(patterns: ["/p/:a", "/p/:b"]).diagnostics
        #expect(diagnostics.map(\.problem) == [.parameterNamesDiffer(from: 0, names: ["b"], earlierNames: ["a"])])
    }

    @Test("a pattern that more specific ones always beat is shadowed")
    func shadowed() {
        // "/*all" matches every path, but "/" takes the root and "/:x/*rest" every other.
        #expect(codes(["/:x/*rest", "/", "/*all"]) == ["2:shadowed_pattern"])
    }

    @Test("a pattern that still wins somewhere is not shadowed")
    func notShadowed() {
        #expect(codes(["/a/*rest", "/*all", "/:x", "/a/b"]).isEmpty)
    }

    @Test("an invalid pattern is left out and the rest still match")
    func invalidLeftOut() throws {
        let matcher = LinkMatcher(patterns: ["/a/:1", "/a/:ok"])
        #expect(matcher.patterns[0] == nil)
        #expect(try #require(matcher.match(["a", "1"])).index == 1)
    }

    @Test("every diagnostic says which pattern and what is wrong")
    func descriptions() {
        for diagnostic in LinkMatcher(patterns: ["/a/*r/b", "/p/:a", "/p/:b", "/p/:a"]).diagnostics {
            #expect(diagnostic.description.contains("pattern #\(diagnostic.index)"))
        }
    }
}
