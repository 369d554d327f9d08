/// The order versions are listed in wherever modelgen lists them from names alone (the versions
/// of an `.xcdatamodeld`, of a compiled `.momd`): "Model", "Model 2", "Model 10", as a person
/// would order them, digit runs comparing as numbers.
public enum VersionNameOrder {
    public static func areInIncreasingOrder(_ lhs: String, _ rhs: String) -> Bool {
        func chunks(_ text: String) -> [(isNumber: Bool, text: String)] {
            var result: [(Bool, String)] = []
            for character in text {
                let isDigit = character.isASCII && character.isNumber
                if let last = result.last, last.0 == isDigit {
                    result[result.count - 1].1.append(character)
                } else {
                    result.append((isDigit, String(character)))
                }
            }
            return result
        }
        let left = chunks(lhs)
        let right = chunks(rhs)
        for (a, b) in zip(left, right) where a.text != b.text {
            if a.isNumber, b.isNumber, let x = Int(a.text), let y = Int(b.text), x != y { return x < y }
            return a.text < b.text
        }
        return left.count < right.count
    }
}
