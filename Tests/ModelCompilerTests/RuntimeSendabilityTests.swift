import Foundation
import Testing

/// Which of `ModelRuntime`'s stack types are `Sendable` matches Apple's SDK (docs/runtime/Container.md,
/// "Sendable"): code written against Core Data is checked by the Swift 6 compiler the same way.
/// Typechecked against the package's built `ModelRuntime` module, like the generated sources.
struct RuntimeSendabilityTests {
    static func typecheck(_ source: String) throws -> (status: Int32, output: String) {
        try #require(
            FileManager.default.fileExists(atPath: GeneratedCodeTests.builtModules.appendingPathComponent("ModelRuntime.swiftmodule").path),
            "build the package first")
        let folder = try GeneratedCodeTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try source.write(to: folder.appendingPathComponent("Code.swift"), atomically: true, encoding: .utf8)
        return try Swiftc.run(["-typecheck", "-swift-version", "6"] + GeneratedCodeTests.runtimeSearchPaths() + ["Code.swift"], in: folder)
    }

    @Test func containersCoordinatorsAndObjectIDsCrossIsolationDomains() throws {
        let result = try Self.typecheck(
            """
            import ModelRuntime

            func inBackground(_ container: NSPersistentContainer) {
                container.performBackgroundTask { context in _ = context.hasChanges }
            }

            func share(_ container: NSPersistentContainer, _ id: NSManagedObjectID) async throws -> Int {
                let coordinator = container.persistentStoreCoordinator
                let sendables: [any Sendable] = [container, coordinator, id]
                await Task.detached { _ = container.name; _ = coordinator.persistentStores.count; _ = id.isTemporaryID }.value
                await container.performBackgroundTask { context in _ = context.hasChanges }
                return try await container.performBackgroundTask { context in
                    try context.count(for: NSFetchRequest<NSFetchRequestResult>(entityName: "Trip")) + sendables.count
                }
            }
            """)
        #expect(result.status == 0 && result.output.isEmpty, "\(result.output)")
    }

    @Test func contextsRequestsStoresDescriptionsObjectsAndModelsAreNotSendable() throws {
        let types = [
            "NSManagedObjectContext", "NSFetchRequest<NSManagedObject>", "NSPersistentStore", "NSPersistentStoreDescription",
            "NSManagedObject", "NSManagedObjectModel",
        ]
        let parameters = types.enumerated().map { "_ value\($0.offset): \($0.element)" }.joined(separator: ", ")
        let lines = types.indices.map { "    let _: any Sendable = value\($0)" }.joined(separator: "\n")
        let result = try Self.typecheck("import ModelRuntime\n\nfunc share(\(parameters)) {\n\(lines)\n}\n")
        #expect(result.status != 0)
        for type in types {
            let name = type.split(separator: "<").first.map(String.init) ?? type
            #expect(result.output.contains("'\(name)") && result.output.contains("'Sendable'"), "\(type): \(result.output)")
        }
        let errors = result.output.components(separatedBy: "\n").filter { $0.contains(": error:") && $0.contains("Sendable") }
        #expect(errors.count == types.count, "\(result.output)")
    }
}
