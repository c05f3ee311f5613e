/// The presented instances and who awaits each one's result, with the rules of how a
/// presentation ends (`scene.present` and `scene.finish`): finished, by its result; dismissed
/// first, `dismissed_without_result`; its presenter dismissed first, `parent_dismissed`.
///
/// `Waiter` is whatever answers one waiting request; it is told apart by identity.
package struct PresentationBook<Waiter: AnyObject & Sendable>: Sendable {
    /// One presented instance: the instance it was presented from, and who awaits it.
    package struct Presentation: Sendable {
        package let from: InstanceID
        package var waiters: [Waiter]
    }

    package private(set) var presented: [InstanceID: Presentation] = [:]

    package init() {}

    /// Whether nothing is presented.
    package var isEmpty: Bool { presented.isEmpty }

    /// `waiter` awaits `target`'s result, presented from `from`. A target presented again
    /// keeps the instance it was first presented from: that one's dismissal ends it.
    package mutating func await(_ waiter: Waiter, on target: InstanceID, from: InstanceID) {
        presented[target, default: Presentation(from: from, waiters: [])].waiters.append(waiter)
    }

    /// `waiter` awaits nothing any more (its open failed, or it was answered); a
    /// presentation nobody awaits ends.
    package mutating func forget(_ waiter: Waiter) {
        guard let id = presented.first(where: { $0.value.waiters.contains { $0 === waiter } })?.key else { return }
        presented[id]?.waiters.removeAll { $0 === waiter }
        if presented[id]?.waiters.isEmpty == true { presented[id] = nil }
    }

    /// `id` finishes: its presentation ends, and its waiters get the result with the
    /// instance as it was (then `id` is dismissed `requested`). Refused `not_presented` when
    /// `id` is not open (`instance` is nil) or nobody awaits it.
    package mutating func finish<Instance>(_ id: InstanceID, as instance: Instance?) -> Result<(Presentation, Instance), RegistryRejection> {
        guard let instance, let presentation = presented.removeValue(forKey: id) else { return .failure(.notPresented(id)) }
        return .success((presentation, instance))
    }

    /// After `gone` were dismissed: each waiter of a presentation of one of them, with its
    /// answer, `dismissed_without_result`; and the instances presented from one of them,
    /// by id, which are told, then dismissed (``take(_:)`` each in turn).
    package mutating func end(after gone: [InstanceID]) -> (withoutResult: [(Waiter, RegistryRejection)], orphans: [InstanceID]) {
        guard !presented.isEmpty else { return ([], []) }
        var withoutResult: [(Waiter, RegistryRejection)] = []
        for id in gone {
            for waiter in presented.removeValue(forKey: id)?.waiters ?? [] {
                withoutResult.append((waiter, .dismissedWithoutResult(id)))
            }
        }
        let orphans = presented.filter { gone.contains($0.value.from) }.keys.sorted()
        return (withoutResult, orphans)
    }

    /// The presentation of an orphan, taken out to be ended `parent_dismissed`; nil when an
    /// earlier orphan's dismissal took it already.
    package mutating func take(_ orphan: InstanceID) -> Presentation? {
        presented.removeValue(forKey: orphan)
    }

    /// Whether an orphan told its presenter went is dismissed `parent_dismissed` then: not
    /// when it was dismissed for another reason meanwhile, or presented anew.
    package func dismissesOrphan(_ id: InstanceID, isOpen: Bool) -> Bool {
        isOpen && presented[id] == nil
    }

    /// The answer of an orphan's waiters: `parent_dismissed`, naming the presenter.
    package static func orphaned(_ presentation: Presentation) -> RegistryRejection {
        .parentDismissed(presentation.from)
    }
}
