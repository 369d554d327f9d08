import Foundation

/// A plain scalar resolved with the YAML 1.2 core schema.
public enum YAMLCoreValue: Equatable, Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case float(Double)
    case string(String)
}

extension YAMLNode {
    /// The scalar's value under the YAML 1.2 core schema: untagged plain scalars are resolved
    /// (`true`, `12`, `0x1F`, `.inf`, `~`), quoted and block scalars are strings, and the
    /// standard tags (`!!int`, `!!str`, …) force their type. Nil for collections, for values a
    /// tag cannot accept, and for integers beyond 64 bits.
    public var coreValue: YAMLCoreValue? {
        guard case .scalar(let text, let style) = content else { return nil }
        switch tag {
        case YAMLTag.str: return .string(text)
        case YAMLTag.null: return .null
        case YAMLTag.bool: return Self.bool(text).map(YAMLCoreValue.bool)
        case YAMLTag.int: return Self.int(text).map(YAMLCoreValue.int)
        case YAMLTag.float: return (Self.float(text) ?? Self.int(text).map(Double.init)).map(YAMLCoreValue.float)
        case nil: break
        default: return .string(text)
        }
        guard style == .plain else { return .string(text) }
        if ["", "~", "null", "Null", "NULL"].contains(text) { return .null }
        if let value = Self.bool(text) { return .bool(value) }
        if let value = Self.int(text) { return .int(value) }
        if let value = Self.float(text) { return .float(value) }
        return .string(text)
    }

    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": true
        case "false", "False", "FALSE": false
        default: nil
        }
    }

    static func int(_ text: String) -> Int? {
        var digits = Substring(text)
        var negative = false
        if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        var radix = 10
        if digits.hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0o") {
            radix = 8
            digits = digits.dropFirst(2)
        }
        guard !digits.isEmpty, radix == 10 || !negative, digits.allSatisfy({ $0.isHexDigit }) else { return nil }
        guard let magnitude = Int(digits, radix: radix) else { return nil }
        return negative ? -magnitude : magnitude
    }

    static func float(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        // [-+]? ( \. [0-9]+ | [0-9]+ ( \. [0-9]* )? ) ( [eE] [-+]? [0-9]+ )?
        var scalars = Substring(text).unicodeScalars[...]
        if let first = scalars.first, first == "-" || first == "+" { scalars = scalars.dropFirst() }
        let isDigit: (Unicode.Scalar) -> Bool = { $0.value >= 48 && $0.value <= 57 }
        let integerPart = scalars.prefix(while: isDigit)
        scalars = scalars.dropFirst(integerPart.count)
        var fractionDigits = 0
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            let fraction = scalars.prefix(while: isDigit)
            fractionDigits = fraction.count
            scalars = scalars.dropFirst(fraction.count)
        }
        guard !integerPart.isEmpty || fractionDigits > 0 else { return nil }
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            if let sign = scalars.first, sign == "-" || sign == "+" { scalars = scalars.dropFirst() }
            let exponent = scalars.prefix(while: isDigit)
            guard !exponent.isEmpty else { return nil }
            scalars = scalars.dropFirst(exponent.count)
        }
        guard scalars.isEmpty else { return nil }
        return Double(text)
    }
}
