import SceneSocket

/// Durable answers in groups (`--durable`): the journal lines of every change made in one
/// loop turn go to disk together, with one fsync, on the journal's writer thread, and the
/// answers to the requests that made them are written once it returns. The loop never
/// waits for the disk: it keeps reading and answering meanwhile, and what it records while
/// one write is on its way goes in the next. Loop thread only.
final class GroupCommit {
    let journal: Journal
    let loop: EventLoop
    /// The number of the last event known to be on disk.
    private(set) var synced: UInt64 = 0
    private var writing = false
    /// Sessions with answers waiting for the disk.
    private var waiting: [Session] = []

    init(journal: Journal, loop: EventLoop) {
        self.journal = journal
        self.loop = loop
        loop.atEndOfEveryTurn { [unowned self] in self.commit() }
    }

    /// The number of the last event recorded, when it is not on disk yet.
    var unsynced: UInt64? {
        let last = journal.lastRecorded
        return last > synced ? last : nil
    }

    /// `session` has answers waiting for the disk; it hears when more is on disk.
    func whenSynced(through seq: UInt64, _ session: Session) {
        if !waiting.contains(where: { $0 === session }) { waiting.append(session) }
    }

    /// Starts writing what this turn (and the turns before it, while a write was on its
    /// way) recorded, unless a write is on its way.
    private func commit() {
        guard !writing, unsynced != nil else { return }
        writing = true
        let journal = self.journal
        let commit = LoopBound(self, loop: loop)
        journal.writer.async {
            let synced = journal.writePending()
            commit.loop.execute { commit.value.didSync(through: synced) }
        }
    }

    private func didSync(through seq: UInt64) {
        synced = max(synced, seq)
        writing = false
        release()
    }

    /// Writes and fsyncs what is recorded now, on this thread (shutdown), then releases
    /// every answer waiting for it.
    func syncNow() {
        let journal = self.journal
        let seq = journal.writer.sync { journal.writePending() }
        synced = max(synced, seq)
        release()
    }

    private func release() {
        let sessions = waiting
        waiting.removeAll()
        for session in sessions where session.releaseAnswers(through: synced) {
            waiting.append(session)
        }
    }
}
