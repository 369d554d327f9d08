#if !canImport(CoreData)
import Foundation

/// The functions `NSExpression(forFunction:arguments:)` evaluates in memory, by Foundation's
/// selector-style names. Unknown names and wrong operand types give nil.
enum ExpressionFunctions {
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
