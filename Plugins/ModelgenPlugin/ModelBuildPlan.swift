import Foundation

/// What the build plugin runs for a target's models, worked out from the target's files alone
/// (no `PackagePlugin` types, so the tests compile this file too): one `modelgen build` per
/// model. Only the first model by path declares the module-wide query typealiases
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

    /// `modelBundle` is passed as `--model-bundle`: `module` in a package target, `main` in an
    /// Xcode project's app.
    static func steps(files: [URL], targetDirectory: URL, workDirectory: URL, tool: URL, modelBundle: String) -> [Step] {
        let targetConfiguration = targetDirectory.appendingPathComponent("modelgen.yaml")
        let hasTargetConfiguration = FileManager.default.fileExists(atPath: targetConfiguration.path)
        return models(in: files).enumerated().map { position, model in
            let output = workDirectory.appendingPathComponent(model.name)
            var arguments = ["build", model.url.path, "--output", output.path, "--model-bundle", modelBundle]
            if position > 0 { arguments.append("--no-query-typealiases") }
            var inputs = model.inputs + [tool]
            let beside = model.url.deletingLastPathComponent().appendingPathComponent("modelgen.yaml")
            if FileManager.default.fileExists(atPath: beside.path) {
                inputs.append(beside)
            } else if hasTargetConfiguration {
                arguments += ["--config", targetConfiguration.path]
                inputs.append(targetConfiguration)
            }
            return Step(
                displayName: "Compiling Core Data model \(model.name)", arguments: arguments, inputs: inputs,
                outputs: [output.appendingPathComponent("\(model.name)+Model.swift"), output.appendingPathComponent("\(model.name).momd")])
        }
    }
}
