import Foundation
import ModelCompiler

/// `modelgen generate <model> --output <dir> [--access …] [--layout …] [--templates <dir>] [--check]`.
enum GenerateCommand {
    static let command = Command(spec: spec, run: run)

    static let spec = CommandSpec(
        name: "generate",
        summary: "Generate the Swift sources of a model (managed object subclasses, versions, enums, composites).",
        argumentsUsage: "<model>",
        minimumArguments: 1,
        maximumArguments: 1,
        options: [
            .init(name: "--output", valueName: "<dir>", help: "The folder to write the sources into (required)."),
            .init(name: "--access", valueName: "<level>", help: "public (default), package or internal."),
            .init(name: "--layout", valueName: "<layout>", help: "entity (a file per entity, default) or model (one file)."),
            .init(name: "--templates", valueName: "<dir>", help: "A folder of .mustache templates overriding the defaults."),
            .init(name: "--import", valueName: "<module>", help: "A module every generated file imports (comma-separated for several)."),
            .init(name: "--check", valueName: nil, help: "Write nothing; exit 1 listing files that are out of date."),
        ],
        discussion: """
            Writes only files whose bytes change and removes files it generated before that are no longer
            generated (recognised by their header), nothing else. With --check, exit status 1 means the
            folder differs from what would be generated.
            """)

    @Sendable static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        guard let output = arguments.values["--output"] else { throw UsageError(message: "'modelgen generate' needs --output <dir>") }
        var options = SwiftGenerator.Options()
        if let access = arguments.values["--access"] {
            guard let level = SwiftGenerator.AccessLevel(rawValue: access) else {
                throw UsageError(message: "--access must be public, package or internal, not '\(access)'")
            }
            options.accessLevel = level
        }
        if let layout = arguments.values["--layout"] {
            guard let parsed = SwiftGenerator.Layout(rawValue: layout) else {
                throw UsageError(message: "--layout must be entity or model, not '\(layout)'")
            }
            options.layout = parsed
        }
        if let imports = arguments.values["--import"] {
            options.extraImports = imports.split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }
        }
        let modelPath = arguments.arguments[0]
        options.sourceName = (modelPath.trimmingSuffix("/") as NSString).lastPathComponent
        if let folder = arguments.values["--templates"] {
            switch TemplateFolder.read(folder) {
            case .success(let templates): options.templateOverrides = templates
            case .failure(let error):
                console.standardError("\(folder): error: \(error.message)\n")
                return Modelgen.ExitStatus.modelErrors
            }
        }
        let result = Pipeline.load(modelPath)
        Report.diagnostics(result.diagnostics, console: console)
        guard !result.hasErrors, let model = result.model else { return Modelgen.ExitStatus.modelErrors }
        let files: [SwiftGenerator.File]
        do {
            files = try SwiftGenerator.generate(model, options: options)
        } catch {
            console.standardError("\(error.template).mustache: error: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        let plan = GeneratedFolder.plan(files, in: output)
        if arguments.flags.contains("--check") {
            guard plan.isUpToDate else {
                for name in plan.changed { console.standardError("\(output)/\(name): out of date\n") }
                for name in plan.missing { console.standardError("\(output)/\(name): missing\n") }
                for name in plan.stale { console.standardError("\(output)/\(name): no longer generated\n") }
                console.standardError("error: generated sources are out of date; run 'modelgen generate' and commit the result\n")
                return Modelgen.ExitStatus.modelErrors
            }
            return Modelgen.ExitStatus.success
        }
        do {
            try GeneratedFolder.apply(plan, files: files, in: output)
        } catch {
            console.standardError("\(error.path): error: cannot write: \(error.message)\n")
            return Modelgen.ExitStatus.modelErrors
        }
        return Modelgen.ExitStatus.success
    }
}

/// Reads a folder of `.mustache` templates.
enum TemplateFolder {
    struct Failure: Error {
        let message: String
    }

    static func read(_ folder: String) -> Result<[String: String], Failure> {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else {
            return .failure(Failure(message: "cannot read the template folder"))
        }
        var templates: [String: String] = [:]
        for name in names.sorted() where name.hasSuffix(".mustache") {
            guard let text = try? String(contentsOfFile: (folder as NSString).appendingPathComponent(name), encoding: .utf8) else {
                return .failure(Failure(message: "cannot read \(name)"))
            }
            templates[String(name.dropLast(".mustache".count))] = text
        }
        let unknown = templates.keys.filter { !SwiftGenerator.templateNames.contains($0) }.sorted()
        if !unknown.isEmpty {
            return .failure(
                Failure(
                    message:
                        "unknown template \(unknown.map { "'\($0).mustache'" }.joined(separator: ", ")); templates are \(SwiftGenerator.templateNames.map { "\($0).mustache" }.joined(separator: ", "))"
                ))
        }
        return .success(templates)
    }
}
