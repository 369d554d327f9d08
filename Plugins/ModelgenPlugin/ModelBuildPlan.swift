import Foundation

/// How both plugins find a target's models and what the build plugin runs for them, worked out
/// from the target's files alone (no `PackagePlugin` types, so the tests compile this file too):
/// one `modelgen build` per model. The command plugin compiles this same file through a symbolic
/// link (see `Plugins/README.md`). Only the first model by path declares the module-wide query typealiases
/// (`NSPredicate`, `NSSortDescriptor`… on Linux); the others get `--no-query-typealiases`, so a
/// target with several models compiles without duplicate declarations.
enum ModelBuildPlan {
    struct ModelSource: Equatable {
        let url: URL
        let name: String
        var inputs: [URL]
    }

    struct Step: Equatable {
        let displayName: String
        let arguments: [String]
        let inputs: [URL]
        let outputs: [URL]
    }

    /// Models among a target's files: `.model.yaml` files outside `.modeld` folders, and the
    /// `.modeld` folders (with every file in them as inputs), sorted by path.
    static func models(in files: [URL]) -> [ModelSource] {
        var folders: [String: ModelSource] = [:]
        var singles: [ModelSource] = []
        for file in files {
            let components = file.pathComponents
            if let index = components.lastIndex(where: { $0.hasSuffix(".modeld") }) {
                let folder = URL(fileURLWithPath: components[...index].joined(separator: "/").replacingOccurrences(of: "//", with: "/"))
                let name = String(components[index].dropLast(".modeld".count))
                folders[folder.path, default: ModelSource(url: folder, name: name, inputs: [])].inputs.append(file)
            } else if file.lastPathComponent.hasSuffix(".model.yaml") {
                singles.append(ModelSource(url: file, name: String(file.lastPathComponent.dropLast(".model.yaml".count)), inputs: [file]))
            }
        }
        return (singles + folders.values).sorted { $0.url.path < $1.url.path }
    }

    /// `--config <target>/modelgen.yaml` when the target folder has a configuration and the
    /// model has none beside it (a configuration beside the model is found by modelgen itself),
    /// with the configuration file the command reads, if any.
    static func configuration(for model: ModelSource, targetDirectory: URL) -> (arguments: [String], input: URL?) {
        let beside = model.url.deletingLastPathComponent().appendingPathComponent("modelgen.yaml")
        if FileManager.default.fileExists(atPath: beside.path) { return ([], beside) }
        let targetConfiguration = targetDirectory.appendingPathComponent("modelgen.yaml")
        guard FileManager.default.fileExists(atPath: targetConfiguration.path) else { return ([], nil) }
        return (["--config", targetConfiguration.path], targetConfiguration)
    }

    /// `modelBundle` is passed as `--model-bundle`: `module` in a package target, `main` in an
    /// Xcode project's app.
    static func steps(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL, modelBundle: String) -> [Step] {
        models(in: files).enumerated().map { position, model in
            let output = workDirectory.appendingPathComponent(model.name)
            let configuration = configuration(for: model, targetDirectory: targetDirectory)
            var arguments = ["build", model.url.path, "--output", output.path, "--model-bundle", modelBundle]
            if position > 0 { arguments.append("--no-query-typealiases") }
            arguments += configuration.arguments
            let inputs = model.inputs + [tool] + (configuration.input.map { [$0] } ?? [])
            let mappings = mappingModelNames(in: model).map { output.appendingPathComponent("\($0).cdm") }
            return Step(
                displayName: "Compiling Core Data model \(model.name)", arguments: arguments, inputs: inputs,
                outputs: [output.appendingPathComponent("\(model.name)+Model.swift"), output.appendingPathComponent("\(model.name).momd")]
                    + mappings)
        }
    }

    /// The mapping models inside a `.modeld` folder, which `modelgen build` compiles into
    /// `<X>.cdm` beside the `.momd`: `<X>.mapping.yaml` files and `<X>.xcmappingmodel` folders.
    static func mappingModelNames(in model: ModelSource) -> [String] {
        guard model.url.lastPathComponent.hasSuffix(".modeld") else { return [] }
        let names = model.inputs.compactMap { file -> String? in
            let name = file.lastPathComponent
            if name.hasSuffix(".mapping.yaml"), file.deletingLastPathComponent().lastPathComponent == model.url.lastPathComponent {
                return String(name.dropLast(".mapping.yaml".count))
            }
            let folder = file.deletingLastPathComponent()
            if name == "xcmapping.xml", folder.lastPathComponent.hasSuffix(".xcmappingmodel") {
                return String(folder.lastPathComponent.dropLast(".xcmappingmodel".count))
            }
            return nil
        }
        return Array(Set(names)).sorted()
    }
}
