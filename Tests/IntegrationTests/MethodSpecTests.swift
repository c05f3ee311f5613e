import Foundation
import SceneWire
import Testing

/// The protocol document's statements about methods, read from its text.
private struct SpecText {
    let text: String

    init() throws {
        text = try String(contentsOf: protocolsFolder.appendingPathComponent("scene-protocol-v1.md"), encoding: .utf8)
    }

    /// The lines of section `heading` (a line that starts with it) up to the next heading.
    func section(_ heading: String) -> [Substring] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { $0.hasPrefix(heading) }) else { return [] }
        let rest = lines[(start + 1)...]
        let end = rest.firstIndex(where: { $0.hasPrefix("#") }) ?? rest.endIndex
        return Array(rest[..<end])
    }

    /// The names in backticks in `text` that are methods.
    static func methods(in text: Substring) -> [WireMethod] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .compactMap { index, part in index % 2 == 1 ? WireMethod(rawValue: String(part)) : nil }
    }

    /// The cells of a table row.
    static func cells(_ row: Substring) -> [Substring] {
        row.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast().map { $0.trimmingCharacters(in: .whitespaces)[...] }
    }
}

@Suite("The protocol's method summary, roles and order of answers agree with the method table")
struct MethodSpecTests {
    @Test("§8.1 lists each method of the table once, and no other")
    func summaryListsTheTable() throws {
        let rows = try SpecText().section("### 8.1").filter { $0.hasPrefix("| `") }
        let listed = rows.compactMap { SpecText.methods(in: SpecText.cells($0)[0]).first }
        #expect(listed.count == rows.count, "a row of §8.1 names no method")
        #expect(Set(listed).count == listed.count, "a method is listed twice")
        #expect(Set(listed) == Set(WireCalls.all.map(\.method)))
    }

    @Test("§8.1's params of each method are the members its params type decodes")
    func summaryParamsDecode() throws {
        for row in try SpecText().section("### 8.1").filter({ $0.hasPrefix("| `") }) {
            let cells = SpecText.cells(row)
            guard let method = SpecText.methods(in: cells[0]).first else { continue }
            // Each form the summary gives (`{a, b?}` or `{c}`), with its required members.
            let forms = cells[1].split(separator: "`", omittingEmptySubsequences: false).enumerated().compactMap { $0 % 2 == 1 ? $1 : nil }.filter { $0.hasPrefix("{") }
            #expect(!forms.isEmpty, "\(method.rawValue): no params in §8.1")
            for form in forms {
                let members = form.dropFirst().dropLast().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
                    .filter { !$0.isEmpty }.map { $0.split(separator: ":")[0].trimmingCharacters(in: .whitespaces) }
                let required = members.filter { !$0.hasSuffix("?") }
                // The required members, each a placeholder string, are enough for the type
                // to read the form's shape, or it names the first member it misses.
                var object: [String: Any] = [:]
                for member in required { object[member] = placeholder(for: member) }
                let data = try JSONSerialization.data(withJSONObject: object)
                let decoded = Result { try JSONDecoder().decode(method.spec.paramsType, from: data) }
                if case .failure(let error) = decoded, case DecodingError.keyNotFound(let key, _) = error {
                    Issue.record("\(method.rawValue): §8.1 gives \(form), but the params type also needs \(key.stringValue)")
                }
            }
        }
    }

    @Test("§6 gives each method the scene access of its row")
    func rolesAgree() throws {
        var stated: [WireMethod: SceneAccess] = [:]
        for row in try SpecText().section("## 6.").filter({ $0.hasPrefix("| `") }) {
            let cells = SpecText.cells(row)
            let access: SceneAccess
            if cells[1].hasPrefix("no") {
                access = .forbidden
            } else if cells[2].hasPrefix("each step") {
                access = .eachStep
            } else if cells[2].hasPrefix("`instance`") {
                access = .own("instance", refusing: cells[1].contains("`{scene}` form → `forbidden`") ? "scene" : nil)
            } else if cells[2].hasPrefix("`from`") {
                access = .own("from")
            } else {
                access = .asIs
            }
            for method in SpecText.methods(in: cells[0]) {
                #expect(stated[method] == nil, "\(method.rawValue) is in two rows of §6")
                stated[method] = access
            }
        }
        for spec in WireCalls.all where spec.method != .hello {
            #expect(stated[spec.method] == spec.scene, "\(spec.method.rawValue)")
        }
    }

    @Test("§3.4 names the methods answered at once and the one whose answer holds nothing")
    func orderAgrees() throws {
        let lines = try SpecText().section("### 3.4")
        let bullets = lines.joined(separator: "\n").split(separator: "\n- ").map { $0.replacingOccurrences(of: "\n  ", with: " ")[...] }
        let atOnce = Set(bullets.first.map(SpecText.methods) ?? [])
        let withoutHolding = Set(bullets.filter { $0.contains("do not wait for its answer") }.flatMap(SpecText.methods))
        for spec in WireCalls.all {
            switch spec.order {
            case .atOnce: #expect(atOnce.contains(spec.method), "\(spec.method.rawValue) is answered at once")
            case .inTurn: #expect(!atOnce.contains(spec.method) && !withoutHolding.contains(spec.method), "\(spec.method.rawValue)")
            case .inTurnWithoutHolding: #expect(withoutHolding.contains(spec.method), "\(spec.method.rawValue)")
            }
        }
    }

    /// A value for a required member that decodes as what the member holds, by its name.
    private func placeholder(for member: String) -> Any {
        switch member {
        case "protocol": return [1]
        case "authenticated": return true
        case "steps", "intents", "observed", "plan": return [] as [Any]
        case "intent": return ["type": "pop"]
        case "route", "result": return "x"
        case "to": return "main-1"
        default: return "x"
        }
    }
}
