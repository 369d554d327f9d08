#if !canImport(CoreData)
import ModelRuntime

/// Generates predicate formats with arguments over the fixture's Item entity: comparisons of
/// every attribute type (with nil and values of the wrong kind), string operators with options,
/// IN, BETWEEN, to-one key paths, ANY/ALL/NONE, @count and the other aggregates, SUBQUERY,
/// object arguments, and nested AND/OR/NOT.
struct PredicateGenerator {
    var random: SeededGenerator
    let fixture: FetchSQLFixture
    /// The fetched entity: "Item", "Special", "Person", "Part" or "Tag".
    let entity: String
    var special: Bool { entity == "Special" }

    typealias Clause = (format: String, arguments: [Any])

    mutating func pick<T>(_ values: [T]) -> T { values.randomElement(using: &random)! }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func predicate(depth: Int = 0) -> Clause {
        if depth < 2, chance(35) {
            switch Int.random(in: 0..<3, using: &random) {
            case 0:
                let inner = predicate(depth: depth + 1)
                return ("NOT (\(inner.format))", inner.arguments)
            default:
                let left = predicate(depth: depth + 1)
                let right = predicate(depth: depth + 1)
                return ("(\(left.format)) \(chance(50) ? "AND" : "OR") (\(right.format))", left.arguments + right.arguments)
            }
        }
        switch entity {
        case "Person": return personAtom()
        case "Part": return partAtom()
        case "Tag": return tagAtom()
        default: return atom()
        }
    }

    mutating func personAtom() -> Clause {
        let items = fixture.objects(of: "Item", includingSubentities: true)
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return ("ANY items.name ==\(options()) %@", [constant("string")])
        case 1: return ("items.@count \(pick(["<", ">", "=="])) %@", [number(0...6)])
        case 2: return ("ALL items.count > %@", [constant("count")])
        case 3: return ("age \(pick(["<", ">=", "!="])) %@", [constant("age")])
        case 4: return ("location.latitude < %@ OR location.longitude == nil", [constant("latitude")])
        case 5: return ("name BEGINSWITH\(options()) %@", [constant("string")])
        case 6: return ("ANY items.tags.label ==\(options()) %@", [constant("string")])
        case 7: return ("SUBQUERY(items, $i, $i.flag == YES AND $i.owner == SELF).@count > %@", [Int.random(in: 0...2, using: &random)])
        case 8: return ("%@ IN items", [pick(items)])
        default: return ("items.@max.score > %@ OR items.@min.born < %@", [constant("score"), pick(FetchSQLFixture.dates)])
        }
    }

    mutating func partAtom() -> Clause {
        let items = fixture.objects(of: "Item", includingSubentities: true)
        switch Int.random(in: 0..<9, using: &random) {
        case 0: return ("item.name \(pick(["==", "!=", "CONTAINS"]))\(options()) %@", [constant("string")])
        case 1: return ("item \(pick(["==", "!="])) %@", [chance(15) ? NSNull() : pick(items)])
        case 2: return ("item.owner.age > %@", [constant("age")])
        case 3: return ("item.serial < %@ AND amount > %@", [number(1000...1085), constant("amount")])
        case 4: return ("item IN %@", [(0..<3).map { _ in pick(items) }])
        case 5: return ("item == nil OR item.flag == NO", [])
        case 6: return ("ANY item.tags.label \(pick(["==", "BEGINSWITH"]))\(options()) %@", [constant("string")])
        case 7: return ("item.parts.@count > %@", [number(0...4)])
        default: return ("amount BETWEEN %@", [[constant("amount"), constant("amount")]])
        }
    }

    mutating func tagAtom() -> Clause {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: return ("ANY items.owner.name ==\(options()) %@", [constant("string")])
        case 1: return ("items.@count \(pick(["<", ">", "=="])) %@", [number(0...25)])
        case 2: return ("label LIKE\(options()) %@", [pick(["a*", "*a", "?eta", "*l*", "*"])])
        case 3: return ("ALL items.score >= %@", [constant("score")])
        default: return ("NONE items.flag == YES", [])
        }
    }

    private mutating func number(_ range: ClosedRange<Int>) -> Any {
        let value = Int.random(in: range, using: &random)
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return Double(value) + 0.5
        case 1: return NSNumber(value: value)
        default: return value
        }
    }

    /// A constant for a kind of value, sometimes nil or of another kind.
    private mutating func constant(_ kind: String) -> Any {
        if chance(8) { return NSNull() }
        if chance(5) { return kind == "string" ? 7 as Any : "7" as Any }
        switch kind {
        case "string": return pick(FetchSQLFixture.strings + ["b", "Al", "é", "ta"])
        case "count": return number(-1...21)
        case "score": return number(-6...6)
        case "weight": return number(0...5)
        case "price": return chance(50) ? Decimal(Int.random(in: 0...40, using: &random)) / 4 : number(0...10)
        case "flag": return pick([true, false, 1, 0] as [Any])
        case "born": return pick(FetchSQLFixture.dates)
        case "ident": return pick(FetchSQLFixture.uuids)
        case "blob": return pick(FetchSQLFixture.blobs)
        case "link": return pick(FetchSQLFixture.links)
        case "age": return number(5...65)
        case "amount": return number(-1...13)
        case "level": return number(0...6)
        case "latitude": return number(-4...4)
        default: return number(0...20)
        }
    }

    private mutating func options() -> String { pick(["", "", "[c]", "[d]", "[cd]"]) }

    mutating func atom() -> Clause {
        let scalar: [(String, String)] =
            [
                ("count", "count"), ("score", "score"), ("weight", "weight"), ("price", "price"), ("flag", "flag"), ("born", "born"),
                ("serial", "serial"), ("owner.age", "age"), ("owner.location.latitude", "latitude"),
            ] + (special ? [("level", "level")] : [])
        let ordered = ["<", "<=", ">", ">=", "==", "!="]
        switch Int.random(in: 0..<20, using: &random) {
        case 0, 1, 2:
            let (path, kind) = pick(scalar)
            return ("\(path) \(pick(ordered)) %@", [constant(kind)])
        case 3:
            let (path, kind) = pick([("ident", "ident"), ("blob", "blob"), ("link", "link")])
            return ("\(path) \(pick(["==", "!="])) %@", [constant(kind)])
        case 4, 5:
            let path = pick(["name", "owner.name"])
            let op = pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"])
            var value = constant("string")
            if op == "LIKE" { value = pick(["a*", "*a", "?eta", "*l*", "A*", "é*", "*"]) }
            return ("\(path) \(op)\(options()) %@", [value])
        case 6:
            return ("name MATCHES\(pick(["", "[c]"])) %@", [pick(["a.*", "[a-c].*", ".*ta", "(?i)b.*", "x?"])])
        case 7:
            let (path, kind) = pick(scalar)
            var list: [Any] = (0..<Int.random(in: 0...3, using: &random)).map { _ in constant(kind) }
            if chance(20) { list.append(NSNull()) }
            return ("\(path) IN %@", [list])
        case 8:
            let names = (0..<Int.random(in: 1...3, using: &random)).map { _ in pick(FetchSQLFixture.strings) }
            return ("name IN\(options()) %@", [names])
        case 9:
            let (path, kind) = pick(scalar.filter { $0.1 != "flag" })
            return ("\(path) BETWEEN %@", [[constant(kind), constant(kind)]])
        case 10:
            let modifier = pick(["ANY", "ALL", "NONE"])
            if chance(50) {
                return ("\(modifier) tags.label \(pick(["==", "BEGINSWITH", "!="]))\(options()) %@", [constant("string")])
            }
            return ("\(modifier) parts.amount \(pick(ordered)) %@", [constant("amount")])
        case 11:
            let path = pick([
                "tags.@count", "parts.@count", "parts.@sum.amount", "parts.@avg.amount", "parts.@min.amount", "parts.@max.amount",
            ])
            return ("\(path) \(pick(ordered)) %@", [number(0...8)])
        case 12:
            return (
                "SUBQUERY(parts, $p, $p.amount > %@ AND $p.amount < %@).@count \(pick(ordered)) %@",
                [number(0...6), number(5...13), Int.random(in: 0...2, using: &random)]
            )
        case 13:
            let people = fixture.objects(of: "Person", includingSubentities: false)
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return ("owner \(pick(["==", "!="])) %@", [chance(20) ? NSNull() : pick(people)])
            case 1: return ("owner IN %@", [(0..<3).map { _ in pick(people) }])
            default: return ("owner.name ==\(options()) name", [])
            }
        case 14:
            let items = fixture.objects(of: "Item", includingSubentities: true)
            if chance(50) { return ("SELF \(pick(["==", "!="])) %@", [pick(items)]) }
            return ("SELF IN %@", [(0..<4).map { _ in pick(items) }])
        case 15:
            let tag = pick(fixture.objects(of: "Tag", includingSubentities: false))
            return (chance(50) ? "%@ IN tags" : "tags CONTAINS %@", [tag])
        case 16:
            return ("ANY tags.items.owner.name \(pick(["==", "BEGINSWITH"]))\(options()) %@", [constant("string")])
        case 17:
            return (pick(["count < owner.age", "parts.@count == tags.@count", "score >= weight", "count == owner.age"]), [])
        case 18:
            return ("%@ IN\(options()) name", [pick(["a", "ph", "é", "ET", ""])])
        default:
            return (pick(["TRUEPREDICATE", "FALSEPREDICATE", "name == nil", "owner != nil", "owner.name != nil"]), [])
        }
    }

    /// Zero to two sort descriptors (string keys with a comparison selector), then `serial`
    /// so the order is total.
    mutating func sortDescriptors() -> [NSSortDescriptor] {
        var result: [NSSortDescriptor] = []
        let others = ["Person": ["name", "age", "location.latitude"], "Part": ["amount", "item.name", "item.serial"], "Tag": ["label"]]
        if let keys = others[entity] {
            // No unique key to break ties: the test checks the order, not the sequence.
            return (0..<Int.random(in: 0...2, using: &random)).map { _ in
                NSSortDescriptor(key: pick(keys), ascending: chance(50))
            }
        }
        for _ in 0..<Int.random(in: 0...2, using: &random) {
            let key = pick([
                "name", "count", "score", "born", "price", "flag", "owner.name", "owner.age", "weight", "owner.location.longitude",
            ])
            let selector: Selector? =
                key.hasSuffix("name")
                ? pick([nil, "compare:", "caseInsensitiveCompare:", "localizedStandardCompare:", "localizedCaseInsensitiveCompare:"]) : nil
            result.append(NSSortDescriptor(key: key, ascending: chance(50), selector: selector))
        }
        return result + [NSSortDescriptor(key: "serial", ascending: true)]
    }
}
#endif
