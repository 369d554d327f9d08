import Foundation
import ModelCompiler
import Testing

/// Conformance on the official YAML test suite (data-2022-01-17). libyaml implements YAML 1.1,
/// so some YAML 1.2 cases are known to differ; they are listed with their reasons in
/// docs/YAMLConformance.md and here, and the test fails if one of them starts to pass (so the
/// list stays true) or if any other case fails.
struct YAMLTestSuiteTests {
    struct Case {
        let id: String
        let directory: URL
        var isError: Bool { FileManager.default.fileExists(atPath: directory.appendingPathComponent("error").path) }
        var expectedJSON: URL? {
            let url = directory.appendingPathComponent("in.json")
            return FileManager.default.fileExists(atPath: url.path) ? url : nil
        }
    }

    /// Every case folder, including the numbered sub-cases of multi-case tests.
    static func allCases() throws -> [Case] {
        let fileManager = FileManager.default
        var cases: [Case] = []
        for id in try fileManager.contentsOfDirectory(atPath: Fixtures.yamlTestSuite.path).sorted() {
            let directory = Fixtures.yamlTestSuite.appendingPathComponent(id)
            if fileManager.fileExists(atPath: directory.appendingPathComponent("in.yaml").path) {
                cases.append(Case(id: id, directory: directory))
            } else if let subcases = try? fileManager.contentsOfDirectory(atPath: directory.path) {
                for sub in subcases.sorted() where fileManager.fileExists(atPath: directory.appendingPathComponent("\(sub)/in.yaml").path) {
                    cases.append(Case(id: "\(id)/\(sub)", directory: directory.appendingPathComponent(sub)))
                }
            }
        }
        return cases
    }

    static let conformanceParser: YAMLParser = {
        var options = YAMLParser.Options()
        options.resolvesMergeKeys = false
        return YAMLParser(options: options)
    }()

    static func parse(_ testCase: Case) throws -> [YAMLNode] {
        let bytes = try [UInt8](Data(contentsOf: testCase.directory.appendingPathComponent("in.yaml")))
        return try conformanceParser.parseStream(bytes, path: "in.yaml")
    }

    /// Error cases libyaml accepts: its YAML 1.1 scanner is more lenient than the 1.2 grammar here.
    private static let libyamlDiffersDirectives = "reserved or YAML 1.2/1.3 directives are rejected by the YAML 1.1 scanner"
    private static let libyamlDiffersTabs = "tabs as separation white space or in block-scalar content are rejected"
    private static let libyamlDiffersFlow =
        "YAML 1.2 flow-mapping forms (`:` on the next line, adjacent `:value`, multi-line keys, `?` and `:` starting flow scalars) are rejected or read differently"
    private static let libyamlDiffersAnchors =
        "anchor names containing `:` or non-ASCII characters are rejected or cut short (YAML 1.1 anchor alphabet)"
    private static let libyamlDiffersDocuments =
        "bare documents after `...`, zero-indented block scalars and end markers after comments follow YAML 1.1 rules"
    private static let libyamlDiffersTrailing =
        "trailing white-space-only lines at the end of the stream are dropped from kept block scalars"
    /// Error cases accepted without a diagnostic. libyaml alone accepts 16; YAMLStrictChecks
    /// adds the YAML 1.2 rules that catch them, so the list is empty and must stay empty.
    static let knownAcceptedErrorCases: [String: String] = [:]

    static let knownJSONDifferences: [String: String] = [
        "2LFX": libyamlDiffersDirectives,
        "6LVF": libyamlDiffersDirectives,
        "BEC7": libyamlDiffersDirectives,
        "MUS6/05": libyamlDiffersDirectives,
        "MUS6/06": libyamlDiffersDirectives,
        "W4TN": libyamlDiffersDirectives,
        "6BCT": libyamlDiffersTabs,
        "6CA3": libyamlDiffersTabs,
        "A2M4": libyamlDiffersTabs,
        "DK95/00": libyamlDiffersTabs,
        "DK95/03": libyamlDiffersTabs,
        "DK95/04": libyamlDiffersTabs,
        "Q5MG": libyamlDiffersTabs,
        "Y79Y/010": libyamlDiffersTabs,
        "96NN/00": libyamlDiffersTabs,
        "96NN/01": libyamlDiffersTabs,
        "R4YG": libyamlDiffersTabs,
        "Y79Y/001": libyamlDiffersTabs,
        "4MUZ/00": libyamlDiffersFlow,
        "4MUZ/01": libyamlDiffersFlow,
        "4MUZ/02": libyamlDiffersFlow,
        "58MP": libyamlDiffersFlow,
        "5MUD": libyamlDiffersFlow,
        "5T43": libyamlDiffersFlow,
        "652Z": libyamlDiffersFlow,
        "9SA2": libyamlDiffersFlow,
        "DBG4": libyamlDiffersFlow,
        "HM87/00": libyamlDiffersFlow,
        "HM87/01": libyamlDiffersFlow,
        "K3WX": libyamlDiffersFlow,
        "NJ66": libyamlDiffersFlow,
        "UT92": libyamlDiffersFlow,
        "VJP3/01": libyamlDiffersFlow,
        "2SXE": libyamlDiffersAnchors,
        "8XYN": libyamlDiffersAnchors,
        "W5VH": libyamlDiffersAnchors,
        "Y2GN": libyamlDiffersAnchors,
        "7Z25": libyamlDiffersDocuments,
        "DK3J": libyamlDiffersDocuments,
        "FP8R": libyamlDiffersDocuments,
        "HWV9": libyamlDiffersDocuments,
        "M7A3": libyamlDiffersDocuments,
        "QT73": libyamlDiffersDocuments,
        "JEF9/02": libyamlDiffersTrailing,
        "L24T/01": libyamlDiffersTrailing,
    ]

    @Test func everyErrorCaseIsRejectedWithALocatedDiagnostic() throws {
        var accepted: [String] = []
        var total = 0
        for testCase in try Self.allCases() where testCase.isError {
            total += 1
            do {
                _ = try Self.parse(testCase)
                accepted.append(testCase.id)
            } catch let error as YAMLError {
                #expect(error.location.line >= 1 && error.location.column >= 1)
                #expect(!error.message.isEmpty)
            }
        }
        print("yaml-test-suite: \(total - accepted.count) of \(total) error cases rejected")
        #expect(accepted.sorted() == Self.knownAcceptedErrorCases.keys.sorted(), "error cases accepted: \(accepted)")
    }

    @Test func composedDocumentsEqualTheExpectedJSON() throws {
        var differing: [String] = []
        var total = 0
        for testCase in try Self.allCases() where !testCase.isError {
            guard let jsonURL = testCase.expectedJSON else { continue }
            total += 1
            var reader = JSONStreamReader(try String(contentsOf: jsonURL, encoding: .utf8))
            let expected = try reader.readAll()
            let actual = try? Self.parse(testCase).map(Self.json)
            if actual != expected {
                differing.append(testCase.id)
                if ProcessInfo.processInfo.environment["YAML_DEBUG"] != nil {
                    do {
                        _ = try Self.parse(testCase)
                        print("DIFF \(testCase.id): \(actual!.map { $0.rendered() })")
                    } catch { print("FAIL \(testCase.id): \(error)") }
                }
            }
        }
        let equal = total - differing.count
        print("yaml-test-suite: \(equal) of \(total) JSON cases equal (\(String(format: "%.1f", Double(equal) * 100 / Double(total)))%)")
        #expect(differing.sorted() == Self.knownJSONDifferences.keys.sorted(), "differing: \(differing)")
        // libyaml 0.2.5 reaches 84%; the exceptions above are all YAML 1.1 versus 1.2 differences.
        #expect(Double(equal) >= 0.83 * Double(total))
    }

    static func json(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let text, _):
            switch node.coreValue {
            case .null, nil: return node.tag == nil || node.tag == YAMLTag.null ? .null : .string(text)
            case .bool(let value): return .bool(value)
            case .int(let value): return .int(value)
            case .float(let value): return .number(value)
            case .string(let value): return .string(value)
            }
        case .sequence(let items): return .array(items.map(json))
        case .mapping(let entries):
            var members: [String: JSONValue] = [:]
            for entry in entries { members[entry.key.scalarValue ?? ""] = json(entry.value) }
            return .object(members)
        }
    }
}
