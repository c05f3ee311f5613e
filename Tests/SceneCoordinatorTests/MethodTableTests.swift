@testable import SceneCoordinator
import SceneWire
import Testing

@Suite("The method table: every method served one way")
struct MethodTableTests {
    @Test("every method but hello is served by exactly one of a registry call and a session handler")
    func everyMethodServedOnce() {
        for method in WireMethod.allCases where method != .hello {
            let ways = (RegistryCalls.byMethod[method] == nil ? 0 : 1) + (Session.handlers[method] == nil ? 0 : 1)
            #expect(ways == 1, "\(method.rawValue) is served \(ways) ways")
        }
        #expect(RegistryCalls.byMethod[.hello] == nil && Session.handlers[.hello] == nil)
    }

    @Test("a method answered at once is a session's own: the registry serves only methods in their turn")
    func registryCallsAreInTurn() {
        for method in RegistryCalls.byMethod.keys {
            #expect(method.spec.order != .atOnce, "\(method.rawValue)")
        }
    }
}
