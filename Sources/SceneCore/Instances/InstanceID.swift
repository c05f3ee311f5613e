import SceneFlow

/// A scene instance's stable identifier, `<scene>-<n>`, with `n` counting from 1 per
/// scene and never reused during a registry's life (restores keep it).
public struct InstanceID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The scene the instance belongs to.
    public let scene: String
    /// Its number within the scene, from 1.
    public let number: Int

    /// The identifier of instance `number` of `scene`.
    public init(scene: String, number: Int) {
        self.scene = scene
        self.number = number
    }

    /// The largest instance number (10^15): counters stay far from overflow whatever a
    /// snapshot or a client says.
    public static let maximumNumber = 1_000_000_000_000_000

    /// Parses `"<scene>-<n>"`; the number follows the last `-` and is at most
    /// ``maximumNumber``.
    public init?(_ text: String) {
        // Over the UTF-8 bytes: an id is parsed from every request that names one.
        let utf8 = text.utf8
        guard let dash = utf8.lastIndex(of: UInt8(ascii: "-")), dash != utf8.startIndex else { return nil }
        let digits = utf8[utf8.index(after: dash)...]
        // Canonical numbers only: "main-1", never "main-01" or "main-+1".
        guard let first = digits.first, first != UInt8(ascii: "0") else { return nil }
        var number = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            number = number * 10 + Int(digit &- UInt8(ascii: "0"))
            guard number <= InstanceID.maximumNumber else { return nil }
        }
        self.init(scene: String(text[..<dash]), number: number)
    }

    public var description: String { "\(scene)-\(number)" }

    /// Hashes the number and the length of the scene's name, not the name itself: ids are
    /// the keys of every table of a registry, and hashing a string costs more than the
    /// rest of a lookup. Equal ids still hash equal; ids that share both are of different
    /// scenes with names of one length, which equality then tells apart (a registry's
    /// numbers are its own and unique per scene, so at most one per such scene).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(number)
        hasher.combine(scene.utf8.count)
    }

    /// The hash a `Dictionary` or `Set` with `seed` places the id by: the same two parts
    /// mixed with a key random per process and the table's seed by a multiply–xorshift
    /// finalizer instead of SipHash, which was a fifth of a registry's time at 100,000
    /// instances. (`Hashable`'s own, underscored, requirement: the one the standard
    /// library's tables call.)
    ///
    /// The registry's tables hold ids it made itself (numbers counted up per scene). The
    /// few tables of ids a client names (a subscription's `instances` filter) hold what one
    /// message lists, and without the process's key a client cannot aim ids at one bucket.
    public func _rawHashValue(seed: Int) -> Int {
        var mixed = UInt64(UInt(bitPattern: number)) &* 0x9E37_79B9_7F4A_7C15
        mixed ^= InstanceID.hashKey ^ UInt64(UInt(bitPattern: seed)) ^ (UInt64(scene.utf8.count) << 48)
        mixed ^= mixed >> 31
        mixed &*= 0xBF58_476D_1CE4_E5B9
        mixed ^= mixed >> 29
        mixed &*= 0x94D0_49BB_1331_11EB
        mixed ^= mixed >> 32
        return Int(truncatingIfNeeded: mixed)
    }

    /// The key ``_rawHashValue(seed:)`` mixes in, drawn once per process, as SipHash's is.
    private static let hashKey = UInt64.random(in: .min ... .max)

    /// By scene, then by number. Instances of one scene (the usual case when many are
    /// sorted) are told apart by their numbers after an equality check of their scenes,
    /// which is cheaper than ordering two equal strings.
    public static func < (lhs: InstanceID, rhs: InstanceID) -> Bool {
        lhs.scene == rhs.scene ? lhs.number < rhs.number : lhs.scene < rhs.scene
    }
}

extension InstanceID: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let id = InstanceID(text) else {
            throw DecodingError.dataCorruptedError(
                in: container, debugDescription: "\"\(text)\" is not an instance id (<scene>-<n>)")
        }
        self = id
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}

/// Where a scene instance is in its life.
public enum ScenePhase: String, Hashable, Codable, Sendable, CaseIterable {
    /// Reserved; what backs it is still starting.
    case opening
    /// On screen and interactive.
    case active
    /// On screen, not interactive.
    case inactive
    /// Not on screen (a window a pushed window took the place of, for example).
    case background
    /// Its process died; it may be restarted with its path intact.
    case disconnected
    /// Dismissed.
    case closed

    /// Whether a scene may report this phase for itself.
    public var isReportable: Bool { self == .active || self == .inactive || self == .background }
}
