/// An expression of a mapping model, as the `NSExpression` tree a `.cdm` archives: what yields a
/// mapping's source instances and a destination property's value. Each case names the
/// `NSExpression` class and `expressionType` it is archived as.
public indirect enum MappingExpression: Hashable, Sendable {
    /// `NSConstantValueExpression` (type 0): a string, number, date, data or nil.
    case constant(MappingConstant)
    /// `NSSelfExpression` (type 1): the object the expression is evaluated with.
    case evaluatedObject
    /// `NSVariableExpression` (type 2): `$source`, `$manager`, `$entityMapping`,
    /// `$entityPolicy`, … (the name without `$`).
    case variable(String)
    /// `NSKeyPathExpression` (type 3): `operand.keyPath`, archived as a call of
    /// `valueForKeyPath:` on the operand with an `NSKeyPathSpecifierExpression` (type 10) argument.
    case keyPath(operand: MappingExpression, path: String)
    /// `NSFunctionExpression` (type 4): `FUNCTION(target, "selector:", arguments…)`.
    case function(target: MappingExpression, selector: String, arguments: [MappingExpression])
    /// `NSAggregateExpression` (type 14): `{a, b, …}`.
    case aggregate([MappingExpression])
    /// `NSFetchRequestExpression` (type 50): `FETCH(request, context, countOnly)`.
    case fetch(request: MappingExpression, context: MappingExpression, countOnly: Bool)
}

/// The value of a constant expression.
public enum MappingConstant: Hashable, Sendable {
    case null
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    /// Seconds since 2001-01-01 00:00:00 UTC, as archives store dates.
    case date(Double)
    case data([UInt8])
}

extension MappingExpression {
    /// The source expression Xcode writes for an entity mapping whose source instances are every
    /// instance of `entityName` matching `predicate` (`TRUEPREDICATE` for all):
    /// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:", "<entity>",
    /// "<predicate>"), $manager.sourceContext, NO)`.
    public static func fetchSource(entityName: String, predicate: String = "TRUEPREDICATE") -> MappingExpression {
        .fetch(
            request: .function(
                target: .variable("manager"), selector: "fetchRequestForSourceEntityNamed:predicateString:",
                arguments: [.constant(.string(entityName)), .constant(.string(predicate))]),
            context: .keyPath(operand: .variable("manager"), path: "sourceContext"), countOnly: false)
    }

    /// `$source.<path>`: the value Xcode's editor generates for a property of the same name.
    public static func sourceValue(_ path: String) -> MappingExpression {
        .keyPath(operand: .variable("source"), path: path)
    }

    /// The relationship value Xcode's editor generates:
    /// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:",
    /// "<mapping>", $source.<relationship>)`.
    public static func destinationInstances(mappingName: String, sourceRelationship: String) -> MappingExpression {
        .function(
            target: .variable("manager"), selector: "destinationInstancesForEntityMappingNamed:sourceInstances:",
            arguments: [.constant(.string(mappingName)), .sourceValue(sourceRelationship)])
    }
}
