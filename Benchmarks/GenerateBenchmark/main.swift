import CYAML
import Foundation
import ModelCompiler

// Generates the Swift sources of a synthetic model (1,000 entities × 20 attributes × 3
// relationships) and prints the time next to the time libyaml alone takes to parse the same
// text, measured in the same process. Run: swift run -c release modelgen-benchmark

let entityCount = 1_000
let attributeTypes = [
    "String", "String?", "Integer 16", "Integer 32?", "Integer 64", "Double", "Float?", "Boolean", "Date", "Date?",
    "Binary?", "UUID", "URI?", "Decimal", "{ type: Integer 16, default: 0, min: 0, max: 10 }", "{ type: String, maxLength: 80 }",
    "Double?", "Boolean?", "String?", "{ type: Date, default: 2024-01-01 }",
]

func syntheticModel() -> String {
    var text = "entities:\n"
    for index in 0..<entityCount {
        text += "  Entity\(index):\n    attributes:\n"
        for (attribute, type) in attributeTypes.enumerated() { text += "      attribute\(attribute): \(type)\n" }
        let next = (index + 1) % entityCount
        let previous = (index + entityCount - 1) % entityCount
        text += "    relationships:\n"
        text += "      next: { to: Entity\(next), inverse: previous }\n"
        text += "      previous: { to: Entity\(previous), inverse: next }\n"
        text += "      related: { to: Entity\(index), toMany: true, inverse: related }\n"
    }
    return text
}

/// libyaml's parser alone: every event pulled and freed, nothing built.
func parseWithLibyamlAlone(_ bytes: [UInt8]) -> Int {
    var parser = yaml_parser_t()
    yaml_parser_initialize(&parser)
    defer { yaml_parser_delete(&parser) }
    var events = 0
    bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            events += 1
            let done = event.type == YAML_STREAM_END_EVENT
            yaml_event_delete(&event)
            if done { break }
        }
    }
    return events
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The best of `runs` timings: the least disturbed by the rest of the machine.
func best(of runs: Int, _ body: () throws -> Void) rethrows -> Double {
    var times: [Double] = []
    for _ in 0..<runs { times.append(try seconds(body)) }
    return times.min()!
}

let text = syntheticModel()
let bytes = Array(text.utf8)
let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
    "modelgen-benchmark-\(ProcessInfo.processInfo.processIdentifier)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }
let path = folder.appendingPathComponent("Synthetic.model.yaml").path
try text.write(toFile: path, atomically: true, encoding: .utf8)

var events = 0
let libyaml = best(of: 5) { events = parseWithLibyamlAlone(bytes) }

var fileCount = 0
var generatedBytes = 0
let load = best(of: 3) {
    let result = Pipeline.load(path)
    guard !result.hasErrors else { fatalError("the synthetic model has errors: \(result.diagnostics.prefix(3))") }
}
let full = try best(of: 3) {
    let model = Pipeline.load(path).model!
    let files = try SwiftGenerator.generate(model, options: SwiftGenerator.Options())
    fileCount = files.count
    generatedBytes = files.reduce(0) { $0 + $1.contents.utf8.count }
}

print(
    "synthetic model: \(entityCount) entities × \(attributeTypes.count) attributes × 3 relationships, \(bytes.count) bytes, \(events) YAML events"
)
print(String(format: "libyaml parse alone:          %7.3f s  (1.0×)", libyaml))
print(String(format: "modelgen load + validate:     %7.3f s  (%.1f×)", load, load / libyaml))
print(
    String(
        format: "modelgen load + generate:     %7.3f s  (%.1f×)  → %d files, %d bytes of Swift", full, full / libyaml, fileCount,
        generatedBytes))
