extension JSONValue {
    /// Decodes a `Decodable` value straight from this JSON, without going through bytes.
    ///
    /// - Throws: `DecodingError` with the coding path of the first mismatch.
    public func decoded<T: Decodable>(as type: T.Type = T.self) throws -> T {
        if T.self == JSONValue.self { return unsafeBitCast(self, to: T.self) }
        return try T(from: JSONValueDecoder(value: self, codingPath: []))
    }

    /// This JSON as a `T` when `T` is `Int`, `String`, `Bool` or `Double` and the JSON is
    /// one of those (what most arguments are): decided by metadata, with no decoder made.
    package func primitive<T>(as type: T.Type) -> T? {
        if T.self == Int.self, let number = intValue { return unsafeBitCast(number, to: T.self) }
        if T.self == String.self, case .string(let text) = self { return unsafeBitCast(text, to: T.self) }
        if T.self == Bool.self, case .bool(let flag) = self { return unsafeBitCast(flag, to: T.self) }
        if T.self == Double.self, let number = doubleValue { return unsafeBitCast(number, to: T.self) }
        return nil
    }

    /// Decodes a `Decodable` value from this JSON with `userInfo` for the types that read
    /// it (a distributed actor finds its actor system there).
    ///
    /// - Throws: `DecodingError` with the coding path of the first mismatch.
    public func decoded<T: Decodable>(as type: T.Type = T.self, userInfo: [CodingUserInfoKey: any Sendable]) throws -> T {
        if T.self == JSONValue.self { return unsafeBitCast(self, to: T.self) }
        return try T(from: JSONValueDecoder(value: self, codingPath: [], info: .given(userInfo)))
    }

    /// Decodes a `Decodable` value from this JSON, with `context` giving the decoder's
    /// `userInfo` if a type being decoded asks for it (most never do: nothing is made for
    /// them).
    ///
    /// - Throws: `DecodingError` with the coding path of the first mismatch.
    package func decoded<T: Decodable>(as type: T.Type = T.self, context: some DecodingContext) throws -> T {
        if T.self == JSONValue.self { return unsafeBitCast(self, to: T.self) }
        return try T(from: JSONValueDecoder(value: self, codingPath: [], info: .context(context)))
    }

    /// Encodes an `Encodable` value straight into JSON, without going through bytes.
    public static func encoded<T: Encodable>(_ value: T) throws -> JSONValue {
        // A number, string or flag needs no encoder.
        if let json = JSONValueEncoder.leaf(value) { return json }
        let node = JSONValueEncoder.Node()
        try JSONValueEncoder.encode(value, into: node, path: [])
        return node.value
    }
}

/// Where a decoder's `userInfo` comes from when a type being decoded asks for it: a class
/// that has something to offer (a distributed actor system, say) passes itself, and the
/// dictionary is made only when asked for, which most types never do.
package protocol DecodingContext: AnyObject, Sendable {
    /// What the decoder's `userInfo` holds.
    var decodingUserInfo: [CodingUserInfoKey: Any] { get }
}

/// A `Decoder` over a ``JSONValue`` tree.
struct JSONValueDecoder: Decoder {
    /// A decoder's `userInfo`: given, or made from a context when asked for.
    enum Info {
        case given([CodingUserInfoKey: Any])
        case context(any DecodingContext)

        static var none: Info { .given([:]) }

        var userInfo: [CodingUserInfoKey: Any] {
            switch self {
            case .given(let userInfo): return userInfo
            case .context(let context): return context.decodingUserInfo
            }
        }
    }

    let value: JSONValue
    let codingPath: [any CodingKey]
    let info: Info

    var userInfo: [CodingUserInfoKey: Any] { info.userInfo }

    init(value: JSONValue, codingPath: [any CodingKey], info: Info = .none) {
        self.value = value
        self.codingPath = codingPath
        self.info = info
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self, value, codingPath) }
        return KeyedDecodingContainer(KeyedContainer<Key>(members: members, codingPath: codingPath, info: info))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else { throw mismatch([JSONValue].self, value, codingPath) }
        return UnkeyedContainer(values: values, codingPath: codingPath, info: info)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleContainer(value: value, codingPath: codingPath, info: info)
    }
}

private func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
    .typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value)"))
}

/// Converts a JSON value to a standard library number, string or flag the way
/// `JSONDecoder` does (numbers convert when they fit exactly); nil when `T` is none of
/// those.
///
/// Decided by the static type, compared as metadata (a pointer each), with no dynamic
/// cast: every member of every decoded struct comes through here. `path` is made only for
/// a mismatch.
private func primitive<T>(_ type: T.Type, _ value: JSONValue, _ path: () -> [any CodingKey]) throws -> T? {
    func `is`<P>(_: P.Type) -> Bool { ObjectIdentifier(T.self) == ObjectIdentifier(P.self) }
    func fits<P>(_ converted: P?) throws -> T {
        guard let converted else { throw mismatch(type, value, path()) }
        return unsafeBitCast(converted, to: T.self)
    }
    if `is`(Int.self) { return try fits(value.intValue) }
    if `is`(String.self) {
        guard case .string(let text) = value else { throw mismatch(type, value, path()) }
        return unsafeBitCast(text, to: T.self)
    }
    if `is`(Bool.self) {
        guard case .bool(let flag) = value else { throw mismatch(type, value, path()) }
        return unsafeBitCast(flag, to: T.self)
    }
    if `is`(Double.self) { return try fits(value.doubleValue) }
    if `is`(Float.self) { return try fits(value.doubleValue.map(Float.init)) }
    if `is`(Int8.self) { return try fits(value.intValue.flatMap(Int8.init(exactly:))) }
    if `is`(Int16.self) { return try fits(value.intValue.flatMap(Int16.init(exactly:))) }
    if `is`(Int32.self) { return try fits(value.intValue.flatMap(Int32.init(exactly:))) }
    if `is`(Int64.self) { return try fits(value.intValue.map(Int64.init)) }
    if `is`(UInt.self) { return try fits(value.intValue.flatMap(UInt.init(exactly:))) }
    if `is`(UInt8.self) { return try fits(value.intValue.flatMap(UInt8.init(exactly:))) }
    if `is`(UInt16.self) { return try fits(value.intValue.flatMap(UInt16.init(exactly:))) }
    if `is`(UInt32.self) { return try fits(value.intValue.flatMap(UInt32.init(exactly:))) }
    if `is`(UInt64.self) { return try fits(value.intValue.flatMap(UInt64.init(exactly:))) }
    return nil
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = "\(index)"
    }
    init?(intValue: Int) { self.init(intValue) }
    init?(stringValue: String) { return nil }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]
    let info: JSONValueDecoder.Info

    var allKeys: [Key] { members.keys.compactMap(Key.init(stringValue:)) }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func member(_ key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no member \"\(key.stringValue)\""))
        }
        return value
    }

    func decodeNil(forKey key: Key) throws -> Bool { try member(key).isNull }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try JSONValueDecoder.decode(type, from: member(key), at: { codingPath + [key] }, info: info)
    }

    /// One lookup, where the protocol's default makes three (`contains`, `decodeNil`,
    /// `decode`): absent and `null` are both none.
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try JSONValueDecoder.decode(type, from: $0, at: { codingPath + [key] }, info: info) }
    }

    // The members most structs have, read without a generic step: a synthesized
    // `init(from:)` asks for them by these requirements, not the generic one.

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try scalar(try member(key), key, \.intValue) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try scalar(try member(key), key, \.stringValue) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try scalar(try member(key), key, \.boolValue) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try scalar(try member(key), key, \.doubleValue) }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map { try scalar($0, key, \.intValue) } }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        try present(key).map { try scalar($0, key, \.stringValue) }
    }
    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map { try scalar($0, key, \.boolValue) } }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        try present(key).map { try scalar($0, key, \.doubleValue) }
    }

    /// Member `key`, unless it is absent or `null`.
    private func present(_ key: Key) -> JSONValue? {
        guard let value = members[key.stringValue], !value.isNull else { return nil }
        return value
    }

    /// `value` read as a `P` (as `primitive` reads one), or the mismatch at `key`.
    private func scalar<P>(_ value: JSONValue, _ key: Key, _ read: (JSONValue) -> P?) throws -> P {
        guard let scalar = read(value) else { throw mismatch(P.self, value, codingPath + [key]) }
        return scalar
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        try JSONValueDecoder(value: member(key), codingPath: codingPath + [key], info: info).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try JSONValueDecoder(value: member(key), codingPath: codingPath + [key], info: info).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        JSONValueDecoder(value: .object(members), codingPath: codingPath, info: info)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        JSONValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key], info: info)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    let info: JSONValueDecoder.Info
    var currentIndex = 0

    init(values: [JSONValue], codingPath: [any CodingKey], info: JSONValueDecoder.Info) {
        self.values = values
        self.codingPath = codingPath
        self.info = info
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private mutating func next() throws -> (JSONValue, [any CodingKey]) {
        let (value, index) = try nextIndexed()
        return (value, codingPath + [IndexKey(index)])
    }

    /// The next element and its index, whose path is made only when needed.
    private mutating func nextIndexed() throws -> (JSONValue, Int) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                JSONValue.self, .init(codingPath: codingPath, debugDescription: "the array has no element \(currentIndex)"))
        }
        defer { currentIndex += 1 }
        return (values[currentIndex], currentIndex)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex].isNull else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (value, index) = try nextIndexed()
        let codingPath = codingPath
        return try JSONValueDecoder.decode(type, from: value, at: { codingPath + [IndexKey(index)] }, info: info)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws
        -> KeyedDecodingContainer<NestedKey>
    {
        let (value, path) = try next()
        return try JSONValueDecoder(value: value, codingPath: path, info: info).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (value, path) = try next()
        return try JSONValueDecoder(value: value, codingPath: path, info: info).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (value, path) = try next()
        return JSONValueDecoder(value: value, codingPath: path, info: info)
    }
}

private struct SingleContainer: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]
    let info: JSONValueDecoder.Info

    func decodeNil() -> Bool { value.isNull }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try JSONValueDecoder.decode(type, from: value, at: { codingPath }, info: info)
    }
}

extension JSONValueDecoder {
    /// `value` as a `T`: JSON itself and a number, string or flag directly, with no
    /// decoder, nor their coding path (an array; for an element, an index made text)
    /// unless one does not fit; anything else through its `init(from:)`, with a decoder at
    /// `path`.
    static func decode<T: Decodable>(_ type: T.Type, from value: JSONValue, at path: () -> [any CodingKey], info: Info) throws -> T {
        if T.self == JSONValue.self { return unsafeBitCast(value, to: T.self) }
        if let primitive = try primitive(type, value, path) { return primitive }
        return try T(from: JSONValueDecoder(value: value, codingPath: path(), info: info))
    }
}

/// An `Encoder` that builds a ``JSONValue`` tree: containers write into shared nodes, and
/// the tree becomes a value once encoding ends, so nesting works at any depth.
///
/// A member or element that is a number, string, flag or null is stored as its JSON at
/// once; only a nested container gets a node of its own, filled in when the tree becomes a
/// value. So a flat struct costs one dictionary, built in place.
final class JSONValueEncoder: Encoder {
    /// A node of the tree being built.
    final class Node {
        enum Content {
            case empty
            case value(JSONValue)
            case object([String: JSONValue])
            case array([JSONValue])
        }

        /// Where a nested node's value goes in its parent.
        enum Slot {
            case member(String)
            case element(Int)
        }

        var content: Content = .empty
        /// Nested containers still being written, in the order they were made.
        private var nested: [(slot: Slot, node: Node)] = []

        var value: JSONValue {
            guard !nested.isEmpty else { return settled }
            for (slot, node) in nested {
                switch slot {
                case .member(let key): store(node.value, forKey: key)
                case .element(let index): set(node.value, at: index)
                }
            }
            nested = []
            return settled
        }

        private var settled: JSONValue {
            switch content {
            case .empty: return .null
            case .value(let value): return value
            case .object(let members): return .object(members)
            case .array(let elements): return .array(elements)
            }
        }

        func makeObject() {
            if case .object = content { return }
            // Room for a small struct's members, so that its first inserts do not regrow
            // the table one by one.
            content = .object(Dictionary(minimumCapacity: 4))
        }

        func makeArray() {
            if case .array = content { return }
            content = .array([])
        }

        /// Sets member `key` (the node becomes an object if it is not one), replacing a
        /// nested container made for it before.
        func set(_ value: JSONValue, forKey key: String) {
            if !nested.isEmpty {
                nested.removeAll { if case .member(key) = $0.slot { true } else { false } }
            }
            store(value, forKey: key)
        }

        private func store(_ value: JSONValue, forKey key: String) {
            guard case .object(var members) = content else {
                content = .object([key: value])
                return
            }
            content = .empty  // `members` is the only reference: the insert does not copy
            members[key] = value
            content = .object(members)
        }

        /// Appends an element (the node becomes an array if it is not one).
        func append(_ value: JSONValue) {
            guard case .array(var elements) = content else {
                content = .array([value])
                return
            }
            content = .empty
            elements.append(value)
            content = .array(elements)
        }

        private func set(_ value: JSONValue, at index: Int) {
            guard case .array(var elements) = content, elements.indices.contains(index) else { return }
            content = .empty
            elements[index] = value
            content = .array(elements)
        }

        /// The node of nested member `key`, the one made before for it if any.
        func member(_ key: String) -> Node {
            if let existing = nested.last(where: { if case .member(key) = $0.slot { true } else { false } }) {
                return existing.node
            }
            store(.null, forKey: key)
            let node = Node()
            nested.append((.member(key), node))
            return node
        }

        /// The node of a new nested last element.
        func append() -> Node {
            append(.null)
            let node = Node()
            nested.append((.element(count - 1), node))
            return node
        }

        var count: Int {
            if case .array(let elements) = content { return elements.count }
            return 0
        }
    }

    let node: Node
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    init(node: Node = Node(), codingPath: [any CodingKey]) {
        self.node = node
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedEncoding<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedEncoding(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleEncoding(node: node, codingPath: codingPath)
    }

    /// Encodes `value` into `node`.
    static func encode<T: Encodable>(_ value: T, into node: Node, path: [any CodingKey]) throws {
        if let json = leaf(value) {
            node.content = .value(json)
        } else {
            try value.encode(to: JSONValueEncoder(node: node, codingPath: path))
        }
    }

    /// The JSON of a value that needs no encoder: a ``JSONValue`` itself, or a standard
    /// library number, string or flag.
    @inline(__always)
    static func leaf<T: Encodable>(_ value: T) -> JSONValue? {
        if T.self == JSONValue.self { return unsafeBitCast(value, to: JSONValue.self) }
        return primitiveJSON(value)
    }

    /// The JSON of a standard library number, string or flag; nil for any other type.
    ///
    /// Decided by the value's static type, compared as metadata (a pointer each): a
    /// struct of the program's own costs fifteen comparisons here, not fifteen failed casts.
    static func primitiveJSON<T>(_ value: T) -> JSONValue? {
        func `is`<P>(_: P.Type) -> Bool { ObjectIdentifier(T.self) == ObjectIdentifier(P.self) }
        func cast<P>(_: P.Type) -> P { unsafeBitCast(value, to: P.self) }
        if `is`(Bool.self) { return .bool(cast(Bool.self)) }
        if `is`(String.self) { return .string(cast(String.self)) }
        if `is`(Int.self) { return .integer(cast(Int.self)) }
        if `is`(Double.self) { return .double(cast(Double.self)) }
        if `is`(Int8.self) { return .integer(Int(cast(Int8.self))) }
        if `is`(Int16.self) { return .integer(Int(cast(Int16.self))) }
        if `is`(Int32.self) { return .integer(Int(cast(Int32.self))) }
        if `is`(Int64.self) { return .integer(Int(cast(Int64.self))) }
        if `is`(UInt8.self) { return .integer(Int(cast(UInt8.self))) }
        if `is`(UInt16.self) { return .integer(Int(cast(UInt16.self))) }
        if `is`(UInt32.self) { return .integer(Int(cast(UInt32.self))) }
        if `is`(UInt.self) {
            let number = cast(UInt.self)
            return Int(exactly: number).map(JSONValue.integer) ?? .double(Double(number))
        }
        if `is`(UInt64.self) {
            let number = cast(UInt64.self)
            return Int(exactly: number).map(JSONValue.integer) ?? .double(Double(number))
        }
        if `is`(Float.self) { return .double(Double(cast(Float.self))) }
        return nil
    }
}

private struct KeyedEncoding<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil(forKey key: Key) throws {
        node.set(.null, forKey: key.stringValue)
    }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let json = JSONValueEncoder.leaf(value) {
            node.set(json, forKey: key.stringValue)
        } else {
            try value.encode(to: JSONValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]))
        }
    }

    // The members most structs have, stored without a generic step (a synthesized
    // `encode(to:)` gives them by these requirements).

    mutating func encode(_ value: Int, forKey key: Key) throws { node.set(.integer(value), forKey: key.stringValue) }
    mutating func encode(_ value: String, forKey key: Key) throws { node.set(.string(value), forKey: key.stringValue) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { node.set(.bool(value), forKey: key.stringValue) }
    mutating func encode(_ value: Double, forKey key: Key) throws { node.set(.double(value), forKey: key.stringValue) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey>
    {
        JSONValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        JSONValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        JSONValueEncoder(node: node.member("super"), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        JSONValueEncoder(node: node.member(key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedEncoding: UnkeyedEncodingContainer {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]

    var count: Int { node.count }

    mutating func encodeNil() throws { node.append(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let json = JSONValueEncoder.leaf(value) {
            node.append(json)
        } else {
            let index = count
            try value.encode(to: JSONValueEncoder(node: node.append(), codingPath: codingPath + [IndexKey(index)]))
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let index = count
        return JSONValueEncoder(node: node.append(), codingPath: codingPath + [IndexKey(index)]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let index = count
        return JSONValueEncoder(node: node.append(), codingPath: codingPath + [IndexKey(index)]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let index = count
        return JSONValueEncoder(node: node.append(), codingPath: codingPath + [IndexKey(index)])
    }
}

private struct SingleEncoding: SingleValueEncodingContainer {
    let node: JSONValueEncoder.Node
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try JSONValueEncoder.encode(value, into: node, path: codingPath)
    }
}
