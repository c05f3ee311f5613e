/// A first-in, first-out queue with amortised O(1) append and removal from the front.
@usableFromInline package struct FIFOQueue<Element> {
    @inlinable package init() {}

    @usableFromInline var storage: [Element] = []
    @usableFromInline var head = 0

    @inlinable package var count: Int { storage.count - head }
    @inlinable package var isEmpty: Bool { head == storage.count }

    /// The oldest element, if any.
    @inlinable package var first: Element? { head < storage.count ? storage[head] : nil }

    @inlinable package mutating func append(_ element: Element) {
        storage.append(element)
    }

    /// Removes and returns every element, oldest first.
    @inlinable package mutating func removeAll() -> [Element] {
        defer {
            storage = []
            head = 0
        }
        return head == 0 ? storage : Array(storage[head...])
    }

    /// Moves every element, oldest first, to the end of `destination`. When both the
    /// queue and `destination` start at their beginning, their storage is swapped: the
    /// queue goes on in `destination`'s old buffer, and nothing is copied or allocated.
    @inlinable package mutating func moveAll(into destination: inout [Element]) {
        if head == 0, destination.isEmpty {
            swap(&storage, &destination)
        } else {
            destination.append(contentsOf: storage[head...])
            storage.removeAll(keepingCapacity: true)
            head = 0
        }
    }

    @inlinable package mutating func popFirst() -> Element? {
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
