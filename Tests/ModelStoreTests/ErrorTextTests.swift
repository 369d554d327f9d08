import Foundation
import ModelStore
import Testing

/// Errors embedded in messages are in words: never an `NSError`'s domain, code and user info.
struct ErrorTextTests {
    @Test func aFoundationErrorGivesItsLocalizedDescription() {
        let error = NSError(domain: NSCocoaErrorDomain, code: 4, userInfo: [NSLocalizedDescriptionKey: "The file is gone."])
        #expect(ErrorText.message(error) == "The file is gone.")
        #expect(!ErrorText.message(error).contains("Error Domain="))
    }

    @Test func storeErrorsGiveTheirOwnMessage() {
        #expect(
            ErrorText.message(StoreSQLiteError(code: 11, message: "database disk image is malformed")) == "database disk image is malformed"
        )
        #expect(ErrorText.message(StoreInspectionError(message: "not a store")) == "not a store")
        #expect(ErrorText.message(StoreMigrationError(.failed, "the copy failed")) == "the copy failed")
    }

    @Test func aFileSystemErrorIsItsReason() throws {
        do {
            _ = try FileManager.default.contentsOfDirectory(atPath: "/nonexistent-\(UUID().uuidString)")
            Issue.record("listing a missing folder should fail")
        } catch {
            let message = ErrorText.message(error)
            #expect(!message.isEmpty)
            #expect(!message.contains("Error Domain="))
            #expect(!message.contains("UserInfo="))
        }
    }
}
