// Helpers shared by the benchmark executables.
import Foundation

/// A deterministic generator (SplitMix64), so every run measures the same inputs.
public struct SplitMix: RandomNumberGenerator {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The number after `name` on the command line, or `value`.
public func option(_ name: String, default value: Double) -> Double {
    let arguments = CommandLine.arguments
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count,
        let parsed = Double(arguments[index + 1])
    else { return value }
    return parsed
}

/// A duration in seconds.
public func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
}

/// The median of `values` (the upper one for an even count).
public func median(_ values: [Double]) -> Double {
    values.sorted()[values.count / 2]
}

/// `min  median  max` of `values`, each formatted with `format`.
public func spread(_ values: [Double], format: String) -> String {
    let sorted = values.sorted()
    return [sorted.first!, median(sorted), sorted.last!].map { String(format: format, $0) }.joined(separator: "  ")
}

/// Pads `text` with spaces to `width` characters.
public func padded(_ text: String, _ width: Int) -> String {
    text.padding(toLength: max(width, text.count), withPad: " ", startingAt: 0)
}

/// A process's resident memory in KiB (`VmRSS` of `/proc/<pid>/status`); 0 when unknown.
public func residentKiB(_ pid: Int32) -> Int {
    let status = (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
}
