import Foundation
import ModelCompiler
import ModelSchema
import Testing

/// What `--diff` marks, as the migration planner maps the step: renames through renaming
/// identifiers, additions and removals, changed aspects, and transient properties by name.
struct DiagramDiffTests {
    static func diff(_ path: String, _ from: String, _ to: String) throws -> Diagram {
        let model = try #require(Pipeline.load(path).model)
        return try #require(ModelDiagram.diff(of: model, from: from, to: to))
    }

    static func migration(_ name: String) throws -> Diagram {
        try diff(Fixtures.golden.appendingPathComponent("Migrations/\(name).modeld").path, "V1", "V2")
    }

    @Test func aRenamedEntityIsDrawnOnceUnderItsNewNameWithItsOldOne() throws {
        let diagram = try Self.diff(Fixtures.coredata.appendingPathComponent(FixtureStores.sampleModel).path, "SampleModel", "SampleModel3")
        let byName = diagram.entitiesByName
        #expect(byName["LuxuryCar"]?.change == .renamed(from: "ExpensiveSportCar"))
        #expect(byName["ExpensiveSportCar"] == nil)
        #expect(byName["Maker"]?.change == .added)
        let car = try #require(byName["Car"])
        #expect(car.attributes.filter { $0.change == .removed }.map(\.name) == ["color", "maker", "currentDrivingSpeed"])
        // The transient attribute is not in the plan; it is compared by name.
        #expect(byName["Person"]?.attributes.first { $0.name == "isDriving" }?.change == .removed)
        let added = diagram.links.filter { $0.forward.change == .added }.map(\.forward.name)
        #expect(added == ["createdBy", "previousOwners"])
    }

    @Test func aRemovedEntityKeepsItsAttributesAndRelationshipsAllRemoved() throws {
        let diagram = try Self.migration("entity-removed-with-its-relationship")
        let removed = try #require(diagram.entities.first { $0.change == .removed })
        #expect(removed.attributes.allSatisfy { $0.change == .removed })
        let links = diagram.links.filter { $0.forward.entityName == removed.name || $0.forward.destinationName == removed.name }
        #expect(!links.isEmpty)
        #expect(links.allSatisfy { $0.change == .removed })
    }

    @Test func aChangedPropertyNamesWhatChanged() throws {
        let type = try Self.migration("attribute-type-changed")
        #expect(type.entitiesByName["Trip"]?.attributes.first { $0.name == "rating" }?.change == .changed(aspects: ["type", "default"]))
        let rule = try Self.migration("relationship-delete-rule-changed")
        #expect(rule.links.first?.change == .changed(aspects: ["deleteRule"]))
        let abstract = try Self.migration("entity-becomes-abstract")
        #expect(abstract.entities.contains { $0.change == .changed(aspects: ["abstract"]) && $0.isAbstract })
    }

    @Test func aRenamedAttributeIsDrawnOnceAsOldToNew() throws {
        let diagram = try Self.migration("attribute-renamed")
        let trip = try #require(diagram.entitiesByName["Trip"])
        #expect(trip.attributes.map(\.name) == ["name", "remarks", "rating"])
        #expect(trip.attributes[1].change == .renamed(from: "notes"))
        #expect(MermaidWriter.text(diagram).contains("    notes → remarks: String?\n"))
        #expect(DotWriter.text(diagram).contains("notes → remarks: String?"))
    }

    @Test func anUnchangedStepMarksNothing() throws {
        let diagram = try Self.diff(Fixtures.tripsModel.path, "Trips 2", "Trips 2")
        #expect(diagram.entities.allSatisfy { $0.change == .unchanged && $0.attributes.allSatisfy { $0.change == .unchanged } })
        #expect(diagram.links.allSatisfy { $0.change == .unchanged })
    }
}
