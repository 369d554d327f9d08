import ModelSchema

/// Fetched properties compile into the `.mom` with their fetch request, so what Core Data would
/// only find when the property is first fetched is an error here: an entity the model lacks, a
/// predicate that does not parse, a variable Core Data does not bind, a key path whose first key
/// is not a property of the entity fetched (Core Data fails the fetch on it).
extension VersionChecker {
    /// The variables Core Data binds when it fetches a fetched property.
    static let fetchedPropertyVariables: Set<String> = ["FETCH_SOURCE", "FETCHED_PROPERTY"]

    func checkFetchedProperty(_ fetched: FetchedProperty, in entity: Entity) {
        let here = fetched.location ?? entity.location ?? .file("")
        let what = "fetched property '\(entity.name).\(fetched.name)'"
        let destination = lookup.entity(named: fetched.entityName)
        if destination == nil {
            diagnostics.error(
                "unknown entity '\(fetched.entityName)' fetched by '\(entity.name).\(fetched.name)'\(Suggestions.didYouMean(fetched.entityName, in: entityNames))",
                at: locations["\(entity.name).\(fetched.name).entity"] ?? here)
        }
        guard let text = fetched.predicate else { return }
        let textStart = locations["\(entity.name).\(fetched.name).predicate"]
        let predicateLocation = textStart ?? here
        let predicate: ModelPredicate
        do {
            predicate = try ModelPredicate(format: text)
        } catch {
            var location = predicateLocation
            // The column is exact on the text's own line, which a block scalar's is not.
            if let textStart, !text.contains("\n") {
                location = SourceLocation(file: textStart.file, line: textStart.line, column: textStart.column + error.column - 1)
            }
            diagnostics.error("the predicate of \(what) cannot be read: \(error.message)", at: location)
            return
        }
        let expressions = predicate.expressions
        var reported: Set<String> = []
        for variable in expressions.flatMap(\.variables)
        where !Self.fetchedPropertyVariables.contains(variable) && reported.insert("$" + variable).inserted {
            diagnostics.error(
                "the predicate of \(what) uses variable '$\(variable)', which Core Data does not bind (it binds $FETCH_SOURCE and $FETCHED_PROPERTY)",
                at: predicateLocation)
        }
        guard let destination else { return }
        let lineage = [destination] + lookup.ancestors(of: destination)
        let known = Set(lineage.flatMap { $0.attributes.map(\.name) + $0.relationships.map(\.name) + $0.fetchedProperties.map(\.name) })
        for (operand, path) in expressions.flatMap(\.keyPaths) where operand == .evaluatedObject {
            let key = String(path.prefix { $0 != "." })
            guard !key.hasPrefix("@"), !known.contains(key), reported.insert(key).inserted else { continue }
            diagnostics.error(
                "the predicate of \(what) names unknown property '\(key)' of '\(destination.name)'\(Suggestions.didYouMean(key, in: known.sorted()))",
                at: predicateLocation)
        }
    }
}
