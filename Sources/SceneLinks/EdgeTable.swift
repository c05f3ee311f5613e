/// The literal edges of a ``LinkMatcher`` tree in one open-addressing hash table keyed by
/// (parent node, segment), so that following an edge costs one hash of the segment and,
/// usually, one probe — however many patterns the tree holds.
///
/// The hash is FNV-1a over the segment's UTF-8 bytes, mixed with the parent. Only the
/// patterns decide how entries cluster; a URL's segments are only looked up, so they
/// cannot lengthen a probe sequence.
struct EdgeTable: Sendable {
    private struct Entry: Sendable {
        var hash: UInt64 = 0
        var parent: Int32 = -1
        var child: Int32 = -1
        var segment = ""
        /// A copy of the child node, filled in by ``embed(_:)`` once the tree is built.
        var node = Node()
    }

    private var entries = [Entry](repeating: Entry(), count: 16)
    private var count = 0

    /// The child of `parent` along the literal `segment`, and a copy of its node.
    func child(of parent: Int32, _ segment: String) -> (index: Int32, node: Node)? {
        let hash = EdgeTable.hash(segment, parent: parent)
        return entries.withUnsafeBufferPointer { entries in
            let mask = entries.count - 1
            var slot = Int(truncatingIfNeeded: hash) & mask
            while true {
                let entry = entries[slot]
                if entry.child < 0 { return nil }
                if entry.hash == hash, entry.parent == parent, entry.segment == segment {
                    return (entry.child, entry.node)
                }
                slot = (slot + 1) & mask
            }
        }
    }

    /// Adds the edge `parent --segment--> child`; the edge must be new.
    mutating func insert(parent: Int32, _ segment: String, child: Int32) {
        if (count + 1) * 4 > entries.count * 3 { grow() }
        place(Entry(hash: EdgeTable.hash(segment, parent: parent), parent: parent, child: child, segment: segment))
        count += 1
    }

    /// Copies each edge's child node into the edge.
    mutating func embed(_ nodes: [Node]) {
        for slot in entries.indices where entries[slot].child >= 0 {
            entries[slot].node = nodes[Int(entries[slot].child)]
        }
    }

    private mutating func place(_ entry: Entry) {
        let mask = entries.count - 1
        var slot = Int(truncatingIfNeeded: entry.hash) & mask
        while entries[slot].child >= 0 { slot = (slot + 1) & mask }
        entries[slot] = entry
    }

    private mutating func grow() {
        let old = entries
        entries = [Entry](repeating: Entry(), count: old.count * 2)
        for entry in old where entry.child >= 0 { place(entry) }
    }

    static func hash(_ segment: String, parent: Int32) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        let contiguous: Void? = segment.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        if contiguous == nil {
            for byte in segment.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
        }
        // Mix in the parent and finish with a 64-bit avalanche so low bits spread well.
        hash ^= UInt64(UInt32(bitPattern: parent)) &* 0x9E37_79B9_7F4A_7C15
        hash ^= hash >> 33
        hash &*= 0xFF51_AFD7_ED55_8CCD
        hash ^= hash >> 33
        return hash
    }
}
