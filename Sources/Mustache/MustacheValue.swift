/// The data a Mustache template renders: what a context lookup can find.
public indirect enum MustacheValue: Equatable, Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([MustacheValue])
    case object([String: MustacheValue])

    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: MustacheValue...) { self = .list(elements) }

    public init(dictionaryLiteral elements: (String, MustacheValue)...) {
        self = .object(Dictionary(elements) { _, last in last })
    }

    /// False, null and empty lists (and empty strings) skip a section and show an inverted one.
    var isFalsey: Bool {
        switch self {
        case .null: true
        case .bool(let flag): !flag
        case .list(let items): items.isEmpty
        case .string(let text): text.isEmpty
        default: false
        }
    }

    /// The text an interpolation tag renders.
    var text: String {
        switch self {
        case .null, .list, .object: ""
        case .bool(let flag): flag ? "true" : "false"
        case .int(let number): String(number)
        case .double(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int64(number)) : String(number)
        case .string(let text): text
        }
    }

    public func member(_ key: String) -> MustacheValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }
}
