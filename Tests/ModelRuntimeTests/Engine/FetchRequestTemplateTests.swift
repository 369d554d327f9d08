#if !canImport(CoreData)
import Foundation
import ModelRuntime
import Testing

/// Fetch request templates set on a model in code: kept, copied with variables substituted, and
/// carried by copies and merges of the model.
struct FetchRequestTemplateTests {
    private func modelWithTemplate() -> NSManagedObjectModel {
        let model = EngineTestModel.make()
        let template = NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")
        template.entity = model.entitiesByName["Trip"]
        template.predicate = NSPredicate(format: "legs >= $MIN")
        template.sortDescriptors = [NSSortDescriptor(key: "name", ascending: true)]
        model.setFetchRequestTemplate(template, forName: "LongTrips")
        return model
    }

    @Test func aTemplateGivesRequestsWithItsVariablesSubstituted() throws {
        let model = modelWithTemplate()
        #expect(model.fetchRequestTemplatesByName.keys.sorted() == ["LongTrips"])
        #expect(model.fetchRequestTemplate(forName: "LongTrips")?.predicate?.predicateFormat == "legs >= $MIN")
        #expect(model.fetchRequestFromTemplate(withName: "Missing", substitutionVariables: [:]) == nil)
        let (_, context) = try EngineTestModel.stack(model: model)
        let names = try context.performAndWait {
            for (name, legs) in [("A", 1), ("B", 3), ("C", 5)] {
                _ = EngineTestModel.insert("Trip", into: context, ["name": name, "legs": legs])
            }
            try context.save()
            let request = try #require(model.fetchRequestFromTemplate(withName: "LongTrips", substitutionVariables: ["MIN": 3]))
            #expect(request.predicate?.predicateFormat == "legs >= 3")
            return try context.fetch(request).compactMap { ($0 as? NSManagedObject)?.value(forKey: "name") as? String }
        }
        #expect(names == ["B", "C"])
        // The template itself is unchanged.
        #expect(model.fetchRequestTemplate(forName: "LongTrips")?.predicate?.predicateFormat == "legs >= $MIN")
    }

    @Test func copiesAndMergesCarryTheTemplatesForTheirOwnEntities() throws {
        let model = modelWithTemplate()
        let copy = try #require(model.copy() as? NSManagedObjectModel)
        let copied = try #require(copy.fetchRequestTemplate(forName: "LongTrips"))
        #expect(copied.entity === copy.entitiesByName["Trip"] && copied.entity !== model.entitiesByName["Trip"])
        let merged = try #require(NSManagedObjectModel(byMerging: [model]))
        #expect(merged.fetchRequestTemplate(forName: "LongTrips")?.entity === merged.entitiesByName["Trip"])
        copy.setFetchRequestTemplate(nil, forName: "LongTrips")
        #expect(copy.fetchRequestTemplatesByName.isEmpty && model.fetchRequestTemplatesByName.count == 1)
    }
}
#endif
