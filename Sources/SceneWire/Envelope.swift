import SceneFlow
public import SceneJSON

/// The top level of a JSON-RPC message, found by scanning the bytes once: the members the
/// envelope needs are read, everything else (`params`, `result`, unknown members) is only
/// checked and located, to be decoded later by whoever needs it.
public struct Envelope: Sendable {
    /// `jsonrpc`, when it is a string.
    public var version: String?
    /// Whether `jsonrpc` is present at all.
    public var hasVersion = false
    /// `id`, when present (a request or a response); `.null` when it is JSON null.
    public var id: JSONValue?
    /// `method`, when it is a string.
    public var method: String?
    /// Whether `method` is present at all.
    public var hasMethod = false
    /// Where `params` is, as a byte range of the message.
    public var params: Range<Int>?
    /// Where `result` is.
    public var result: Range<Int>?
    /// Where `error` is.
    public var error: Range<Int>?

    /// What a message that cannot be scanned as an envelope is.
    public enum Failure: Error, Hashable, Sendable {
        /// Not JSON: answered with -32700 and `id: null`.
        case parse(JSONParseError)
        /// A JSON array: a batch, which protocol v1 does not support.
        case batch
        /// JSON, but not an object.
        case notAnObject
    }

    /// Scans `bytes`, checking that the whole message is valid JSON.
    public static func scan(_ bytes: UnsafeRawBufferPointer) -> Result<Envelope, Failure> {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        guard !parser.atEnd else { return .failure(.parse(parser.error("empty message"))) }
        let first = bytes[parser.offset]
        if first != UInt8(ascii: "{") {
            do throws(JSONParseError) {
                try parser.skipValue()
                parser.skipWhitespace()
                guard parser.atEnd else { throw parser.error("unexpected data after the JSON value") }
            } catch {
                return .failure(.parse(error))
            }
            return .failure(first == UInt8(ascii: "[") ? .batch : .notAnObject)
        }
        var envelope = Envelope()
        do throws(JSONParseError) {
            parser.offset += 1
            parser.depth = 1
            parser.skipWhitespace()
            if !parser.consume(UInt8(ascii: "}")) {
                while true {
                    parser.skipWhitespace()
                    guard !parser.atEnd, bytes[parser.offset] == UInt8(ascii: "\"") else {
                        throw parser.error("expected a string key")
                    }
                    let key = try Member(&parser)
                    parser.skipWhitespace()
                    guard parser.consume(UInt8(ascii: ":")) else { throw parser.error("expected ':' after a key") }
                    parser.skipWhitespace()
                    let start = parser.offset
                    switch key {
                    case .jsonrpc:
                        envelope.hasVersion = true
                        if parser.consume(quoted: "2.0") {
                            envelope.version = "2.0"
                        } else {
                            envelope.version = try parser.parseValue().stringValue
                        }
                    case .method:
                        envelope.hasMethod = true
                        envelope.method = try parser.parseValue().stringValue
                    case .id:
                        envelope.id = try parser.parseValue()
                    case .params:
                        try parser.skipValue()
                        envelope.params = start..<parser.offset
                    case .result:
                        try parser.skipValue()
                        envelope.result = start..<parser.offset
                    case .error:
                        try parser.skipValue()
                        envelope.error = start..<parser.offset
                    case .other:
                        try parser.skipValue()
                    }
                    parser.skipWhitespace()
                    if parser.consume(UInt8(ascii: ",")) { continue }
                    if parser.consume(UInt8(ascii: "}")) { break }
                    throw parser.error("expected ',' or '}' in an object")
                }
            }
            parser.skipWhitespace()
            guard parser.atEnd else { throw parser.error("unexpected data after the JSON value") }
        } catch {
            return .failure(.parse(error))
        }
        return .success(envelope)
    }

    /// The members an envelope reads; a key is recognised from its bytes when it is
    /// spelled plainly, and parsed (escapes and all) only otherwise.
    private enum Member {
        case jsonrpc, method, id, params, result, error, other

        init(_ parser: inout JSONParser) throws(JSONParseError) {
            if parser.consume(quoted: "id") { self = .id }
            else if parser.consume(quoted: "method") { self = .method }
            else if parser.consume(quoted: "params") { self = .params }
            else if parser.consume(quoted: "jsonrpc") { self = .jsonrpc }
            else if parser.consume(quoted: "result") { self = .result }
            else if parser.consume(quoted: "error") { self = .error }
            else {
                switch try parser.parseString() {
                case "jsonrpc": self = .jsonrpc
                case "method": self = .method
                case "id": self = .id
                case "params": self = .params
                case "result": self = .result
                case "error": self = .error
                default: self = .other
                }
            }
        }
    }

    /// Parses the member at `range` of `bytes` (a range this scan returned).
    public static func value(at range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> JSONValue {
        // The scan checked these bytes already.
        (try? JSONParser.parse(UnsafeRawBufferPointer(rebasing: bytes[range]))) ?? .null
    }
}
