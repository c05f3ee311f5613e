/// A pattern and what a URL that matches it produces.
///
/// - The closure sees every parameter, path values and query items alike. It may throw a
///   ``LinkRejection`` (or a ``LinkParameterError`` from a typed accessor, which becomes
///   ``LinkRejection/invalidParameter(name:value:expected:)``); any other error refuses
///   the link with its description.
/// - With `requiresAuth`, a URL that matches while the router is not authenticated
///   becomes pending until authentication.
public struct LinkMapping<Output: Sendable>: Sendable {
    /// The pattern, as written.
    public let pattern: String
    /// Whether the link waits for authentication.
    public let requiresAuth: Bool
    @usableFromInline let produce: @Sendable (LinkParameters) throws -> Output

    /// A mapping from `pattern` to what `produce` makes of the parameters.
    public init(
        _ pattern: String, requiresAuth: Bool = false,
        produce: @escaping @Sendable (LinkParameters) throws -> Output
    ) {
        self.pattern = pattern
        self.requiresAuth = requiresAuth
        self.produce = produce
    }

    /// Runs `produce`, turning any failure into a rejection.
    @inlinable
    func output(for parameters: LinkParameters) -> Result<Output, LinkRejection> {
        do {
            return .success(try produce(parameters))
        } catch let rejection as LinkRejection {
            return .failure(rejection)
        } catch let error as LinkParameterError {
            return .failure(error.rejection)
        } catch {
            return .failure(.refused("\(error)"))
        }
    }
}
