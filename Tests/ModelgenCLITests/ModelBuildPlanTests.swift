import Foundation
import Testing

/// The build plugin's commands for a target (`Plugins/ModelgenPlugin/ModelBuildPlan.swift`,
/// compiled here through `Plugin/`): one `modelgen build` per model, and only the first model
/// by path declares the module-wide query typealiases.
struct ModelBuildPlanTests {
    static let target = URL(fileURLWithPath: "/package/Sources/App")
    static let tool = URL(fileURLWithPath: "/build/modelgen")
    static let work = URL(fileURLWithPath: "/build/plugins/App")

    @Test func modelsAreModelYAMLFilesAndModeldFoldersSortedByPath() {
        let files = [
            "Trips.modeld/Trips 2.model.yaml", "Trips.modeld/versions.yaml", "Trips.modeld/Trips 1.model.yaml", "Notes.model.yaml",
            "Main.swift", "Accounts/Ledger.model.yaml",
        ].map { Self.target.appendingPathComponent($0) }
        let models = ModelBuildPlan.models(in: files)
        #expect(models.map(\.name) == ["Ledger", "Notes", "Trips"])
        #expect(models.last?.url.path == "/package/Sources/App/Trips.modeld")
        #expect(models.last?.inputs.count == 3)
    }

    @Test func onlyTheFirstModelDeclaresTheQueryTypealiases() {
        let files = ["Trips.modeld/Trips 2.model.yaml", "Notes.model.yaml", "Drawings.model.yaml"].map {
            Self.target.appendingPathComponent($0)
        }
        let steps = ModelBuildPlan.steps(
            files: files, targetDirectory: Self.target, workDirectory: Self.work, tool: Self.tool, modelBundle: "module")
        #expect(steps.map(\.displayName) == ["Drawings", "Notes", "Trips"].map { "Compiling Core Data model \($0)" })
        #expect(steps.map { $0.arguments.contains("--no-query-typealiases") } == [false, true, true])
        #expect(
            steps[1].arguments.prefix(6) == [
                "build", "/package/Sources/App/Notes.model.yaml", "--output", "/build/plugins/App/Notes", "--model-bundle", "module",
            ])
        #expect(steps[2].outputs.map(\.lastPathComponent) == ["Trips+Model.swift", "Trips.momd"])
    }

    @Test func mappingModelsInsideAModeldFolderAreDeclaredAsCompiledMappingModels() {
        let files = [
            "Trips.modeld/Trips 1.model.yaml", "Trips.modeld/Trips 1-to-Trips 2.mapping.yaml", "Trips.modeld/versions.yaml",
            "Trips.modeld/Legacy.xcmappingmodel/xcmapping.xml", "Notes.model.yaml",
        ].map { Self.target.appendingPathComponent($0) }
        let steps = ModelBuildPlan.steps(
            files: files, targetDirectory: Self.target, workDirectory: Self.work, tool: Self.tool, modelBundle: "module")
        #expect(steps[0].outputs.map(\.lastPathComponent) == ["Notes+Model.swift", "Notes.momd"])
        #expect(
            steps[1].outputs.map(\.lastPathComponent) == ["Trips+Model.swift", "Trips.momd", "Legacy.cdm", "Trips 1-to-Trips 2.cdm"])
        #expect(steps[1].inputs.contains(Self.target.appendingPathComponent("Trips.modeld/Legacy.xcmappingmodel/xcmapping.xml")))
    }

    @Test func aSingleModelDeclaresTheQueryTypealiases() {
        let steps = ModelBuildPlan.steps(
            files: [Self.target.appendingPathComponent("Notes.model.yaml")], targetDirectory: Self.target, workDirectory: Self.work,
            tool: Self.tool, modelBundle: "module")
        #expect(steps.count == 1)
        #expect(!steps[0].arguments.contains("--no-query-typealiases"))
    }

    @Test func theFlagLeavesTheTypealiasesOut() throws {
        let folder = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let with = folder.appendingPathComponent("with")
        let without = folder.appendingPathComponent("without")
        #expect(CapturedRun(["build", CommandTests.sample, "--output", with.path]).status == 0)
        #expect(CapturedRun(["build", CommandTests.sample, "--output", without.path, "--no-query-typealiases"]).status == 0)
        let declared = try String(contentsOf: with.appendingPathComponent("Trips+Model.swift"), encoding: .utf8)
        let omitted = try String(contentsOf: without.appendingPathComponent("Trips+Model.swift"), encoding: .utf8)
        #expect(declared.contains("typealias NSPredicate = ModelRuntime.NSPredicate"))
        #expect(!omitted.contains("typealias NSPredicate"))
        #expect(omitted.contains("public static func makeContainer("))
    }
}

/// `--config`: the target folder's `modelgen.yaml` is passed when the model has none beside it;
/// one beside the model is left to modelgen to find. Both plugins use this.
struct ModelBuildPlanConfigurationTests {
    @Test func theTargetConfigurationIsPassedOnlyWhenNoneIsBesideTheModel() throws {
        let target = try GenerateCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: target) }
        let nested = target.appendingPathComponent("Nested")
        let other = target.appendingPathComponent("Other")
        for folder in [nested, other] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        let files = [other.appendingPathComponent("Notes.model.yaml"), nested.appendingPathComponent("Trips.model.yaml")]
        let models = ModelBuildPlan.models(in: files)
        #expect(models.map { ModelBuildPlan.configuration(for: $0, targetDirectory: target).arguments } == [[], []])

        let targetConfiguration = target.appendingPathComponent("modelgen.yaml")
        try "access: internal\n".write(to: targetConfiguration, atomically: true, encoding: .utf8)
        let beside = nested.appendingPathComponent("modelgen.yaml")
        try "access: package\n".write(to: beside, atomically: true, encoding: .utf8)
        let configurations = models.map { ModelBuildPlan.configuration(for: $0, targetDirectory: target) }
        // Sorted by path: Nested/Trips.model.yaml, then Other/Notes.model.yaml.
        #expect(configurations.map(\.arguments) == [[], ["--config", targetConfiguration.path]])
        #expect(configurations.map(\.input?.lastPathComponent) == ["modelgen.yaml", "modelgen.yaml"])
        #expect(configurations.map { $0.input?.deletingLastPathComponent().lastPathComponent } == ["Nested", target.lastPathComponent])
    }
}
