import SceneJSON
import Testing

@Suite("JSON Schema subset")
struct JSONSchemaTests {
    private func schema(_ json: JSONValue) throws -> JSONSchema { try JSONSchema(json: json) }

    @Test(
        "a type admits exactly its values; integer takes a number with no fraction, number every number",
        arguments: [
            ("null", JSONValue.null, true), ("null", 0, false), ("boolean", true, true), ("boolean", "true", false),
            ("integer", 3, true), ("integer", 3.0, true), ("integer", 3.5, false), ("number", 3.5, true), ("number", 3, true),
            ("string", "x", true), ("string", 1, false), ("array", [1], true), ("array", [:], false), ("object", [:], true),
            ("object", [], false),
        ] as [(String, JSONValue, Bool)])
    func types(type: String, value: JSONValue, fits: Bool) throws {
        #expect((try schema(["type": .string(type)]).violation(of: value) == nil) == fits)
    }

    @Test("a list of types admits a value of any of them")
    func typeList() throws {
        let nullableText = try schema(["type": ["string", "null"]])
        #expect(nullableText.violation(of: "a") == nil)
        #expect(nullableText.violation(of: .null) == nil)
        #expect(nullableText.violation(of: 1)?.message == "must be null or string, not integer")
    }

    @Test("the first violation is named by its path: a missing required member, a member's type, an element's")
    func paths() throws {
        let params = try schema([
            "type": "object", "required": ["doc"],
            "properties": ["doc": ["type": "string"], "pages": ["type": "array", "items": ["type": "integer"]]],
        ])
        #expect(params.violation(of: ["doc": "a", "pages": [1, 2]], at: "params") == nil)
        #expect(params.violation(of: ["pages": []], at: "params") == JSONProblem(path: "params", message: "must have member \"doc\""))
        #expect(params.violation(of: ["doc": 7], at: "params")?.path == "params.doc")
        #expect(params.violation(of: ["doc": "a", "pages": [1, "two"]], at: "params")?.path == "params.pages[1]")
        // Members the schema does not name are allowed.
        #expect(params.violation(of: ["doc": "a", "extra": true], at: "params") == nil)
    }

    @Test("enum admits only its values, compared as JSON values")
    func enumeration() throws {
        let style = try schema(["enum": ["push", "sheet", 1]])
        #expect(style.violation(of: "sheet") == nil)
        #expect(style.violation(of: 1.0) == nil)
        #expect(style.violation(of: "cover") != nil)
    }

    @Test("a keyword outside the subset, an unknown type or a malformed member is refused with its path, every one")
    func refusedSchemas() {
        do {
            _ = try JSONSchema(json: ["type": "text", "minLength": 1, "properties": ["a": ["pattern": "x"]], "required": "a"], path: "p")
            Issue.record("a schema outside the subset was read")
        } catch {
            #expect(error.problems.map(\.path).sorted() == ["p.minLength", "p.properties.a.pattern", "p.required", "p.type"])
        }
        #expect(throws: JSONSchemaError.self) { try JSONSchema(json: "string") }
        #expect(throws: JSONSchemaError.self) { try JSONSchema(json: ["enum": []]) }
    }

    @Test("annotations are accepted and change nothing")
    func annotations() throws {
        let annotated = try schema(["type": "string", "title": "Doc", "description": "a document id", "$comment": "kept"])
        #expect(annotated.violation(of: "x") == nil)
        #expect(annotated.json["title"] == "Doc")
    }
}
