/// Patterns compiled into a segment tree, so that matching a path costs time in the
/// path's length, not in the number of patterns.
///
/// Precedence, decided segment by segment from the left:
/// 1. a literal segment beats a parameter, and a parameter beats a wildcard — the most
///    specific pattern wins;
/// 2. with backtracking: when the literal branch fails further down, the parameter branch
///    is tried, then the wildcard;
/// 3. among patterns of the same shape, the one declared first wins.
///
/// With `/a/b/c`, `/:x/b/d` and `/*rest`: `/a/b/c` matches the first; `/a/b/d` fails down
/// the literal branch at `d` and matches `/:x/b/d`; `/a/z` matches `/*rest`.
public struct LinkMatcher: Sendable {
    /// The patterns, indexed by declaration order; `nil` where a pattern did not parse.
    public let patterns: [LinkPattern?]
    /// What the build found: invalid patterns (left out), duplicates, patterns that can
    /// never win.
    public private(set) var diagnostics: [LinkDiagnostic]

    private var nodes: [Node] = [Node()]
    private var literals = EdgeTable()
    private var longestPattern = 0


    /// Compiles `patterns` in declaration order.
    ///
    /// - Invalid patterns are left out and reported; so are duplicates, patterns of the
    ///   same shape with different parameter names, and patterns another always beats.
    public init(patterns texts: [String]) {
        var diagnostics: [LinkDiagnostic] = []
        var patterns: [LinkPattern?] = []
        for (index, text) in texts.enumerated() {
            do {
                patterns.append(try LinkPattern(text))
            } catch {
                patterns.append(nil)
                diagnostics += error.problems.map {
                    LinkDiagnostic(index: index, pattern: text, problem: .invalid($0))
                }
            }
        }
        self.patterns = patterns
        self.diagnostics = []
        var sameShape = Set<Int>()
        for (index, pattern) in patterns.enumerated() {
            guard let pattern else { continue }
            if let earlier = insert(pattern, index: index) {
                sameShape.insert(index)
                let first = patterns[earlier]!
                let problem: LinkDiagnostic.Problem =
                    first.parameterNames == pattern.parameterNames
                    ? .duplicate(of: earlier)
                    : .parameterNamesDiffer(from: earlier, names: pattern.parameterNames, earlierNames: first.parameterNames)
                diagnostics.append(LinkDiagnostic(index: index, pattern: pattern.text, problem: problem))
            }
        }
        embedNodes()
        for (index, pattern) in patterns.enumerated() where !sameShape.contains(index) {
            guard let pattern, let winner = alwaysBeaten(pattern, index: index) else { continue }
            diagnostics.append(LinkDiagnostic(index: index, pattern: pattern.text, problem: .shadowed(by: winner)))
        }
        self.diagnostics = diagnostics.sorted { $0.index < $1.index }
    }

    /// The pattern `segments` match, with what it captured; `nil` when none does.
    public func match(_ segments: [String]) -> LinkPathMatch? {
        var failed: Set<Int>?
        guard let found = search(0, nodes[0], 0, segments, &failed) else { return nil }
        let pattern = patterns[Int(found.pattern)]!
        // A pattern's segments line up one to one with the path's, up to the wildcard.
        var items: [LinkParameters.Item] = []
        items.reserveCapacity(pattern.segments.count)
        var wildcard: LinkParameters.Wildcard?
        for (position, segment) in pattern.segments.enumerated() {
            switch segment {
            case .literal:
                continue
            case .parameter(let name):
                items.append(LinkParameters.Item(name: name, value: segments[position]))
            case .wildcard(let name):
                let rest = Array(segments[found.wildcardStart...])
                wildcard = LinkParameters.Wildcard(name: name, segments: rest)
                items.append(LinkParameters.Item(name: name, value: rest.joined(separator: "/")))
            }
        }
        return LinkPathMatch(index: Int(found.pattern), items: items, wildcard: wildcard)
    }

    /// Adds `pattern` to the tree; returns the first earlier pattern of the same shape.
    private mutating func insert(_ pattern: LinkPattern, index: Int) -> Int? {
        longestPattern = max(longestPattern, pattern.segments.count)
        var node = 0
        for segment in pattern.shape {
            switch segment {
            case .literal(let value):
                if let child = literals.child(of: Int32(node), value) {
                    node = Int(child.index)
                } else {
                    nodes.append(Node())
                    literals.insert(parent: Int32(node), value, child: Int32(nodes.count - 1))
                    node = nodes.count - 1
                }
            case .parameter:
                if nodes[node].parameter < 0 {
                    nodes.append(Node())
                    nodes[node].parameter = Int32(nodes.count - 1)
                }
                node = Int(nodes[node].parameter)
            case .wildcard:
                if nodes[node].wildcard >= 0 { return Int(nodes[node].wildcard) }
                nodes[node].wildcard = Int32(index)
                return nil
            }
        }
        if nodes[node].terminal >= 0 { return Int(nodes[node].terminal) }
        nodes[node].terminal = Int32(index)
        return nil
    }

    /// Copies into each node the fields of its parameter child, and into each literal edge
    /// the node it leads to, so that a search reads one place per segment.
    private mutating func embedNodes() {
        for index in nodes.indices where nodes[index].parameter >= 0 {
            let child = nodes[Int(nodes[index].parameter)]
            nodes[index].parameterHasParameter = child.parameter >= 0
            nodes[index].parameterTerminal = child.terminal
            nodes[index].parameterWildcard = child.wildcard
        }
        literals.embed(nodes)
    }

    /// The node a search finds behind `node`'s parameter edge, read from `node` itself
    /// unless the parameter child has a parameter child of its own.
    private func parameterChild(of node: Node) -> Node {
        if node.parameterHasParameter { return nodes[Int(node.parameter)] }
        var child = Node()
        child.terminal = node.parameterTerminal
        child.wildcard = node.parameterWildcard
        return child
    }

    /// Depth-first search in precedence order. `failed` remembers (node, position) pairs
    /// known to fail, so backtracking never explores a subtree twice.
    private func search<Path: MatchablePath>(
        _ index: Int, _ node: Node, _ position: Int, _ path: Path, _ failed: inout Set<Int>?
    ) -> (pattern: Int32, wildcardStart: Int)? {
        if position == path.count {
            if node.terminal >= 0 { return (node.terminal, -1) }
            if node.wildcard >= 0 { return (node.wildcard, position) }
            return nil
        }
        let key = index &* (path.count + 1) &+ position
        if failed?.contains(key) == true { return nil }
        if let literal = path.literal(at: position), let child = literals.child(of: Int32(index), literal) {
            if let found = search(Int(child.index), child.node, position + 1, path, &failed) { return found }
        }
        if node.parameter >= 0 {
            let child = parameterChild(of: node)
            if let found = search(Int(node.parameter), child, position + 1, path, &failed) { return found }
        }
        if node.wildcard >= 0 { return (node.wildcard, position) }
        if failed == nil { failed = [] }
        failed!.insert(key)
        return nil
    }

    /// The pattern that wins over `pattern` for every URL `pattern` matches, if any.
    ///
    /// Probing with fresh values (equal to no literal) at the parameter positions gives
    /// `pattern` its best chance: whatever beats it there beats it everywhere. A trailing
    /// wildcard is probed with every tail length up to one past the longest pattern,
    /// beyond which no other length behaves differently.
    private func alwaysBeaten(_ pattern: LinkPattern, index: Int) -> Int? {
        var probe = pattern.shape.compactMap { segment -> String?? in
            switch segment {
            case .literal(let value): return .some(value)
            case .parameter: return .some(nil)
            case .wildcard: return nil
            }
        }
        let tailLengths = pattern.wildcardName == nil ? 0...0 : 0...(longestPattern + 1)
        var winner: Int?
        for _ in tailLengths {
            var failed: Set<Int>?
            if let found = search(0, nodes[0], 0, Probe(segments: probe), &failed) {
                if Int(found.pattern) == index { return nil }
                winner = winner ?? Int(found.pattern)
            }
            probe.append(nil)
        }
        return winner
    }
}

/// What a path matched: the pattern's index and the captured values.
public struct LinkPathMatch: Hashable, Sendable {
    /// The index of the winning pattern, in declaration order.
    public let index: Int
    /// The path parameters, in pattern order.
    public let items: [LinkParameters.Item]
    /// What the wildcard captured, when the pattern has one.
    public let wildcard: LinkParameters.Wildcard?
}

/// A path the search can walk: concrete segments, or probes with "fresh" values.
protocol MatchablePath {
    var count: Int { get }
    /// The segment at `position`, or `nil` for a value that equals no literal.
    func literal(at position: Int) -> String?
}

extension Array: MatchablePath where Element == String {
    func literal(at position: Int) -> String? { self[position] }
}

/// A node of the tree. Only the first pattern of a shape can ever win, so a node keeps
/// only that one; the later ones are reported when they are inserted.
struct Node: Sendable {
    /// The parameter child, or -1.
    var parameter: Int32 = -1
    /// The first pattern that ends here, or -1.
    var terminal: Int32 = -1
    /// The first pattern whose wildcard starts here, or -1.
    var wildcard: Int32 = -1
    /// Copies of the parameter child's fields, so that following a parameter edge
    /// usually needs no second read.
    var parameterHasParameter = false
    var parameterTerminal: Int32 = -1
    var parameterWildcard: Int32 = -1
}

struct Probe: MatchablePath {
    let segments: [String?]
    var count: Int { segments.count }
    func literal(at position: Int) -> String? { segments[position] }
}
