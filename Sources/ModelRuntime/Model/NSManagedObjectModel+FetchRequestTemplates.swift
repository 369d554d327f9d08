#if !canImport(CoreData)
import ModelQuery

/// Fetch request templates (`NSManagedObjectModel`'s named fetch requests), set in code. Models
/// loaded from compiled files have none: modelgen's model format has no fetch request templates,
/// and the `NSFetchRequestTemplates` of a `.mom` written by Xcode are not read.
extension NSManagedObjectModel {
    /// The templates by name.
    public var fetchRequestTemplatesByName: [String: NSFetchRequest<NSFetchRequestResult>] { storedFetchRequestTemplates }

    /// The template named `name` (use ``fetchRequestFromTemplate(withName:substitutionVariables:)``
    /// for a request to change and run).
    public func fetchRequestTemplate(forName name: String) -> NSFetchRequest<NSFetchRequestResult>? {
        storedFetchRequestTemplates[name]
    }

    /// A copy of the template named `name` whose predicate has its `$variables` replaced by
    /// `variables`; nil when there is no such template.
    public func fetchRequestFromTemplate(withName name: String, substitutionVariables variables: [String: Any])
        -> NSFetchRequest<NSFetchRequestResult>?
    {
        guard let template = storedFetchRequestTemplates[name] else { return nil }
        let request = template.copy(resultType: NSFetchRequestResult.self)
        request.predicate = template.predicate?.withSubstitutionVariables(variables)
        return request
    }

    /// Sets (or, with nil, removes) the template named `name`. A model in use cannot change.
    public func setFetchRequestTemplate(_ fetchRequestTemplate: NSFetchRequest<NSFetchRequestResult>?, forName name: String) {
        requireEditable(self, "the fetch request template \(name)")
        storedFetchRequestTemplates[name] = fetchRequestTemplate
    }

    /// Copies `model`'s templates into this model (a copy or a merge of it), each pointing at this
    /// model's entity of the same name.
    func adoptFetchRequestTemplates(of model: NSManagedObjectModel) {
        for (name, template) in model.storedFetchRequestTemplates {
            let copy = template.copy(resultType: NSFetchRequestResult.self)
            if let entityName = template.entityName, let entity = entitiesByName[entityName] { copy.entity = entity }
            storedFetchRequestTemplates[name] = copy
        }
    }
}
#endif
