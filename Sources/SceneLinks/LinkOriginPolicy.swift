/// Which origins a link may come from: an allowlist of schemes and one of hosts.
///
/// - Fail closed: an empty list allows nothing.
/// - The lists are independent: any listed scheme with any listed host.
/// - Both compare case-insensitively (they are stored lowercased).
/// - Custom schemes (`demo://demo.example/…`) and universal links
///   (`https://demo.example/…`) are checked the same way.
public struct LinkOriginPolicy: Hashable, Sendable {
    /// The allowed schemes, lowercased.
    public let schemes: Set<String>
    /// The allowed hosts, lowercased.
    public let hosts: Set<String>

    // Allowlists are short: comparing a few strings is cheaper than hashing one.
    private let schemeList: [String]
    private let hostList: [String]

    /// A policy allowing `schemes` with `hosts`.
    public init(schemes: some Sequence<String>, hosts: some Sequence<String>) {
        self.schemes = Set(schemes.map { $0.lowercased() })
        self.hosts = Set(hosts.map { $0.lowercased() })
        self.schemeList = self.schemes.sorted()
        self.hostList = self.hosts.sorted()
    }

    /// The policy that allows nothing.
    public static var closed: LinkOriginPolicy { LinkOriginPolicy(schemes: [], hosts: []) }

    /// Why `url`'s origin is refused, or `nil` when it is allowed.
    public func check(_ url: LinkURL) -> LinkRejection? {
        if !allows(url.scheme, in: schemeList, or: schemes) { return .schemeNotAllowed(url.scheme) }
        if !allows(url.host, in: hostList, or: hosts) { return .hostNotAllowed(url.host) }
        return nil
    }

    private func allows(_ value: String, in list: [String], or set: Set<String>) -> Bool {
        list.count <= 8 ? list.contains(value) : set.contains(value)
    }
}
