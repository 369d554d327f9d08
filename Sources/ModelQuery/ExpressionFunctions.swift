#if !canImport(CoreData)
import Foundation

/// The functions `NSExpression(forFunction:arguments:)` evaluates in memory, by Foundation's
/// selector-style names. Unknown names and wrong operand types give nil.
enum ExpressionFunctions {
    /// The functions evaluated here, by name; the format parser accepts these.
    static let names = [
        "sum:", "count:", "min:", "max:", "average:", "add:to:", "from:subtract:", "multiply:by:", "divide:by:", "modulus:by:",
        "raise:toPower:", "abs:", "sqrt:", "floor:", "ceiling:", "trunc:", "ln:", "log:", "exp:", "uppercase:", "lowercase:", "now",
    ]
    private static let known = Set(names)

    static func isKnown(_ name: String) -> Bool { known.contains(name) }

    static func apply(_ name: String, _ arguments: [Any?]) -> Any? {
        let values = arguments.map(QueryValues.normalized)
        func elements() -> [Any]? {
            guard values.count == 1, let collection = values[0] else { return nil }
            return QueryValues.collectionElements(collection)?.compactMap(QueryValues.normalized)
        }
        func numbers() -> (QueryValues.Number, QueryValues.Number)? {
            guard values.count == 2, let l = values[0].flatMap(QueryValues.number), let r = values[1].flatMap(QueryValues.number)
            else { return nil }
            return (l, r)
        }
        switch name {
        case "sum:": return elements().flatMap(QueryValues.sum)
        case "count:": return elements()?.count
        case "average:":
            guard let items = elements(), !items.isEmpty, let sum = QueryValues.sum(items) else { return nil }
            return QueryValues.divide(sum, by: items.count)
        case "min:": return elements()?.min { QueryValues.compare($0, $1) == .orderedAscending }
        case "max:": return elements()?.max { QueryValues.compare($0, $1) == .orderedAscending }
        case "add:to:":
            return numbers().map { QueryValues.box(QueryValues.add($0, $1)) }
        case "from:subtract:":
            return numbers().map { QueryValues.box(QueryValues.add($0, negate($1))) }
        case "multiply:by:":
            return numbers().map { l, r in arithmetic(l, r, integer: { $0.multipliedReportingOverflow(by: $1) }, decimal: *, double: *) }
        case "divide:by:":
            guard let (l, r) = numbers(), QueryValues.double(r) != 0 else { return nil }
            if case .decimal = l { return QueryValues.decimal(l) / QueryValues.decimal(r) }
            if case .decimal = r { return QueryValues.decimal(l) / QueryValues.decimal(r) }
            return QueryValues.double(l) / QueryValues.double(r)
        case "modulus:by:":
            // Integers keep the dividend's sign, as SQLite's `%` does; a zero divisor gives nil.
            guard let (l, r) = numbers() else { return nil }
            if case .integer(let a) = l, case .integer(let b) = r {
                guard b != 0 else { return nil }
                return a == .min && b == -1 ? 0 : Int(truncatingIfNeeded: a % b)
            }
            guard QueryValues.double(r) != 0 else { return nil }
            return fmod(QueryValues.double(l), QueryValues.double(r))
        case "raise:toPower:":
            // Whole powers of integers stay integers while they fit (`2 ** 3` is 8); others are real.
            guard let (l, r) = numbers() else { return nil }
            if case .integer(let base) = l, case .integer(let exponent) = r, exponent >= 0, let exact = power(base, exponent) {
                return Int(truncatingIfNeeded: exact)
            }
            return pow(QueryValues.double(l), QueryValues.double(r))
        case "sqrt:", "floor:", "ceiling:", "trunc:", "ln:", "log:", "exp:":
            guard values.count == 1, let n = values[0].flatMap(QueryValues.number) else { return nil }
            let x = QueryValues.double(n)
            switch name {
            case "sqrt:": return x < 0 ? nil : x.squareRoot()
            case "floor:": return x.rounded(.down)
            case "ceiling:": return x.rounded(.up)
            case "trunc:": return x.rounded(.towardZero)
            case "ln:": return x <= 0 ? nil : Foundation.log(x)
            case "log:": return x <= 0 ? nil : log10(x)
            default: return Foundation.exp(x)
            }
        case "abs:":
            guard values.count == 1, let n = values[0].flatMap(QueryValues.number) else { return nil }
            return QueryValues.compare(n, .integer(0)) == .orderedAscending ? QueryValues.box(negate(n)) : QueryValues.box(n)
        case "uppercase:", "lowercase:":
            guard values.count == 1, let s = values[0].flatMap(QueryValues.string) else { return nil }
            return name == "uppercase:" ? s.uppercased() : s.lowercased()
        case "now":
            return Date()
        default:
            return nil
        }
    }

    /// `base` to the power `exponent` when it fits an `Int64`.
    private static func power(_ base: Int64, _ exponent: Int64) -> Int64? {
        switch base {
        case 0: return exponent == 0 ? 1 : 0
        case 1: return 1
        case -1: return exponent % 2 == 0 ? 1 : -1
        default:
            // |base| ≥ 2 overflows within 64 steps, so the loop is short.
            var result: Int64 = 1
            for _ in 0..<exponent {
                let (product, overflow) = result.multipliedReportingOverflow(by: base)
                if overflow { return nil }
                result = product
            }
            return result
        }
    }

    private static func negate(_ number: QueryValues.Number) -> QueryValues.Number {
        switch number {
        case .integer(let v): return v == .min ? .double(-Double(v)) : .integer(-v)
        case .double(let v): return .double(-v)
        case .decimal(let v): return .decimal(-v)
        }
    }

    private static func arithmetic(
        _ l: QueryValues.Number, _ r: QueryValues.Number, integer: (Int64, Int64) -> (partialValue: Int64, overflow: Bool),
        decimal: (Decimal, Decimal) -> Decimal, double: (Double, Double) -> Double
    ) -> Any {
        switch (l, r) {
        case (.integer(let a), .integer(let b)):
            let (value, overflow) = integer(a, b)
            return overflow ? double(Double(a), Double(b)) : Int(value)
        case (.decimal, _), (_, .decimal): return decimal(QueryValues.decimal(l), QueryValues.decimal(r))
        default: return double(QueryValues.double(l), QueryValues.double(r))
        }
    }
}
#endif
