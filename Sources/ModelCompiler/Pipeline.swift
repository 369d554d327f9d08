import Foundation
import ModelSchema

/// The whole flow of the compiler in one place:
///
/// 1. **Settings** — `modelgen.yaml` and the command line's values (``GenerationOverrides``).
/// 2. **Frontend** — find the model's files and parse them: YAML trees with locations, or an
///    Xcode model's XML.
/// 3. **Sema** — read each version into ``ModelSchema`` values, apply the class prefix, then
///    check each version (with the YAML format's naming rules or Core Data's), the history
///    between versions, and that the Swift to be generated compiles. Every problem is a
///    ``Diagnostic``.
/// 4. **Backends** — turn the checked ``Model`` into ``OutputFile``s: generated Swift, a compiled
///    `.momd`, an Xcode model or a YAML model, each path checked to stay inside the output folder.
///
/// Nothing is written here: the caller writes the files of an ``Output`` (and removes its
/// removals), and only when there are files to write.
public enum Pipeline {
    /// The outcome of loading a model: the model (nil when it could not be read at all) and
    /// every diagnostic, sorted by location.
    public struct Result: Sendable {
        public let model: Model?
        public let diagnostics: [Diagnostic]

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// What a run produces.
    public enum Product: Sendable {
        /// The Swift sources (`modelgen generate`), with the files generated earlier from the same
        /// model that are no longer generated as removals.
        case swiftSources
        /// `<Name>+Model.swift`, `<Name>.momd` and a `<X>.cdm` per mapping model beside the model
        /// (`modelgen build`).
        case buildOutputs
        /// `<Name>.momd` and a `<X>.cdm` per mapping model beside the model (`modelgen compile`).
        case compiledModel
        /// The contents of a `.xcdatamodeld` folder (`modelgen export`).
        case xcodeModel
        /// `<Name>.model.yaml` or `<Name>.modeld` from an Xcode model (`modelgen import`). Its files
        /// are returned even when the YAML model has errors, which are reported for fixing by hand.
        case yamlModel
    }

    public struct Request: Sendable {
        public var modelPath: String
        public var product: Product
        public var outputFolder: String
        public var overrides: GenerationOverrides
        /// Hears each step as it finishes: reading and checking each version, the checks across
        /// versions, compiling each version and generating the sources.
        public var progress: ProgressHandler?

        public init(
            modelPath: String, product: Product, outputFolder: String, overrides: GenerationOverrides = GenerationOverrides(),
            progress: ProgressHandler? = nil
        ) {
            self.modelPath = modelPath
            self.product = product
            self.outputFolder = outputFolder
            self.overrides = overrides
            self.progress = progress
        }
    }

    public struct Output: Sendable {
        public var diagnostics: [Diagnostic] = []
        /// The files to write under the output folder; empty when there are errors (except for
        /// ``Product/yamlModel``).
        public var files: [OutputFile] = []
        /// Files under the output folder to remove: earlier generated files of the same model.
        public var removals: [String] = []
        /// The main thing written, relative to the output folder (`Trips.momd`), for messages.
        public var mainPath: String?

        public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }
    }

    /// Loads and checks the model, then produces what `request` asks for.
    public static func run(_ request: Request) -> Output {
        let diagnostics = DiagnosticCollector()
        var output = produce(request, diagnostics: diagnostics)
        output.diagnostics = diagnostics.sorted
        return output
    }

    private static func produce(_ request: Request, diagnostics: DiagnosticCollector) -> Output {
        var output = Output()
        var settings = GenerationSettings()
        let progress = PipelineProgress(request.progress, product: request.product)
        switch request.product {
        case .swiftSources, .buildOutputs, .compiledModel:
            guard let resolved = GenerationSettings.resolve(request.overrides, modelPath: request.modelPath, diagnostics: diagnostics)
            else { return output }
            settings = resolved
        case .xcodeModel, .yamlModel:
            break
        }
        // An import checks the YAML model it writes, which it writes even with errors for fixing
        // by hand; the Xcode model it reads gets only the checks that keep files in place.
        let checksModel = request.product != .yamlModel
        guard
            let model = load(
                request.modelPath, classPrefix: settings.classPrefix, checksModel: checksModel, into: diagnostics, progress: progress),
            !diagnostics.hasErrors
        else { return output }
        var files: [OutputFile]
        switch request.product {
        case .swiftSources:
            guard let sources = generateSwift(model, options: settings.options, diagnostics: diagnostics) else { return output }
            progress.finish("generating the Swift sources")
            files = sources
            output.removals = GeneratedFolder.staleFiles(
                in: request.outputFolder, from: settings.options.sourceName, keeping: Set(files.map(\.path)))
        case .buildOutputs:
            var options = settings.options
            options.layout = .model
            guard let sources = generateSwift(model, options: options, diagnostics: diagnostics) else { return output }
            progress.finish("generating the Swift sources")
            files =
                sources + compiledModel(model, progress: progress) + compiledMappingModels(of: model)
            output.mainPath = "\(model.name).momd"
        case .compiledModel:
            files = compiledModel(model, progress: progress) + compiledMappingModels(of: model)
            output.mainPath = "\(model.name).momd"
        case .xcodeModel:
            // The writer names the `.xcdatamodeld` folder itself; the output folder is that folder.
            files = XcodeModelWriter.files(for: model).map { file in
                OutputFile(path: file.path.split(separator: "/", maxSplits: 1).last.map(String.init) ?? file.path, text: file.text)
            }
            output.mainPath = ""
        case .yamlModel:
            files = YAMLModelWriter.files(for: model).map { OutputFile(path: $0.path, text: $0.text) }
            output.mainPath = files.first?.path.components(separatedBy: "/").first
            checkImportedModel(files, model: model, outputFolder: request.outputFolder, diagnostics: diagnostics)
        }
        do throws(OutputFiles.WriteError) {
            try OutputFiles.checkPaths(files, under: request.outputFolder)
        } catch {
            // The names are checked above, so this guards against a backend building a bad path.
            diagnostics.error("\(error.path): \(error.message)", at: .file(request.modelPath))
            return output
        }
        guard !diagnostics.hasErrors || request.product == .yamlModel else { return output }
        output.files = files
        return output
    }

    /// Loads and checks the model at `path`: a `.model.yaml` file or `.modeld` folder, or an
    /// Xcode `.xcdatamodeld` / `.xcdatamodel`. `classPrefix` goes before the class name of every
    /// entity without one, before the checks.
    public static func load(_ path: String, classPrefix: String = "") -> Result {
        let diagnostics = DiagnosticCollector()
        let model = load(path, classPrefix: classPrefix, checksModel: true, into: diagnostics)
        return Result(model: model, diagnostics: diagnostics.sorted)
    }

    public static func isXcodeModel(_ path: String) -> Bool {
        let trimmed = path.trimmingSlashes
        return trimmed.hasSuffix(XcodeModelReader.versionedSuffix) || trimmed.hasSuffix(XcodeModelReader.versionSuffix)
            || (trimmed as NSString).lastPathComponent == "contents" || trimmed.hasSuffix(".contents")
    }

    /// Validates a single-version model given as text, as if read from `path`. For editors and
    /// tests that hold the text in memory.
    public static func load(text: String, path: String) -> Result {
        let diagnostics = DiagnosticCollector()
        let reader = ModelSourceReader(diagnostics: diagnostics)
        guard let root = reader.parseSingleDocument(bytes: Array(text.utf8), path: path) else {
            return Result(model: nil, diagnostics: diagnostics.sorted)
        }
        let name = ModelSourceReader.modelName(fromFile: path)
        let source = ModelSource(
            name: name, path: path, versions: [VersionSource(name: name, path: path, root: root)], currentVersionName: name,
            shippedVersionNames: [])
        return Result(model: analyze(source, classPrefix: "", diagnostics: diagnostics), diagnostics: diagnostics.sorted)
    }

    // MARK: Frontend and Sema

    static func load(
        _ path: String, classPrefix: String, checksModel: Bool, into diagnostics: DiagnosticCollector, progress: PipelineProgress? = nil
    ) -> Model? {
        guard isXcodeModel(path) else {
            guard let source = ModelSourceReader(diagnostics: diagnostics).read(path) else { return nil }
            let model = analyze(source, classPrefix: classPrefix, diagnostics: diagnostics, progress: progress, mappingModelsBeside: path)
            checkFileNames(of: model, path: path, diagnostics: diagnostics)
            return model
        }
        guard let read = XcodeModelReader(diagnostics: diagnostics).read(path) else { return nil }
        var model = read.applyingClassPrefix(classPrefix)
        checkFileNames(of: model, path: path, diagnostics: diagnostics)
        guard checksModel else { return model }
        progress?.start(versions: model.versions.count, readSteps: 1)
        for version in model.versions {
            VersionChecker(version: version, locations: LocationTable(), diagnostics: diagnostics, rules: .coreData).check()
            progress?.finish("checking '\(version.name)'")
        }
        attachMappingModels(besideModel: path, to: &model, diagnostics: diagnostics)
        VersionHistoryChecker(model: model, diagnostics: diagnostics).check()
        GeneratedCodeChecker(model: model, rules: .coreData, diagnostics: diagnostics).check()
        progress?.finish("checking across versions")
        return model
    }

    /// YAML trees → checked model values, with the mapping models beside the model at
    /// `mappingModelsBeside` when it is given.
    static func analyze(
        _ source: ModelSource, classPrefix: String, diagnostics: DiagnosticCollector, progress: PipelineProgress? = nil,
        mappingModelsBeside modelPath: String? = nil
    ) -> Model {
        progress?.start(versions: source.versions.count, readSteps: 2)
        var versions: [ModelVersion] = []
        var locations: [LocationTable] = []
        for versionSource in source.versions {
            var reader = VersionReader(diagnostics: diagnostics)
            versions.append(reader.read(versionSource.root, versionName: versionSource.name))
            locations.append(reader.locations)
            progress?.finish("reading '\(versionSource.name)'")
        }
        var model = Model(
            name: source.name, versions: versions, currentVersionName: source.currentVersionName ?? versions.last?.name ?? source.name,
            shippedVersionNames: source.shippedVersionNames,
            customMigrations: source.customMigrations.map { VersionStep(from: $0.from, to: $0.to) }
        ).applyingClassPrefix(classPrefix)
        for (version, locations) in zip(model.versions, locations) {
            VersionChecker(version: version, locations: locations, diagnostics: diagnostics).check()
            progress?.finish("checking '\(version.name)'")
        }
        if let modelPath { attachMappingModels(besideModel: modelPath, to: &model, diagnostics: diagnostics) }
        VersionHistoryChecker(model: model, diagnostics: diagnostics).check()
        ShippedVersionChecker(model: model, shipped: source.shipped, lock: source.lock, diagnostics: diagnostics).check()
        GeneratedCodeChecker(model: model, rules: .modelFormat, diagnostics: diagnostics).check()
        progress?.finish("checking across versions")
        return model
    }

    /// Reads and checks the mapping models beside the model at `path`, once the model itself has
    /// no errors (a mapping model is checked against it).
    static func attachMappingModels(besideModel path: String, to model: inout Model, diagnostics: DiagnosticCollector) {
        guard !diagnostics.hasErrors else { return }
        model.mappingModels = mappingModels(besideModel: path, model: model, diagnostics: diagnostics)
    }

    /// The model's and its versions' names become file names (`<Name>.momd`, `<Version>.mom`),
    /// and the model's file name is printed in the header of generated files. A YAML model's
    /// version names are checked as its manifest is read (and never reach the model when wrong).
    static func checkFileNames(of model: Model, path: String, diagnostics: DiagnosticCollector) {
        if let problem = OutputFiles.fileNameProblem(model.name) {
            diagnostics.error("the model's name '\(model.name)' is not a file name: \(problem)", at: .file(path))
        }
        for version in model.versions {
            if let problem = ModelSourceReader.versionNameProblem(version.name) {
                diagnostics.error(problem, at: version.location ?? .file(path))
            }
        }
    }

    // MARK: Backends

    static func generateSwift(_ model: Model, options: SwiftGenerator.Options, diagnostics: DiagnosticCollector) -> [OutputFile]? {
        do {
            var warnings: [Diagnostic] = []
            defer { diagnostics.append(contentsOf: warnings) }
            return try SwiftGenerator.generate(model, options: options, warnings: &warnings).map {
                OutputFile(path: $0.name, text: $0.contents)
            }
        } catch {
            switch error {
            case .names(let problems): diagnostics.append(contentsOf: problems)
            case .template(let failure): diagnostics.error(failure.message, at: failure.location)
            }
            return nil
        }
    }

    static func compiledModel(_ model: Model, progress: PipelineProgress? = nil) -> [OutputFile] {
        CompiledModel.files(for: model) { progress?.finish("compiling \($0)") }.map { OutputFile(path: $0.path, bytes: $0.bytes) }
    }

    /// Checks the YAML model an import is about to write, from memory, as if read from where it
    /// will be written.
    static func checkImportedModel(_ files: [OutputFile], model: Model, outputFolder: String, diagnostics: DiagnosticCollector) {
        let reader = ModelSourceReader(diagnostics: diagnostics)
        let base = (outputFolder as NSString)
        var versions: [VersionSource] = []
        for file in files where file.path.hasSuffix(ModelSourceReader.versionFileSuffix) {
            let path = base.appendingPathComponent(file.path)
            let versionName = ModelSourceReader.modelName(fromFile: file.path)
            if let root = reader.parseSingleDocument(bytes: file.bytes, path: path) {
                versions.append(VersionSource(name: versionName, path: path, root: root))
            }
        }
        let source = ModelSource(
            name: model.name, path: base.appendingPathComponent(files.first?.path ?? ""), versions: versions,
            currentVersionName: model.currentVersionName, shippedVersionNames: model.shippedVersionNames)
        _ = analyze(source, classPrefix: "", diagnostics: diagnostics)
    }
}
