import Foundation
import Mustache
import Testing

/// The official Mustache specification (v1.4.2): every required case must pass.
struct MustacheSpecTests {
    static let specFolder = Fixtures.root.appendingPathComponent("mustache-spec")

    static let requiredFiles = ["comments", "delimiters", "interpolation", "inverted", "partials", "sections"]

    struct SpecCase: CustomStringConvertible, Sendable {
        let file: String
        let name: String
        let template: String
        let data: MustacheValue
        let partials: [String: String]
        let expected: String
        var description: String { "\(file): \(name)" }
    }

    static func value(_ json: Any) -> MustacheValue {
        switch json {
        case let number as NSNumber:
            if String(describing: type(of: number)).contains("Boolean") { return .bool(number.boolValue) }
            let double = number.doubleValue
            return double == double.rounded() && abs(double) < 1e15 ? .int(number.intValue) : .double(double)
        case let flag as Bool: return .bool(flag)
        case let text as String: return .string(text)
        case let items as [Any]: return .list(items.map(value))
        case let members as [String: Any]: return .object(members.mapValues(value))
        default: return .null
        }
    }

    static func cases() throws -> [SpecCase] {
        try requiredFiles.flatMap { file -> [SpecCase] in
            let data = try Data(contentsOf: specFolder.appendingPathComponent("\(file).json"))
            let root = try JSONSerialization.jsonObject(with: data) as? [String: Any]
            let tests = root?["tests"] as? [[String: Any]] ?? []
            return tests.map { test in
                SpecCase(
                    file: file, name: test["name"] as? String ?? "", template: test["template"] as? String ?? "",
                    data: value(test["data"] ?? NSNull()), partials: test["partials"] as? [String: String] ?? [:],
                    expected: test["expected"] as? String ?? "")
            }
        }
    }

    @Test func allRequiredCasesPass() throws {
        let cases = try Self.cases()
        var failures: [String] = []
        for specCase in cases {
            let output = try? MustacheTemplate(specCase.template).render(specCase.data, partials: specCase.partials)
            if output != specCase.expected {
                failures.append(
                    "\(specCase): expected \(specCase.expected.debugDescription), got \(output?.debugDescription ?? "an error")")
            }
        }
        print("mustache spec: \(cases.count - failures.count) of \(cases.count) required cases pass")
        #expect(cases.count == 136)
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
    }
}
