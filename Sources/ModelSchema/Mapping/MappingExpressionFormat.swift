/// A mapping expression in `NSExpression`'s format, as Xcode's mapping editor shows it and as
/// `NSExpression.description` prints it: `$source.owner`,
/// `FUNCTION($manager, "destinationInstancesForEntityMappingNamed:sourceInstances:" , "PersonToPerson", $source.owner)`,
/// `FETCH(FUNCTION($manager, "fetchRequestForSourceEntityNamed:predicateString:" , "Car", "TRUEPREDICATE"), $manager.sourceContext, NO)`.
/// ``MappingExpression/init(format:)`` reads what this prints back to the same value.
extension MappingExpression: CustomStringConvertible {
    public var description: String {
        switch self {
        case .constant(let constant): return constant.formatted
        case .evaluatedObject: return "SELF"
        case .variable(let name): return "$" + name
        case .keyPath(.evaluatedObject, let path): return Self.escaped(path)
        case .keyPath(let operand, let path): return "\(operand).\(Self.escaped(path))"
        case .function(let target, let selector, let arguments):
            let rest = arguments.isEmpty ? "" : " , " + arguments.map(\.description).joined(separator: ", ")
            return "FUNCTION(\(target), \(MappingConstant.quoted(selector))\(rest))"
        case .aggregate(let items): return "{" + items.map(\.description).joined(separator: ", ") + "}"
        case .fetch(let request, let context, let countOnly): return "FETCH(\(request), \(context), \(countOnly ? "YES" : "NO"))"
        }
    }
}

extension MappingExpression {
    /// A key path with `#` before each key spelled like a reserved word of the format (`#size`),
    /// as Foundation writes it.
    static func escaped(_ path: String) -> String {
        path.split(separator: ".", omittingEmptySubsequences: false).map { key in
            ModelPredicate.reservedWords.contains(key.uppercased()) ? "#" + key : String(key)
        }.joined(separator: ".")
    }
}

extension MappingConstant {
    /// The constant as the format writes it: strings quoted, `nil`, `YES`/`NO`, dates as
    /// `CAST(<seconds since 2001>, "NSDate")`, data as `<hex bytes>`.
    var formatted: String {
        switch self {
        case .null: return "nil"
        case .string(let text): return Self.quoted(text)
        case .integer(let number): return String(number)
        case .real(let number): return Self.formatted(number)
        case .boolean(let flag): return flag ? "YES" : "NO"
        case .date(let seconds): return "CAST(\(Self.formatted(seconds)), \"NSDate\")"
        case .data(let bytes):
            let digits = Array("0123456789abcdef")
            return "<" + String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] }) + ">"
        }
    }

    /// A real number with a fraction or exponent, so it reads back as a real.
    static func formatted(_ number: Double) -> String {
        let text = String(number)
        return text.contains(where: { ".eEni".contains($0) }) ? text : text + ".0"
    }

    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }
}
