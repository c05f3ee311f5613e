extension JSONParser {
    /// Reads the object that comes next member by member, without building it: the fast
    /// paths that take a request's params straight from its bytes.
    ///
    /// - `body` is given, for each member in order, the index in `keys` of its key (nil for
    ///   any other key), with the parser at the member's value, which it must parse or skip.
    ///   It returns false to give the read up.
    /// - A key spelled plainly is recognised from its bytes; one with escapes is parsed and
    ///   compared.
    /// - Returns false when `body` gave up or what comes next is not a well-formed object;
    ///   the parser's position is then unspecified.
    package mutating func readObject(
        keys: [StaticString], _ body: (inout JSONParser, Int?) throws(JSONParseError) -> Bool
    ) -> Bool {
        do throws(JSONParseError) {
            skipWhitespace()
            guard !atEnd, bytes[offset] == UInt8(ascii: "{") else { return false }
            try enter()
            defer { depth -= 1 }
            offset += 1
            skipWhitespace()
            if consume(UInt8(ascii: "}")) { return true }
            while true {
                skipWhitespace()
                guard !atEnd, bytes[offset] == UInt8(ascii: "\"") else { return false }
                let key = try key(among: keys)
                skipWhitespace()
                guard consume(UInt8(ascii: ":")) else { return false }
                skipWhitespace()
                guard try body(&self, key) else { return false }
                skipWhitespace()
                if consume(UInt8(ascii: ",")) { continue }
                return consume(UInt8(ascii: "}"))
            }
        } catch {
            return false
        }
    }

    /// A parser at the start of `bytes`, the `params` of a message an ``Envelope`` scan
    /// checked: one level deep already, as inside the message.
    package init(params bytes: UnsafeRawBufferPointer) {
        self.init(bytes: bytes)
        depth = 1
    }

    /// The index in `keys` of the key that comes next (nil for any other), moving past it.
    private mutating func key(among keys: [StaticString]) throws(JSONParseError) -> Int? {
        for index in keys.indices where consume(quoted: keys[index]) { return index }
        let key = try parseString()
        return keys.firstIndex { expected in
            expected.withUTF8Buffer { key.utf8.elementsEqual($0) }
        }
    }

    /// The string that comes next; nil (and the parser where it was) for any other value.
    package mutating func readString() throws(JSONParseError) -> String? {
        guard !atEnd, bytes[offset] == UInt8(ascii: "\"") else { return nil }
        return try parseString()
    }
}
