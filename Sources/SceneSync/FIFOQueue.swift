/// A first-in, first-out queue with amortised O(1) append and removal from the front.
package struct FIFOQueue<Element> {
    package init() {}

    private var storage: [Element] = []
    private var head = 0

    package var count: Int { storage.count - head }
    package var isEmpty: Bool { head == storage.count }

    /// The oldest element, if any.
    package var first: Element? { head < storage.count ? storage[head] : nil }

    package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns every element, oldest first.
    package mutating func removeAll() -> [Element] {
        defer {
            storage = []
            head = 0
        }
        return head == 0 ? storage : Array(storage[head...])
    }

    package mutating func popFirst() -> Element? {
        guard head < storage.count else { return nil }
        let element = storage[head]
        head += 1
        if head == storage.count {
            storage.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return element
    }
}

extension FIFOQueue: Sendable where Element: Sendable {}
