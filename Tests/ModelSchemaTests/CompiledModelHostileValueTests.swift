import Testing

@testable import ModelSchema

/// Compiling never traps on values a reader let through, however extreme.
struct CompiledModelHostileValueTests {
    @Test(arguments: ["10e9223372036854775807", "-0.5e-9223372036854775808", "1e99999999999999999999", "100"])
    func decimalDefaultsWithExtremeExponentsCompile(_ text: String) {
        let attribute = Attribute(name: "amount", type: .decimal, isOptional: true, defaultValue: .number(text))
        let version = ModelVersion(name: "V", entities: [Entity(name: "Trip", attributes: [attribute])])
        let model = Model(name: "M", versions: [version], currentVersionName: "V")
        #expect(!CompiledModel.files(for: model).isEmpty)
    }
}
