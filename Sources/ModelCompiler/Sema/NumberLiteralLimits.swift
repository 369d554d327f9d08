/// What a number literal loses when it is stored as Decimal, Double or Float. A model's default
/// or bound that the type cannot hold exactly in range is an error, not a silent rounding.
enum NumberLiteralLimits {
    /// `NSDecimalNumber` holds a mantissa of up to 38 decimal digits and an exponent from -128
    /// through 127 (Apple's NSDecimalNumber documentation).
    static let decimalDigits = 38
    static let decimalExponents = -128...127

    /// A decimal literal as its significant digits (no leading or trailing zeros) and the power of
    /// ten they are multiplied by. Nil when `text` is not a plain decimal literal.
    struct Digits: Equatable {
        var significand: String
        var exponent: Int
    }

    static func digits(of text: String) -> Digits? {
        var scalars = Substring(text).unicodeScalars[...]
        if let sign = scalars.first, sign == "-" || sign == "+" { scalars = scalars.dropFirst() }
        let isDigit: (Unicode.Scalar) -> Bool = { $0.value >= 48 && $0.value <= 57 }
        let integerPart = scalars.prefix(while: isDigit)
        scalars = scalars.dropFirst(integerPart.count)
        var fractionPart = Substring.UnicodeScalarView()[...]
        if scalars.first == "." {
            scalars = scalars.dropFirst()
            fractionPart = scalars.prefix(while: isDigit)
            scalars = scalars.dropFirst(fractionPart.count)
        }
        guard !integerPart.isEmpty || !fractionPart.isEmpty else { return nil }
        var exponent = 0
        if let e = scalars.first, e == "e" || e == "E" {
            scalars = scalars.dropFirst()
            var negative = false
            if let sign = scalars.first, sign == "-" || sign == "+" {
                negative = sign == "-"
                scalars = scalars.dropFirst()
            }
            let exponentDigits = scalars.prefix(while: isDigit)
            guard !exponentDigits.isEmpty else { return nil }
            scalars = scalars.dropFirst(exponentDigits.count)
            // Saturate: any exponent this large is out of every type's range anyway.
            for digit in exponentDigits { exponent = min(exponent * 10 + Int(digit.value - 48), 1_000_000) }
            if negative { exponent = -exponent }
        }
        guard scalars.isEmpty else { return nil }
        var significand = String(String.UnicodeScalarView(integerPart + fractionPart))
        exponent -= fractionPart.count
        let leadingZeros = significand.prefix { $0 == "0" }.count
        significand.removeFirst(leadingZeros)
        let trailingZeros = significand.reversed().prefix { $0 == "0" }.count
        significand.removeLast(trailingZeros)
        exponent += trailingZeros
        return significand.isEmpty ? Digits(significand: "", exponent: 0) : Digits(significand: significand, exponent: exponent)
    }

    /// Why Decimal cannot hold the literal exactly, or nil when it can.
    static func decimalProblem(_ text: String) -> String? {
        guard let digits = digits(of: text), !digits.significand.isEmpty else { return nil }
        let count = digits.significand.count
        if count > decimalDigits {
            return "has \(count) significant digits; Decimal keeps \(decimalDigits), so it would be rounded"
        }
        // Trailing zeros can move into the mantissa, lowering the exponent.
        let smallestExponent = digits.exponent - (decimalDigits - count)
        if digits.exponent < decimalExponents.lowerBound || smallestExponent > decimalExponents.upperBound {
            return "is outside Decimal's range (up to \(decimalDigits) digits times a power of ten from 10^-128 to 10^127)"
        }
        return nil
    }

    /// Why a binary floating-point type cannot hold the literal (it would become infinite, or
    /// zero although it is not zero), or nil when it can.
    static func floatingPointProblem(_ text: String, value: Double, isFloat: Bool) -> String? {
        let typeName = isFloat ? "Float" : "Double"
        let stored = isFloat ? Double(Float(value)) : value
        if !stored.isFinite {
            let largest = isFloat ? "\(Float.greatestFiniteMagnitude)" : "\(Double.greatestFiniteMagnitude)"
            return "is beyond \(typeName)'s range (largest magnitude \(largest))"
        }
        if stored == 0, let digits = digits(of: text), !digits.significand.isEmpty {
            return "is too small for \(typeName) and would become 0"
        }
        return nil
    }
}
