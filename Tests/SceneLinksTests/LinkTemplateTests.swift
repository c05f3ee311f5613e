import SceneFlow
import SceneJSON
import SceneLinks
import Testing

func pathParameters(_ pairs: KeyValuePairs<String, String>) -> LinkParameters {
    LinkParameters(path: pairs.map { LinkParameters.Item(name: $0.key, value: $0.value) })
}

@Suite("Link templates")
struct LinkTemplateTests {
    @Test("placeholders are filled in from path parameters, recursively")
    func render() throws {
        let template = try LinkTemplate(
            [["type": "push", "route": ["screen": "page", "doc": "${doc}", "title": "Doc ${doc}!"]]],
            parameters: ["doc"])
        let rendered = try template.render(pathParameters(["doc": "42"]))
        #expect(rendered == [["type": "push", "route": ["screen": "page", "doc": "42", "title": "Doc 42!"]]])
        #expect(template.parameterNames == ["doc"])
    }

    @Test("a whole-string placeholder with a conversion becomes a number or a boolean", arguments: [
        ("${v:int}", "42", JSONValue.integer(42)),
        ("${v:double}", "2.5", .double(2.5)),
        ("${v:bool}", "true", .bool(true)),
        ("${v:bool}", "0", .bool(false)),
        ("${v:string}", "7", .string("7")),
    ])
    func conversions(template: String, value: String, expected: JSONValue) throws {
        let compiled = try LinkTemplate(.string(template), parameters: ["v"])
        #expect(try compiled.render(pathParameters(["v": value])) == expected)
    }

    @Test("a value that does not convert rejects the link invalid_parameter")
    func badValue() throws {
        let template = try LinkTemplate(["id": "${id:int}"], parameters: ["id"])
        #expect(throws: LinkRejection.invalidParameter(name: "id", value: "abc", expected: "int")) {
            try template.render(pathParameters(["id": "abc"]))
        }
    }

    @Test("double and bool conversions reject values that do not convert", arguments: [
        ("${v:double}", "abc", "double"), ("${v:double}", "inf", "double"), ("${v:bool}", "maybe", "bool"),
    ])
    func badConversions(template: String, value: String, expected: String) throws {
        let compiled = try LinkTemplate(.string(template), parameters: ["v"])
        #expect(throws: LinkRejection.invalidParameter(name: "v", value: value, expected: expected)) {
            try compiled.render(pathParameters(["v": value]))
        }
    }

    @Test("templates see path parameters only, not query items")
    func pathOnly() throws {
        let template = try LinkTemplate("${doc}", parameters: ["doc"])
        let params = LinkParameters(path: [.init(name: "doc", value: "path")], query: [.init(name: "doc", value: "query")])
        #expect(try template.render(params) == "path")
    }

    @Test("$$ writes a literal dollar and a lone $ stays")
    func escapes() throws {
        let template = try LinkTemplate("cost $5, $${doc} is ${doc}", parameters: ["doc"])
        #expect(try template.render(pathParameters(["doc": "x"])) == "cost $5, ${doc} is x")
    }

    @Test("build errors name the JSON path of every problem", arguments: [
        (JSONValue.object(["plan": [["route": ["doc": "${nope}"]]]]), "plan[0].route.doc"),
        (["value": "${doc:float}"], "value"),
        (["value": "${doc"], "value"),
        (["value": "id-${doc:int}"], "value"),
        (["value": "${9x}"], "value"),
    ] as [(JSONValue, String)])
    func buildErrors(json: JSONValue, path: String) {
        do {
            _ = try LinkTemplate(json, parameters: ["doc"])
            Issue.record("building \(json) must fail")
        } catch {
            #expect(error.problems.map(\.path) == [path])
        }
    }

    @Test("all problems are reported at once, relative to the given path")
    func allProblems() {
        do {
            _ = try LinkTemplate(["a": "${x}", "b": ["${y:nope}"]], parameters: [], path: "links[1]")
            Issue.record("building must fail")
        } catch {
            #expect(error.problems.map(\.path) == ["links[1].a", "links[1].b[0]", "links[1].b[0]"])
        }
    }
}

@Suite("Template mappings")
struct LinkTemplateMappingTests {
    @Test("the manifest's mapping shape builds and renders a value and a plan")
    func buildsAndRenders() throws {
        let mapping = try LinkTemplateMapping(
            json: ["pattern": "/viewer/:doc", "value": "${doc}",
                   "plan": [["type": "push", "route": ["screen": "page", "doc": "${doc}"]]]],
            path: "scenes[1].links[0]")
        let rendered = try mapping.render(pathParameters(["doc": "42"]))
        #expect(rendered.value == "42")
        #expect(rendered.plan?.steps == [.push(["screen": "page", "doc": "42"])])
        #expect(!mapping.requiresAuth)
    }

    @Test("without a plan the path is left alone; with an empty plan it is reset")
    func planPresence() throws {
        let none = try LinkTemplateMapping(json: ["pattern": "/a"], path: "m")
        #expect(try none.render(pathParameters([:])).plan == nil)
        let empty = try LinkTemplateMapping(json: ["pattern": "/a", "plan": []], path: "m")
        #expect(try empty.render(pathParameters([:])).plan == FlowPlan.empty)
    }

    @Test("problems are reported with their JSON paths when the mapping is built", arguments: [
        (JSONValue.object(["pattern": "/v/:doc", "value": "${id}"]), ["m.value"]),
        (["pattern": "/v/:doc", "plan": [["type": "popover", "route": 1]]], ["m.plan[0].type"]),
        (["pattern": "/v/:doc", "plan": [["type": "sheet", "route": 1], ["type": "push", "route": 2]]], ["m.plan"]),
        (["pattern": "/v/*rest/x"], ["m.pattern"]),
        (["value": "x"], ["m.pattern"]),
        (["pattern": "/v", "requiresAuth": "yes"], ["m.requiresAuth"]),
        (["pattern": "/v", "extra": 1], ["m.extra"]),
        (["pattern": "/v", "plan": [:]], ["m.plan"]),
    ] as [(JSONValue, [String])])
    func buildErrors(json: JSONValue, paths: [String]) {
        do {
            _ = try LinkTemplateMapping(json: json, path: "m")
            Issue.record("building \(json) must fail")
        } catch {
            #expect(error.problems.map(\.path) == paths)
        }
    }
}
