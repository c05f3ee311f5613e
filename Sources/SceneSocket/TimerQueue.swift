/// A timer scheduled on an event loop, for cancelling it.
public struct LoopTimer: Hashable, Sendable {
    let id: UInt64
}

/// The loop's timers: a binary min-heap of deadlines, with cancelled entries skipped
/// lazily. Loop thread only.
struct TimerQueue {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64
    }

    private var heap: [Entry] = []
    private var work: [UInt64: () -> Void] = [:]
    private var nextID: UInt64 = 1

    mutating func add(deadline: ContinuousClock.Instant, _ body: @escaping () -> Void) -> LoopTimer {
        let id = nextID
        nextID += 1
        work[id] = body
        heap.append(Entry(deadline: deadline, id: id))
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard heap[child].deadline < heap[parent].deadline else { break }
            heap.swapAt(child, parent)
            child = parent
        }
        return LoopTimer(id: id)
    }

    mutating func cancel(_ timer: LoopTimer) {
        work[timer.id] = nil
        // Keep the heap from filling with cancelled entries when most timers never fire.
        if heap.count > 64, heap.count > 4 * work.count { compact() }
    }

    /// The earliest live deadline, if any timer is pending.
    mutating func nextDeadline() -> ContinuousClock.Instant? {
        while let first = heap.first, work[first.id] == nil { removeFirst() }
        return heap.first?.deadline
    }

    /// How long epoll may wait: until the earliest live deadline (-1: no timer).
    mutating func millisecondsUntilNext(from now: ContinuousClock.Instant) -> Int32 {
        while let first = heap.first, work[first.id] == nil { removeFirst() }
        guard let first = heap.first else { return -1 }
        let remaining = first.deadline - now
        guard remaining > .zero else { return 0 }
        let (seconds, attoseconds) = remaining.components
        guard seconds < Int64(Int32.max) / 1000 else { return Int32.max }
        // Rounded up, so the loop never wakes just before a deadline and spins.
        let milliseconds = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(min(milliseconds, Int64(Int32.max)))
    }

    /// Takes every timer whose deadline has passed, earliest first, for the caller to run
    /// one by one with ``take(_:)`` (a timer's work may schedule or cancel others, so it
    /// must not run inside this mutation).
    mutating func takeDue(at now: ContinuousClock.Instant) -> [LoopTimer] {
        var due: [LoopTimer] = []
        while let first = heap.first, first.deadline <= now {
            removeFirst()
            if work[first.id] != nil { due.append(LoopTimer(id: first.id)) }
        }
        return due
    }

    /// The work of a due timer, unless an earlier one of the same batch cancelled it.
    mutating func take(_ timer: LoopTimer) -> (() -> Void)? {
        work.removeValue(forKey: timer.id)
    }

    private mutating func removeFirst() {
        heap.swapAt(0, heap.count - 1)
        heap.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < heap.count, heap[left].deadline < heap[smallest].deadline { smallest = left }
            if right < heap.count, heap[right].deadline < heap[smallest].deadline { smallest = right }
            guard smallest != parent else { return }
            heap.swapAt(parent, smallest)
            parent = smallest
        }
    }

    private mutating func compact() {
        let live = heap.filter { work[$0.id] != nil }.sorted { $0.deadline < $1.deadline }
        heap = live  // a sorted array is a valid min-heap
    }
}
