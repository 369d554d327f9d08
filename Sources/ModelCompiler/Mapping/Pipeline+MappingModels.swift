import Foundation
import ModelSchema

/// Mapping models in the pipeline: one compiled on its own against a model
/// (`modelgen compile X.xcmappingmodel --model M`), and those beside a model compiled with it
/// into `<Name>.cdm` files next to its `.momd`, as Xcode puts `.cdm` files at the top of a
/// bundle's resources.
extension Pipeline {
    /// Whether `path` is a mapping model: a `.xcmappingmodel` folder (or its `xcmapping.xml`) or a
    /// `.mapping.yaml` file.
    public static func isMappingModel(_ path: String) -> Bool {
        XcodeMappingReader.isMappingModel(path) || path.trimmingSlashes.hasSuffix(MappingYAMLReader.suffix)
    }

    /// Compiles one mapping model against the model at `modelPath` into `<X>.cdm`.
    public static func compileMappingModel(_ mappingPath: String, modelPath: String, outputFolder: String) -> Output {
        let diagnostics = DiagnosticCollector()
        var output = Output()
        if let model = load(modelPath, classPrefix: "", checksModel: true, into: diagnostics), !diagnostics.hasErrors,
            let file = compiledMappingModel(mappingPath, model: model, diagnostics: diagnostics), !diagnostics.hasErrors
        {
            output.files = [file]
            output.mainPath = file.path
        }
        output.diagnostics = diagnostics.sorted
        return output
    }

    /// The mapping models that belong to the model at `modelPath`: `.xcmappingmodel` folders
    /// beside a `.xcdatamodeld` whose versions they name, or `.mapping.yaml` files and
    /// `.xcmappingmodel` folders inside a `.modeld` folder. Sorted by path.
    public static func mappingModels(besideModel modelPath: String) -> [String] {
        let trimmed = modelPath.trimmingSlashes
        let fileManager = FileManager.default
        if trimmed.hasSuffix(ModelSourceReader.versionedFolderSuffix) {
            let entries = (try? fileManager.contentsOfDirectory(atPath: trimmed)) ?? []
            return entries.filter(isMappingModel).sorted().map { "\(trimmed)/\($0)" }
        }
        guard trimmed.hasSuffix(XcodeModelReader.versionedSuffix) else { return [] }
        let folder = (trimmed as NSString).deletingLastPathComponent
        let modelFolder = (trimmed as NSString).lastPathComponent
        let entries = (try? fileManager.contentsOfDirectory(atPath: folder.isEmpty ? "." : folder)) ?? []
        return entries.filter { $0.hasSuffix(XcodeMappingReader.suffix) }.sorted().map { folder.isEmpty ? $0 : "\(folder)/\($0)" }
            .filter { XcodeMappingReader.namesModelFolder(modelFolder, mappingPath: $0) }
    }

    /// Reads and checks the mapping models beside the model at `modelPath` against `model`, sorted
    /// by path. A mapping model between versions that are not consecutive, or for a step another
    /// one maps already, is a warning: automatic migration runs one version at a time, through
    /// the first mapping model it finds for a step.
    static func mappingModels(besideModel modelPath: String, model: Model, diagnostics: DiagnosticCollector) -> [ModelMappingModel] {
        let mappings = mappingModels(besideModel: modelPath).compactMap { mappingModel($0, model: model, diagnostics: diagnostics) }
        let positions = Dictionary(model.versions.enumerated().map { ($1.name, $0) }) { first, _ in first }
        var byStep: [VersionStep: ModelMappingModel] = [:]
        for mapping in mappings {
            let location = mapping.location ?? .file(modelPath)
            if let from = positions[mapping.step.from], let to = positions[mapping.step.to], to != from + 1 {
                diagnostics.warning(
                    "mapping model '\(mapping.name)' maps '\(mapping.step.from)' to '\(mapping.step.to)', which are not consecutive versions: automatic migration migrates one version at a time and never uses it",
                    at: location)
            } else if let other = byStep[mapping.step] {
                diagnostics.warning(
                    "mapping models '\(other.name)' and '\(mapping.name)' both map '\(mapping.step.from)' to '\(mapping.step.to)': automatic migration uses only one of them",
                    at: location)
            } else {
                byStep[mapping.step] = mapping
            }
        }
        return mappings.sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
    }

    /// The `.cdm` files of the model's mapping models.
    static func compiledMappingModels(of model: Model) -> [OutputFile] {
        model.mappingModels.map(compiledFile)
    }

    static func compiledMappingModel(_ path: String, model: Model, diagnostics: DiagnosticCollector) -> OutputFile? {
        mappingModel(path, model: model, diagnostics: diagnostics).map(compiledFile)
    }

    /// `<name>.cdm`: the mapping model's archive.
    private static func compiledFile(_ mapping: ModelMappingModel) -> OutputFile {
        OutputFile(path: "\(mapping.name).cdm", bytes: MappingModelArchive.encode(mapping.mapping))
    }

    /// Reads the mapping model at `path` and checks it against `model`.
    static func mappingModel(_ path: String, model: Model, diagnostics: DiagnosticCollector) -> ModelMappingModel? {
        let source: MappingSource?
        if XcodeMappingReader.isMappingModel(path) {
            source = XcodeMappingReader(diagnostics: diagnostics).read(path)
        } else if path.trimmingSlashes.hasSuffix(MappingYAMLReader.suffix) {
            source = MappingYAMLReader(diagnostics: diagnostics).read(path)
        } else {
            diagnostics.error("not a mapping model: expected a .xcmappingmodel folder or a .mapping.yaml file", at: .file(path))
            return nil
        }
        guard let source, let compiled = MappingCompiler(model: model, diagnostics: diagnostics).compile(source),
            let from = source.sourceVersion, let to = source.destinationVersion
        else { return nil }
        if let problem = OutputFiles.fileNameProblem(source.name) {
            diagnostics.error("the mapping model's name '\(source.name)' is not a file name: \(problem)", at: .file(path))
            return nil
        }
        return ModelMappingModel(
            name: source.name, step: VersionStep(from: from.name, to: to.name), mapping: compiled, location: from.location)
    }
}

extension Pipeline {
    /// Converts an Xcode mapping model into `<X>.mapping.yaml` (`modelgen import X.xcmappingmodel
    /// --model M`): its entity mappings with only what differs from what Xcode generates, checked
    /// against the model first.
    public static func importMappingModel(_ mappingPath: String, modelPath: String, outputFolder: String) -> Output {
        let diagnostics = DiagnosticCollector()
        var output = Output()
        if let model = load(modelPath, classPrefix: "", checksModel: true, into: diagnostics), !diagnostics.hasErrors,
            let file = importedMappingModel(mappingPath, model: model, diagnostics: diagnostics), !diagnostics.hasErrors
        {
            output.files = [file]
            output.mainPath = file.path
        }
        output.diagnostics = diagnostics.sorted
        return output
    }

    static func importedMappingModel(_ path: String, model: Model, diagnostics: DiagnosticCollector) -> OutputFile? {
        guard XcodeMappingReader.isMappingModel(path) else {
            diagnostics.error("not an Xcode mapping model: expected a .xcmappingmodel folder", at: .file(path))
            return nil
        }
        guard let source = XcodeMappingReader(diagnostics: diagnostics).read(path),
            let from = source.sourceVersion?.name, let to = source.destinationVersion?.name
        else { return nil }
        let compiler = MappingCompiler(model: model, diagnostics: diagnostics)
        guard let compiled = compiler.compile(source) else { return nil }
        var bare = source
        bare.listsEveryProperty = true
        for index in bare.entityMappings.indices {
            bare.entityMappings[index].sourceExpression = nil
            for property in bare.entityMappings[index].attributeMappings.indices {
                bare.entityMappings[index].attributeMappings[property].valueExpression = nil
            }
            for property in bare.entityMappings[index].relationshipMappings.indices {
                bare.entityMappings[index].relationshipMappings[property].valueExpression = nil
            }
        }
        guard let generated = compiler.compile(bare) else { return nil }
        let text = MappingYAMLWriter.text(
            from: from, to: to, written: source.entityMappings, compiled: compiled.entityMappings, generated: generated.entityMappings)
        return OutputFile(path: source.name + MappingYAMLReader.suffix, text: text)
    }
}

extension Pipeline {
    /// Converts a YAML mapping model into the contents of a `.xcmappingmodel` folder
    /// (`modelgen export X.mapping.yaml --model M --output X.xcmappingmodel`): `xcmapping.xml`,
    /// checked against the model first. The file paths are relative to that folder.
    public static func exportMappingModel(_ mappingPath: String, modelPath: String) -> Output {
        let diagnostics = DiagnosticCollector()
        var output = Output()
        if let model = load(modelPath, classPrefix: "", checksModel: true, into: diagnostics), !diagnostics.hasErrors,
            let file = exportedMappingModel(mappingPath, model: model, diagnostics: diagnostics), !diagnostics.hasErrors
        {
            output.files = [file]
            output.mainPath = ""
        }
        output.diagnostics = diagnostics.sorted
        return output
    }

    static func exportedMappingModel(_ path: String, model: Model, diagnostics: DiagnosticCollector) -> OutputFile? {
        guard path.trimmingSlashes.hasSuffix(MappingYAMLReader.suffix) else {
            diagnostics.error("not a YAML mapping model: expected a .mapping.yaml file", at: .file(path))
            return nil
        }
        guard let source = MappingYAMLReader(diagnostics: diagnostics).read(path),
            let from = source.sourceVersion?.name, let to = source.destinationVersion?.name,
            let compiled = MappingCompiler(model: model, diagnostics: diagnostics).compile(source)
        else { return nil }
        let text = XcodeMappingWriter.text(
            modelName: model.name, from: from, to: to, written: source.entityMappings, compiled: compiled.entityMappings)
        return OutputFile(path: XcodeMappingReader.fileName, text: text)
    }
}
