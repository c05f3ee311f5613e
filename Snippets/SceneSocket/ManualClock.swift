import SceneSocket

let clock = LoopClock.manual()
let loop = try EventLoop(name: "test", clock: clock)
loop.execute { loop.scheduleOnLoop(after: .seconds(30)) { print("due") } }
await clock.advance(by: .seconds(30))   // prints "due", at once
// snippet.hide
await loop.shutdownGracefully()
