import Foundation

/// An error in a person's words, for messages that embed it: a store error's own message, a
/// Foundation error's localized description — never an `NSError`'s dump of domain, code and user
/// info. An error that gathers several (Core Data's `NSDetailedErrorsKey`, as a save that fails
/// more than one validation has) lists theirs. The error itself belongs in `NSUnderlyingErrorKey`.
public enum ErrorText {
    public static func message(_ error: any Error) -> String {
        switch error {
        case let error as StoreSQLiteError: return error.message
        case let error as StoreMigrationError: return error.message
        case let error as StoreInspectionError: return error.message
        default:
            if type(of: error) is NSError.Type || error is CocoaError || error is any LocalizedError {
                let error = error as NSError
                guard let details = error.userInfo["NSDetailedErrors"] as? [any Error], !details.isEmpty else {
                    return error.localizedDescription
                }
                return error.localizedDescription + " (" + details.map(message).joined(separator: "; ") + ")"
            }
            return String(describing: error)
        }
    }
}
