/// The secret a spawned scene process proves itself with: 128 random bits, hex-encoded,
/// good for one `hello`.
struct SceneToken: Hashable, Sendable {
    let text: String

    /// A fresh token from the system's cryptographic generator (`getrandom`).
    static func make() -> SceneToken {
        var generator = SystemRandomNumberGenerator()
        let words = [generator.next(), generator.next()] as [UInt64]
        let hex = words.map { word -> String in
            let digits = String(word, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return SceneToken(text: hex.joined())
    }

    /// Compares with `candidate` in time that depends only on their lengths, so that a
    /// guesser learns nothing from how long a refusal takes.
    func matches(_ candidate: String) -> Bool { constantTimeEquals(text, candidate) }
}
