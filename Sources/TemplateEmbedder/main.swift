import Foundation

// Writes a Swift file declaring `EmbeddedTemplates.sources`: template name → text, for every
// `.mustache` file given. After editing Templates/, run
//   swift run TemplateEmbedder Sources/ModelCompiler/Backends/Swift/EmbeddedTemplates.swift Templates/*.mustache
// (a test fails while the two disagree).
let arguments = CommandLine.arguments.dropFirst()
guard let outputPath = arguments.first else {
    FileHandle.standardError.write(Data("usage: TemplateEmbedder <output.swift> <template.mustache>...\n".utf8))
    exit(2)
}

var lines = [
    "// swift-format-ignore-file",
    "// (the templates' text is kept verbatim)",
    "// Generated from Templates/*.mustache by TemplateEmbedder; do not edit. The default templates are",
    "// compiled into the binary so that modelgen works when copied alone to another machine.",
    "",
    "enum EmbeddedTemplates {",
    "    static let sources: [String: String] = [",
]
for path in arguments.dropFirst() {
    let url = URL(fileURLWithPath: path)
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        FileHandle.standardError.write(Data("error: cannot read \(path)\n".utf8))
        exit(1)
    }
    // A raw string delimiter longer than any run of '#' in the text keeps it verbatim.
    var hashes = "#"
    while text.contains("\"" + hashes) || text.contains("\\" + hashes) { hashes += "#" }
    let name = url.deletingPathExtension().lastPathComponent
    lines.append("        \"\(name)\": \(hashes)\"\"\"")
    lines.append(contentsOf: text.components(separatedBy: "\n").map { $0 })
    lines.append("\"\"\"\(hashes),")
}
lines.append("    ]")
lines.append("}")
let output = lines.joined(separator: "\n") + "\n"
if (try? String(contentsOfFile: outputPath, encoding: .utf8)) != output {
    do {
        try output.write(toFile: outputPath, atomically: true, encoding: .utf8)
    } catch {
        FileHandle.standardError.write(Data("error: cannot write \(outputPath): \(error.localizedDescription)\n".utf8))
        exit(1)
    }
}
