import Foundation
import Testing

/// A decimal attribute reads back the decimal written, after a save and a refetch. Evidence: Core
/// Data's documentation of `NSDecimalAttributeType` (values are `NSDecimalNumber`s) and of the
/// SQLite store's decimal column, a real: values a double holds exactly (quarters) survive it.
struct DecimalValueTests {
    @Test func decimalsReadBackAsWritten() throws {
        let item = ModelBuilder.entity(
            "Item", [ModelBuilder.attribute("position", .integer64AttributeType), ModelBuilder.attribute("amount", .decimalAttributeType)])
        let folder = TemporaryFolder()
        let (_, context) = try makeStack(ModelBuilder.model([item]), in: folder)
        let amounts: [Decimal] = [
            Decimal(string: "87918.25")!, Decimal(string: "-86159.75")!, Decimal(string: "0.5")!, 12, Decimal(string: "1234567.125")!,
        ]
        try context.performAndWait { () throws in
            for (position, amount) in amounts.enumerated() {
                let object = NSEntityDescription.insertNewObject(forEntityName: "Item", into: context)
                object.setValue(Int64(position), forKey: "position")
                object.setValue(NSDecimalNumber(decimal: amount), forKey: "amount")
            }
            try context.save()
            context.reset()
            let request = NSFetchRequest<NSManagedObject>(entityName: "Item")
            request.sortDescriptors = [NSSortDescriptor(key: "position", ascending: true)]
            let read = try context.fetch(request).map { ($0.value(forKey: "amount") as? NSDecimalNumber)?.decimalValue }
            #expect(read == amounts.map(Optional.some))
        }
    }
}
