import SceneCore
import Testing

@Suite("Focus order")
struct FocusListTests {
    @Test("after any mix of moves to the end and removals, the list is the order an array keeps, its ends and count agree, and the latest match is found")
    func matchesAnArray() {
        var list = FocusList()
        var model: [InstanceID] = []
        var state: UInt64 = 0x5CE4E
        func roll(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for step in 0..<5_000 {
            let id = InstanceID(scene: roll(2) == 0 ? "doc" : "notes", number: 1 + roll(40))
            if roll(3) == 0 {
                list.remove(id)
                model.removeAll { $0 == id }
            } else {
                list.moveToLast(id)
                model.removeAll { $0 == id }
                model.append(id)
            }
            #expect(list.ordered == model, "step \(step)")
            #expect(list.first == model.first && list.last == model.last && list.count == model.count)
            #expect(list.lastMatching { $0.scene == "doc" } == model.last { $0.scene == "doc" })
        }
    }
}

@Suite("Instance ids as keys")
struct InstanceIDKeyTests {
    @Test("ids that share a number and a scene-name length are still different keys; equal ids are one key")
    func sameNumberSameLength() {
        let ids = ["doc-1", "map-1", "doc-2", "map-2", "a-1", "b-1"].compactMap { InstanceID($0) }
        var table: [InstanceID: String] = [:]
        for id in ids { table[id] = id.description }
        #expect(table.count == ids.count)
        for id in ids { #expect(table[InstanceID(scene: id.scene, number: id.number)] == id.description) }
        #expect(Set(ids + ids).count == ids.count)
    }
}
