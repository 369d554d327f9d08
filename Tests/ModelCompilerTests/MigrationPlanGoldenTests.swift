import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// Each model in `Golden/Migrations` holds one kind of change between versions; its plan, as
/// `modelgen migrations` prints it in text and in JSON, must equal the `.plan.txt` and
/// `.plan.json` files beside it. Run with `MODELGEN_UPDATE_GOLDEN=1` to rewrite them.
struct MigrationPlanGoldenTests {
    static let directory = Fixtures.golden.appendingPathComponent("Migrations")

    static var caseNames: [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        return names.filter { $0.hasSuffix(".modeld") }.map { String($0.dropLast(".modeld".count)) }.sorted()
    }

    static func plan(_ name: String) throws -> MigrationPlan {
        let result = Pipeline.load(directory.appendingPathComponent(name + ".modeld").path)
        #expect(!result.hasErrors, "\(result.diagnostics)")
        return MigrationPlanner.plan(try #require(result.model))
    }

    static func compare(_ actual: String, toGolden file: String) throws {
        #expect(actual == (try Golden.expected(actual, at: directory.appendingPathComponent(file))))
    }

    @Test func thereIsACaseForEveryKindOfChange() {
        #expect(Self.caseNames.count >= 25)
    }

    @Test(arguments: caseNames)
    func textPlanMatchesGoldenFile(_ name: String) throws {
        try Self.compare(MigrationPlanText.text(try Self.plan(name)), toGolden: name + ".plan.txt")
    }

    @Test(arguments: caseNames)
    func jsonPlanMatchesGoldenFile(_ name: String) throws {
        try Self.compare(MigrationPlanText.json(try Self.plan(name)).rendered(), toGolden: name + ".plan.json")
    }

    @Test func casesNamedWithoutDefaultOrBecomingToOneOrAbstractAreNotInferable() throws {
        let notInferable = [
            "attribute-added-required-without-default", "attribute-becomes-required-without-default", "attribute-type-changed",
            "attribute-renamed-twice-by-previous-name",
            "entity-becomes-abstract", "inheritance-merges-hierarchies", "relationship-added-required", "relationship-becomes-required",
            "relationship-destination-changed", "relationship-to-many-becomes-to-one",
        ]
        for name in Self.caseNames {
            let plan = try Self.plan(name)
            let inferable = plan.steps.allSatisfy { $0.isInferable }
            let expected = !notInferable.contains(name) && name != "custom-migration-declared"
            #expect(inferable == expected, "\(name)")
        }
    }

    @Test func aDeclaredCustomMigrationSilencesTheWarningButKeepsTheObstacleInThePlan() throws {
        let result = Pipeline.load(Self.directory.appendingPathComponent("custom-migration-declared.modeld").path)
        #expect(result.diagnostics.isEmpty)
        let model = try #require(result.model)
        let step = try #require(MigrationPlanner.plan(model).steps.first)
        #expect(step.isCustom)
        #expect(!step.isInferable)
    }

    @Test func aRenameChainedAcrossVersionsMapsEachStep() throws {
        let plan = try Self.plan("attribute-renamed-twice")
        let renames = plan.steps.map { $0.entities.first?.properties.first.map { "\($0.sourceName ?? "")→\($0.destinationName ?? "")" } }
        #expect(renames == ["notes→remarks", "remarks→comment"])
    }
}

/// Plans of real models: the fixtures' Xcode models and the Trips sample.
struct MigrationPlanFixtureTests {
    static func plan(_ relative: String) throws -> MigrationPlan {
        let result = Pipeline.load(Fixtures.root.appendingPathComponent(relative).path)
        #expect(!result.hasErrors)
        return MigrationPlanner.plan(try #require(result.model))
    }

    /// The example app migrates 2 → 3 with a hand-written mapping model: its colour string
    /// becomes a required relationship to a new Color entity, which inference cannot fill.
    @Test func wiboscoStepTwoToThreeNeedsCustomMigrationAndTheOthersAreInferred() throws {
        let plan = try Self.plan("coredata/wibosco-CoreDataMigration-Example/CoreDataMigration_Example.xcdatamodeld")
        #expect(plan.steps.map(\.isInferable) == [true, false, true])
        let obstacle = try #require(plan.steps[1].obstacles.first)
        #expect(obstacle.entity.name == "Post")
        #expect(obstacle.property?.name == "color")
        let added = plan.steps[1].entities.filter { $0.kind == .added }.map(\.name)
        #expect(added == ["Color"])
    }

    @Test func coreDataPlusStepsAreInferredWithTheRenamedEntity() throws {
        let plan = try Self.plan("coredata/CoreDataPlus-SampleModel/SampleModel.xcdatamodeld")
        #expect(plan.steps.count == 2)
        let inferable = plan.steps.map(\.isInferable)
        #expect(inferable == [true, true])
        let renamed = plan.steps[0].entities.filter { $0.kind == .renamed }.map { "\($0.sourceName ?? "")→\($0.name)" }
        #expect(renamed == ["ExpensiveSportCar→LuxuryCar"])
        let added = plan.steps[1].entities.filter { $0.kind == .added }.map(\.name)
        #expect(added == ["Maker"])
    }

    @Test func tripsOneToTwoIsInferredAndAddsFourAttributes() throws {
        let result = Pipeline.load(Fixtures.samples.appendingPathComponent("Trips/Trips.modeld").path)
        #expect(result.diagnostics.isEmpty)
        let plan = MigrationPlanner.plan(try #require(result.model))
        #expect(plan.steps.count == 1)
        #expect(plan.steps[0].isInferable)
        let added = plan.steps[0].entities.flatMap { entity in
            entity.properties.filter { $0.kind == .added }.map { "\(entity.name).\($0.name)" }
        }
        #expect(added == ["Stop.location", "Tag.color", "Trip.status", "Trip.stopCount"])
    }
}
