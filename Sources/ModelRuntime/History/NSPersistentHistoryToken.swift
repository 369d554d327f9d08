// swift-format-ignore-file: AlwaysUseLowerCamelCase

// Core Data's constant names are kept exactly.
#if !canImport(CoreData)
import Foundation

/// A position in the persistent history of one or more stores (`NSPersistentHistoryToken`): per
/// store identifier, the number of the last transaction it covers. Tokens compare per store
/// (a token is before another when it is not after it in any store and before it in one), and
/// archive with `NSKeyedArchiver` under the key `storeTokens`, as apps persist them. Not
/// `Sendable` and not `Comparable`, as in Core Data (pass a token between queues archived, or
/// compare ``storeTokens``).
public final class NSPersistentHistoryToken: NSObject, NSSecureCoding, NSCopying {
    /// Store identifier → last transaction number (beyond Core Data, whose token is opaque).
    public let storeTokens: [String: Int64]

    init(storeTokens: [String: Int64]) {
        self.storeTokens = storeTokens
        super.init()
    }

    public static var supportsSecureCoding: Bool { true }

    public func encode(with coder: NSCoder) {
        let dictionary = NSMutableDictionary()
        for (store, number) in storeTokens { dictionary[NSString(string: store)] = NSNumber(value: number) }
        coder.encode(dictionary, forKey: "storeTokens")
    }

    public required init?(coder: NSCoder) {
        guard
            let dictionary = coder.decodeObject(of: [NSDictionary.self, NSString.self, NSNumber.self], forKey: "storeTokens")
                as? NSDictionary
        else { return nil }
        var tokens: [String: Int64] = [:]
        for (key, value) in dictionary {
            guard let store = (key as? NSString).map(String.init) ?? key as? String else { return nil }
            guard let number = (value as? NSNumber)?.int64Value ?? (value as? Int64) ?? (value as? Int).map(Int64.init) else {
                return nil
            }
            tokens[store] = number
        }
        storeTokens = tokens
        super.init()
    }

    public func copy(with zone: NSZone? = nil) -> Any { self }

    public override func isEqual(_ object: Any?) -> Bool {
        (object as? NSPersistentHistoryToken)?.storeTokens == storeTokens
    }

    public override var hash: Int { storeTokens.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.hashValue }

    public override var description: String {
        "<NSPersistentHistoryToken - {"
            + storeTokens.sorted { $0.key < $1.key }.map { "\"\($0.key)\" = \($0.value);" }.joined(separator: " ") + "}>"
    }

    /// The transaction number the token holds for a store (0 when it names none).
    func number(for store: String) -> Int64 { storeTokens[store] ?? 0 }
}

extension NSPersistentHistoryToken {
    /// Whether the token is before `other`: not after it in any store and before it in one.
    func precedes(_ other: NSPersistentHistoryToken) -> Bool {
        let stores = Set(storeTokens.keys).union(other.storeTokens.keys)
        return stores.allSatisfy { number(for: $0) <= other.number(for: $0) } && storeTokens != other.storeTokens
            && stores.contains { number(for: $0) < other.number(for: $0) }
    }
}

/// `NSPersistentHistoryTokenExpiredError`: a fetch after a token whose history was deleted.
public let NSPersistentHistoryTokenExpiredError = 134301
/// The user-info key of a remote-change notification's history token.
public let NSPersistentHistoryTokenKey = "historyToken"
#endif
