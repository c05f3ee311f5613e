import Foundation
import SceneLinks
import Testing

@Suite("Link parameters")
struct LinkParametersTests {
    let params = LinkParameters(
        path: [.init(name: "doc", value: "42"), .init(name: "id", value: "0f1e2d3c-4b5a-6978-8796-a5b4c3d2e1f0")],
        query: [.init(name: "doc", value: "7"), .init(name: "ratio", value: "0.5"), .init(name: "on", value: "true")])

    @Test("path values come first; a repeated name keeps every value")
    func order() {
        #expect(params.value("doc") == "42")
        #expect(params.values("doc") == ["42", "7"])
        #expect(params.pathItems.map(\.name) == ["doc", "id"])
        #expect(params.queryItems.map(\.name) == ["doc", "ratio", "on"])
    }

    @Test("typed accessors convert")
    func conversions() throws {
        #expect(try params.int("doc") == 42)
        #expect(try params.double("ratio") == 0.5)
        #expect(try params.bool("on"))
        #expect(try params.uuid("id") == UUID(uuidString: "0F1E2D3C-4B5A-6978-8796-A5B4C3D2E1F0"))
    }

    @Test("a missing or unconvertible value is a typed error", arguments: [
        ("missing", LinkParameterError.missing("missing")),
        ("ratio", .invalid(name: "ratio", value: "0.5", expected: "int")),
    ])
    func intErrors(name: String, error: LinkParameterError) {
        #expect(throws: error) { try params.int(name) }
    }

    @Test("bool, double and uuid refuse what they cannot read")
    func otherErrors() {
        #expect(throws: LinkParameterError.invalid(name: "doc", value: "42", expected: "bool")) {
            try params.bool("doc")
        }
        #expect(throws: LinkParameterError.invalid(name: "doc", value: "42", expected: "uuid")) {
            try params.uuid("doc")
        }
        let infinite = LinkParameters(path: [.init(name: "x", value: "inf")])
        #expect(throws: LinkParameterError.invalid(name: "x", value: "inf", expected: "double")) {
            try infinite.double("x")
        }
    }

    @Test("a parameter error maps to the invalid_parameter rejection")
    func rejection() {
        let error = LinkParameterError.invalid(name: "a", value: "b", expected: "int")
        #expect(error.rejection == .invalidParameter(name: "a", value: "b", expected: "int"))
        #expect(error.rejection.code == "invalid_parameter")
    }
}
