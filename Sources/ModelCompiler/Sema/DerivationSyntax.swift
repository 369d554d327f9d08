import Foundation

/// The shape of a derived attribute's expression, as Core Data accepts it for SQLite stores
/// (Apple's `NSDerivedAttributeDescription` documentation): a key path, possibly ending in an
/// aggregate over a to-many relationship (`stops.@count`, `stops.@sum.cost`), the function
/// `now()`, or a string function of a key path (`lowercase:(name)`, `uppercase:(name)`,
/// `canonical:(name)`).
enum DerivationSyntax: Equatable {
    /// `trip.name`: properties followed from the entity.
    case keyPath([String])
    /// `stops.@count` (`valuePath` empty) or `stops.@sum.cost`.
    case aggregate(collection: [String], function: String, valuePath: [String])
    /// `now()`.
    case now
    /// `lowercase:(name)`.
    case stringFunction(String, argument: [String])
    /// `count:(stops)`, `sum:(stops.cost)`: an aggregate in NSExpression's function form (the
    /// form Foundation renders `stops.@count` in); the argument runs through to-one
    /// relationships to a to-many one, then (except for `count:`) to an attribute.
    case aggregateFunction(String, argument: [String])

    static let aggregateFunctions = ["@count", "@sum", "@max", "@min", "@avg"]
    static let stringFunctions = ["lowercase", "uppercase", "canonical"]
    /// NSExpression's aggregate functions and the key path operators they correspond to.
    static let aggregateFunctionOperators = ["count": "@count", "sum": "@sum", "max": "@max", "min": "@min", "average": "@avg"]
    static let expectedForms =
        "a key path ('trip.name'), an aggregate of a to-many key path ('stops.@count', 'stops.@sum.cost', 'count:(stops)', 'sum:(stops.cost)'), 'now()', or 'lowercase:(name)', 'uppercase:(name)', 'canonical:(name)'"

    /// The parsed expression, or why it does not parse.
    static func parse(_ expression: String) -> Result<DerivationSyntax, DerivationSyntaxError> {
        let text = expression.trimmingCharacters(in: .whitespaces)
        if text.isEmpty { return .failure(.init("it is empty")) }
        if text == "now()" { return .success(.now) }
        if let colon = text.firstIndex(of: ":") {
            let name = String(text[..<colon])
            guard stringFunctions.contains(name) || aggregateFunctionOperators[name] != nil else {
                return .failure(.init("'\(name):' is not a function derived attributes support"))
            }
            let rest = text[text.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            guard rest.hasPrefix("("), rest.hasSuffix(")"), rest.count >= 2 else {
                return .failure(.init("the argument of '\(name):' must be in parentheses, as in '\(name):(name)'"))
            }
            let argument = String(rest.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces)
            switch parsePath(argument) {
            case .failure(let error): return .failure(error)
            case .success(.keyPath(let path)):
                return .success(
                    aggregateFunctionOperators[name] != nil
                        ? .aggregateFunction(name, argument: path) : .stringFunction(name, argument: path))
            case .success: return .failure(.init("the argument of '\(name):' must be a key path without '@' operators"))
            }
        }
        return parsePath(text)
    }

    private static func parsePath(_ text: String) -> Result<DerivationSyntax, DerivationSyntaxError> {
        let components = text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var keys: [String] = []
        var function: String?
        var valuePath: [String] = []
        for component in components {
            if component.hasPrefix("@") {
                guard aggregateFunctions.contains(component) else {
                    return .failure(.init("'\(component)' is not an aggregate (use \(aggregateFunctions.joined(separator: ", ")))"))
                }
                guard function == nil else { return .failure(.init("a key path can have only one aggregate")) }
                guard !keys.isEmpty else {
                    return .failure(.init("'\(component)' must follow a to-many key path, as in 'stops.\(component)'"))
                }
                function = component
                continue
            }
            guard isIdentifier(component) else {
                return .failure(.init(component.isEmpty ? "a key path has an empty component" : "'\(component)' is not a property name"))
            }
            if function == nil { keys.append(component) } else { valuePath.append(component) }
        }
        guard let function else { return .success(.keyPath(keys)) }
        if function == "@count", !valuePath.isEmpty {
            return .failure(.init("'@count' must end the key path"))
        }
        if function != "@count", valuePath.isEmpty {
            return .failure(.init("'\(function)' needs the attribute to aggregate, as in 'stops.\(function).cost'"))
        }
        return .success(.aggregate(collection: keys, function: function, valuePath: valuePath))
    }

    private static func isIdentifier(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first == "_" || first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy { $0 == "_" || $0.properties.isAlphabetic || ("0"..."9").contains($0) }
    }
}

struct DerivationSyntaxError: Error, Equatable {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}
