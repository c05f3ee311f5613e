import SceneSync

let hits = Locked(0)
hits.withLock { $0 += 1 }
let seen = hits.withLock { $0 }
print(seen)
