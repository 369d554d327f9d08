import Testing

@testable import ModelCompiler

struct NumberLiteralLimitsTests {
    @Test func digitsDropLeadingAndTrailingZerosIntoTheExponent() {
        #expect(NumberLiteralLimits.digits(of: "-00120.0500e3") == .init(significand: "12005", exponent: 1))
        #expect(NumberLiteralLimits.digits(of: "0.000") == .init(significand: "", exponent: 0))
        #expect(NumberLiteralLimits.digits(of: "1e") == nil)
        #expect(NumberLiteralLimits.digits(of: "0x10") == nil)
    }

    @Test func decimalKeepsThirtyEightDigitsAndNoMore() {
        #expect(NumberLiteralLimits.decimalProblem(String(repeating: "9", count: 38)) == nil)
        #expect(NumberLiteralLimits.decimalProblem("0." + String(repeating: "1", count: 38)) == nil)
        #expect(NumberLiteralLimits.decimalProblem(String(repeating: "9", count: 39)) != nil)
        #expect(NumberLiteralLimits.decimalProblem("1" + String(repeating: "0", count: 60)) == nil)
    }

    @Test func decimalExponentRangeCountsZerosTheMantissaCanAbsorb() {
        #expect(NumberLiteralLimits.decimalProblem("1e164") == nil)
        #expect(NumberLiteralLimits.decimalProblem("1e165") != nil)
        #expect(NumberLiteralLimits.decimalProblem("1e-128") == nil)
        #expect(NumberLiteralLimits.decimalProblem("1e-129") != nil)
        #expect(NumberLiteralLimits.decimalProblem("1e99999999999999999999999") != nil)
    }

    @Test func floatRejectsWhatWouldBecomeInfinityOrZero() {
        #expect(NumberLiteralLimits.floatingPointProblem("3.4e38", value: 3.4e38, isFloat: true) == nil)
        #expect(NumberLiteralLimits.floatingPointProblem("1e39", value: 1e39, isFloat: true) != nil)
        #expect(NumberLiteralLimits.floatingPointProblem("1e39", value: 1e39, isFloat: false) == nil)
        #expect(NumberLiteralLimits.floatingPointProblem("1e-50", value: 1e-50, isFloat: true) != nil)
        #expect(NumberLiteralLimits.floatingPointProblem("0.0", value: 0, isFloat: true) == nil)
    }
}
