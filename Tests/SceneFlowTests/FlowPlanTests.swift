import SceneFlow
import Testing

@Suite("Plans built from pushes and a last step")
struct FlowPlanTests {
    @Test("a plan built from pushes and a last step is valid")
    func planBuilders() {
        #expect(FlowPlan<String>(pushing: ["a"], then: .sheet, "s").steps == [.push("a"), .sheet("s")])
        #expect(FlowPlan<String>(pushing: ["a"], then: .push, "b").steps == [.push("a"), .push("b")])
    }
}
