import Foundation

extension JSONValue {
    /// The JSON that `value` encodes to.
    ///
    /// - Throws: the encoder's error when `value` cannot be encoded (a non-finite number,
    ///   for example).
    public init(encoding value: some Encodable) throws {
        if let json = value as? JSONValue {
            self = json
            return
        }
        let data = try JSONEncoder().encode(value)
        self = try JSONDecoder().decode(JSONValue.self, from: data)
    }

    /// Decodes this JSON as a `T`.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        if let same = self as? T { return same }
        let data = try JSONEncoder().encode(self)
        return try JSONDecoder().decode(T.self, from: data)
    }
}
