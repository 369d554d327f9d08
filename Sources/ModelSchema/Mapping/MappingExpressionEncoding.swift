/// Writes ``MappingExpression`` trees into a keyed archive as the `NSExpression` object graphs
/// Xcode archives in `.cdm` files: each object's slot is taken before its fields are written, and
/// its fields are written in the order Xcode writes them, so the objects follow one another as in
/// Xcode's archives.
extension KeyedArchiveBuilder {
    static let expressionChain = ["NSExpression", "NSObject"]

    /// The archived expression; `argumentsAreMutable` is false for the fetch request call of a
    /// source expression, whose arguments Xcode archives as an `NSArray` (a parsed call's are an
    /// `NSMutableArray`).
    mutating func expression(_ expression: MappingExpression, argumentsAreMutable: Bool = true) -> PropertyList {
        switch expression {
        case .constant(let constant):
            let (uid, _) = reserve()
            let value = mappingConstant(constant)
            fill(
                uid, classChain: ["NSConstantValueExpression"] + Self.expressionChain,
                fields: [("NSConstantValue", value), ("NSExpressionType", .integer(0))])
            return uid
        case .evaluatedObject:
            return object(classChain: ["NSSelfExpression"] + Self.expressionChain, fields: [("NSExpressionType", .integer(1))])
        case .variable(let name):
            let (uid, _) = reserve()
            let variable = string(name)
            fill(
                uid, classChain: ["NSVariableExpression"] + Self.expressionChain,
                fields: [("NSVariable", variable), ("NSExpressionType", .integer(2))])
            return uid
        case .keyPath(let operand, let path):
            // A key path of the evaluated object (`name`, `author.alias`) is what
            // `+[NSExpression expressionForKeyPath:]` makes: type 3, `valueForKey:` for a single
            // key; one of another expression (`$source.name`) has type 4 (Foundation's
            // `NSKeyPathExpression` initialisers, as public decompilations show).
            let ofSelf = operand == .evaluatedObject
            let (uid, _) = reserve()
            let selector = string(ofSelf && !path.contains(".") ? "valueForKey:" : "valueForKeyPath:")
            let target = self.expression(operand)
            let (arguments, _) = reserve()
            let (specifier, _) = reserve()
            let keyPath = string(path)
            fill(
                specifier, classChain: ["NSKeyPathSpecifierExpression"] + Self.expressionChain,
                fields: [("NSKeyPath", keyPath), ("NSExpressionType", .integer(10))])
            fill(arguments, classChain: Self.arrayChain(mutable: true), fields: [("NS.objects", .array([specifier]))])
            fill(
                uid, classChain: ["NSKeyPathExpression", "NSFunctionExpression"] + Self.expressionChain,
                fields: [
                    ("NSOperand", target), ("NSSelectorName", selector), ("NSArguments", arguments),
                    ("NSExpressionType", .integer(ofSelf ? 3 : 4)),
                ])
            return uid
        case .function(let operand, let selectorName, let argumentList):
            let (uid, _) = reserve()
            let selector = string(selectorName)
            let target = self.expression(operand)
            let (arguments, _) = reserve()
            let members = argumentList.map { self.expression($0) }
            fill(arguments, classChain: Self.arrayChain(mutable: argumentsAreMutable), fields: [("NS.objects", .array(members))])
            fill(
                uid, classChain: ["NSFunctionExpression"] + Self.expressionChain,
                fields: [
                    ("NSOperand", target), ("NSSelectorName", selector), ("NSArguments", arguments), ("NSExpressionType", .integer(4)),
                ])
            return uid
        case .aggregate(let items):
            let (uid, _) = reserve()
            let (collection, _) = reserve()
            let members = items.map { self.expression($0) }
            fill(collection, classChain: Self.arrayChain(mutable: false), fields: [("NS.objects", .array(members))])
            fill(
                uid, classChain: ["NSAggregateExpression"] + Self.expressionChain,
                fields: [("NSCollection", collection), ("NSExpressionType", .integer(14))])
            return uid
        case .fetch(let request, let context, let countOnly):
            let (uid, _) = reserve()
            let requestObject = self.expression(request, argumentsAreMutable: false)
            let contextObject = self.expression(context)
            fill(
                uid, classChain: ["NSFetchRequestExpression"] + Self.expressionChain,
                fields: [
                    ("NSFRExpression", requestObject), ("NSMOCExpression", contextObject), ("NSCountOnlyFlag", .boolean(countOnly)),
                    ("NSExpressionType", .integer(50)),
                ])
            return uid
        }
    }

    static func arrayChain(mutable: Bool) -> [String] {
        mutable ? ["NSMutableArray", "NSArray", "NSObject"] : ["NSArray", "NSObject"]
    }

    /// A constant's value object: strings and numbers as plain entries, dates as `NSDate`
    /// objects, nil as `$null`.
    mutating func mappingConstant(_ constant: MappingConstant) -> PropertyList {
        switch constant {
        case .null: return Self.null
        case .string(let text): return string(text)
        case .integer(let number): return value(.integer(number))
        case .real(let number): return value(.real(number))
        case .boolean(let flag): return value(.boolean(flag))
        case .data(let bytes): return value(.data(bytes))
        case .date(let seconds): return object(classChain: ["NSDate", "NSObject"], fields: [("NS.time", .real(seconds))])
        }
    }

    /// A property-list value (a user info value): strings, numbers and data as plain entries,
    /// arrays and dictionaries as `NSArray` and `NSDictionary` objects.
    mutating func propertyListObject(_ value: PropertyList) -> PropertyList {
        switch value {
        case .string(let text): return string(text)
        case .date(let seconds): return object(classChain: ["NSDate", "NSObject"], fields: [("NS.time", .real(seconds))])
        case .array(let items):
            let (uid, _) = reserve()
            let members = items.map { propertyListObject($0) }
            fill(uid, classChain: Self.arrayChain(mutable: false), fields: [("NS.objects", .array(members))])
            return uid
        case .dictionary(let entries):
            return userInfoObject(entries)
        case .uid: return Self.null
        case .integer, .real, .boolean, .data: return self.value(value)
        }
    }

    /// A user info dictionary, `$null` when empty; keys in the given order.
    mutating func userInfoObject(_ entries: [(key: String, value: PropertyList)]) -> PropertyList {
        guard !entries.isEmpty else { return Self.null }
        let (uid, _) = reserve()
        let keys = entries.map { string($0.key) }
        let values = entries.map { propertyListObject($0.value) }
        fill(
            uid, classChain: ["NSDictionary", "NSObject"], fields: [("NS.keys", .array(keys)), ("NS.objects", .array(values))])
        return uid
    }
}
