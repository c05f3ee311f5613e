import SceneSocket

/// Durable answers in groups (`--durable`): the journal lines of every change made in one
/// loop turn go to disk together, with one sync (`fdatasync`), on the journal's writer
/// thread, and the answers to the requests that made them are written once it returns. The
/// loop never waits for the disk: it keeps reading and answering meanwhile, and the turns
/// that end while one write is on its way go to disk together in the next. Loop thread
/// only.
final class GroupCommit {
    let journal: Journal
    let loop: EventLoop
    /// The number of the last event known to be on disk.
    private(set) var synced: UInt64 = 0
    /// Sessions with answers waiting for the disk.
    private var waiting: [Session] = []
    /// Told the number of the last event on disk each time it grows, before the answers
    /// waiting for it are written (the events they caused go out first, as without a journal).
    var onSynced: ((UInt64) -> Void)?

    init(journal: Journal, loop: EventLoop) {
        self.journal = journal
        self.loop = loop
        // What the file held when it was opened (earlier runs' lines) is on disk already,
        // and the numbers a restart skipped belong to no event.
        self.synced = journal.numberedAfter
        let commit = LoopBound(self, loop: loop)
        journal.whenSynced { seq in
            commit.loop.execute { commit.value.didSync(through: seq) }
        }
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

    /// Hands what this turn recorded to the writer, and starts it unless it is writing.
    private func commit() {
        guard journal.seal() else { return }
        let journal = self.journal
        journal.writer.async { journal.writeSealed() }
    }

    private func didSync(through seq: UInt64) {
        synced = max(synced, seq)
        onSynced?(synced)
        release()
    }

    /// Writes and syncs what is recorded now, waiting for it on this thread (shutdown),
    /// then releases every answer waiting for it.
    func syncNow() {
        commit()
        // Every write started before this one is done; one that let a compaction go first
        // is queued again behind it, so wait until the writer has stopped.
        repeat { journal.writer.sync {} } while journal.isWriting
        synced = max(synced, journal.lastRecorded)
        onSynced?(synced)
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
