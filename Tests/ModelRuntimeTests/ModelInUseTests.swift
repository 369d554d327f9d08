#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Once a model is in use it cannot change, and what the engine derives from it is computed
/// once and shared.
struct ModelInUseTests {
    static func model() -> NSManagedObjectModel {
        let base = NSEntityDescription()
        base.name = "Base"
        let title = NSAttributeDescription()
        title.name = "title"
        title.attributeType = .stringAttributeType
        let owner = NSRelationshipDescription()
        owner.name = "owner"
        owner.destinationEntity = base
        owner.maxCount = 1
        base.properties = [title, owner]
        let derived = NSEntityDescription()
        derived.name = "Derived"
        let extra = NSAttributeDescription()
        extra.name = "extra"
        extra.attributeType = .integer64AttributeType
        derived.properties = [extra]
        base.subentities = [derived]
        let model = NSManagedObjectModel()
        model.entities = [base, derived]
        return model
    }

    final class TableInfo {
        let name: String
        init(_ name: String) { self.name = name }
    }

    @Test func layoutsGiveSlotsInheritedFirstAndAreComputedOnceInUse() throws {
        let model = Self.model()
        let derived = try #require(model.entitiesByName["Derived"])
        let editable = derived.layout
        #expect(editable.properties.map(\.name) == ["title", "owner", "extra"])
        #expect(editable.slotsByName == ["title": 0, "owner": 1, "extra": 2])
        #expect(editable.attributeSlots == [0, 2] && editable.relationshipSlots == [1])
        #expect(editable.lineage.map(\.name) == ["Base", "Derived"])
        #expect(model.entitiesByName["Base"]?.layout.family.map(\.name) == ["Base", "Derived"])
        #expect(derived.layout !== editable)  // recomputed while the model can change
        model.markInUse()
        #expect(derived.layout === derived.layout)
        var made = 0
        let first = derived.engineData(TableInfo.self) {
            made += 1
            return TableInfo("Z" + ($0.name ?? ""))
        }
        let second = derived.engineData(TableInfo.self) {
            made += 1
            return TableInfo("Z" + ($0.name ?? ""))
        }
        #expect(first === second && made == 1 && first.name == "ZDerived")
        #expect(model.entityVersionHashesByName == model.entityVersionHashesByName)
    }

    @Test func changingAModelInUseStopsTheProcess() async {
        await #expect(processExitsWith: .failure) {
            let model = ModelInUseTests.model()
            model.markInUse()
            model.entities.first?.properties.first?.name = "renamed"
        }
        await #expect(processExitsWith: .failure) {
            let model = ModelInUseTests.model()
            model.markInUse()
            model.entities = []
        }
        await #expect(processExitsWith: .failure) {
            let model = ModelInUseTests.model()
            let location = NSCompositeAttributeDescription()
            location.name = "location"
            let latitude = NSAttributeDescription()
            latitude.name = "latitude"
            location.elements = [latitude]
            model.entities.first?.properties.append(location)
            model.markInUse()
            latitude.attributeType = .doubleAttributeType
        }
    }
}
#endif
