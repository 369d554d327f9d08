import CSQLite
import Foundation

/// Registers Core Data's SQL functions and collations on a connection, under Core Data's names
/// and argument counts, so statements, triggers and indexes in stores an app wrote run here.
enum CoreDataSQLFunctions {
    typealias Function = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<OpaquePointer?>?) -> Void

    private static let functions: [(name: String, arguments: Int32, deterministic: Bool, function: Function)] = [
        ("NSCoreDataNow", 0, false, now),
        ("NSCoreDataLike", 3, true, like),
        ("NSCoreDataMatches", 3, true, matches),
        ("NSCoreDataStringSearch", 4, true, stringSearch),
        ("NSCoreDataStringCompare", 5, true, stringCompare),
        ("NSCoreDataToUpper", 1, true, toUpper),
        ("NSCoreDataToLower", 1, true, toLower),
        ("NSCoreDataCanonical", 1, true, canonical),
        ("NSCoreDataTriggerUpdateAffectedObjectValue", 5, false, affectedObjectValue),
        ("NSCoreDataDATriggerInsertUpdatedAffectedObjectValue", 5, false, affectedObjectValue),
        ("NSCoreDataDATriggerUpdatedAffectedObjectValue", 5, false, affectedObjectValue),
        ("NSCoreDataDATriggerMergeableString", 5, false, mergeableString),
        ("NSPersistentHistoryBatchDeleteUpdateTrigger", -1, false, historyColumnMask),
        ("NSPersistentHistoryBatchDeleteUpdateTriggerDataBlobOperator", -1, true, historyMaskUnion),
    ]

    static func register(on connection: StoreConnection) throws(StoreSQLiteError) {
        let context = Unmanaged.passUnretained(connection.functionContext).toOpaque()
        for entry in functions {
            let flags = SQLITE_UTF8 | (entry.deterministic ? SQLITE_DETERMINISTIC : 0)
            let result = sqlite3_create_function_v2(
                connection.handle, entry.name, entry.arguments, flags, context, entry.function, nil, nil, nil)
            guard result == SQLITE_OK else { throw StoreSQLiteError(code: result, message: "cannot register \(entry.name)") }
        }
        for collation in CoreDataStringSemantics.Collation.allCases {
            let function = collationFunctions[collation]!
            let result = sqlite3_create_collation_v2(connection.handle, collation.rawValue, SQLITE_UTF8, nil, function, nil)
            guard result == SQLITE_OK else { throw StoreSQLiteError(code: result, message: "cannot register \(collation.rawValue)") }
        }
    }

    // MARK: Argument access

    private static func text(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> String? {
        guard let value = arguments?[index], sqlite3_value_type(value) != SQLITE_NULL, let pointer = sqlite3_value_text(value) else {
            return nil
        }
        return String(decoding: UnsafeBufferPointer(start: pointer, count: Int(sqlite3_value_bytes(value))), as: UTF8.self)
    }

    private static func integer(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> Int64 {
        arguments?[index].map { sqlite3_value_int64($0) } ?? 0
    }

    private static func value(_ arguments: UnsafeMutablePointer<OpaquePointer?>?, _ index: Int) -> SQLiteValue {
        guard let value = arguments?[index] else { return .null }
        switch sqlite3_value_type(value) {
        case SQLITE_INTEGER: return .integer(sqlite3_value_int64(value))
        case SQLITE_FLOAT: return .real(sqlite3_value_double(value))
        case SQLITE_TEXT: return .text(text(arguments, index) ?? "")
        case SQLITE_BLOB:
            let count = Int(sqlite3_value_bytes(value))
            guard count > 0, let blob = sqlite3_value_blob(value) else { return .blob([]) }
            return .blob([UInt8](UnsafeRawBufferPointer(start: blob, count: count)))
        default: return .null
        }
    }

    private static func result(_ context: OpaquePointer?, _ text: String) {
        sqlite3_result_text(context, text, -1, Statement.transient)
    }

    // MARK: Functions

    /// Seconds since 2001-01-01 00:00:00 UTC, the way Core Data stores dates.
    private static let now: Function = { context, _, _ in
        sqlite3_result_double(context, Date().timeIntervalSinceReferenceDate)
    }

    private static let like: Function = { context, _, arguments in
        guard let value = text(arguments, 0), let pattern = text(arguments, 1) else { return sqlite3_result_int(context, 0) }
        let flags = CoreDataStringSemantics.PredicateFlags(rawValue: integer(arguments, 2))
        sqlite3_result_int(context, CoreDataStringSemantics.like(value, pattern: pattern, flags: flags) ? 1 : 0)
    }

    /// A compiled pattern kept by SQLite for the statement while the pattern argument is constant.
    private final class CompiledRegex {
        let flags: Int64
        let regex: NSRegularExpression?
        init(flags: Int64, regex: NSRegularExpression?) {
            self.flags = flags
            self.regex = regex
        }
    }

    private static let releaseRegex: @convention(c) (UnsafeMutableRawPointer?) -> Void = { pointer in
        if let pointer { Unmanaged<CompiledRegex>.fromOpaque(pointer).release() }
    }

    private static let matches: Function = { context, _, arguments in
        guard let value = text(arguments, 0), let pattern = text(arguments, 1) else { return sqlite3_result_int(context, 0) }
        let bits = integer(arguments, 2)
        let flags = CoreDataStringSemantics.PredicateFlags(rawValue: bits)
        var compiled: CompiledRegex
        if let cached = sqlite3_get_auxdata(context, 1), Unmanaged<CompiledRegex>.fromOpaque(cached).takeUnretainedValue().flags == bits {
            compiled = Unmanaged<CompiledRegex>.fromOpaque(cached).takeUnretainedValue()
        } else {
            compiled = CompiledRegex(flags: bits, regex: CoreDataStringSemantics.regex(pattern, flags: flags))
            sqlite3_set_auxdata(context, 1, Unmanaged.passRetained(compiled).toOpaque(), releaseRegex)
        }
        guard let regex = compiled.regex else {
            return sqlite3_result_error(context, "NSCoreDataMatches: invalid regular expression", -1)
        }
        sqlite3_result_int(context, CoreDataStringSemantics.matches(value, regex: regex, flags: flags) ? 1 : 0)
    }

    private static let stringSearch: Function = { context, _, arguments in
        guard let value = text(arguments, 0), let needle = text(arguments, 1) else { return sqlite3_result_int(context, 0) }
        let found = CoreDataStringSemantics.search(
            value, for: needle, options: integer(arguments, 2), localeSensitive: integer(arguments, 3) != 0)
        sqlite3_result_int(context, found ? 1 : 0)
    }

    private static let stringCompare: Function = { context, _, arguments in
        guard let lhs = text(arguments, 0), let rhs = text(arguments, 1) else { return sqlite3_result_null(context) }
        let holds = CoreDataStringSemantics.compare(
            lhs, rhs, operator: integer(arguments, 2), options: integer(arguments, 3), localeSensitive: integer(arguments, 4) != 0)
        sqlite3_result_int(context, holds ? 1 : 0)
    }

    private static let toUpper: Function = { context, _, arguments in
        guard let value = text(arguments, 0) else { return sqlite3_result_null(context) }
        result(context, CoreDataStringSemantics.uppercase(value))
    }

    private static let toLower: Function = { context, _, arguments in
        guard let value = text(arguments, 0) else { return sqlite3_result_null(context) }
        result(context, CoreDataStringSemantics.lowercase(value))
    }

    private static let canonical: Function = { context, _, arguments in
        guard let value = text(arguments, 0) else { return sqlite3_result_null(context) }
        result(context, CoreDataStringSemantics.canonical(value))
    }

    /// `(table, Z_ENT, Z_PK, property name, new value)`: a trigger changed a derived value; the
    /// connection records it so the object graph can refresh that object. Returns NULL.
    private static let affectedObjectValue: Function = { context, _, arguments in
        defer { sqlite3_result_null(context) }
        guard let table = text(arguments, 0), let property = text(arguments, 3), let data = sqlite3_user_data(context) else { return }
        let change = StoreConnection.DerivedValueChange(
            tableName: table, entityNumber: integer(arguments, 1), primaryKey: integer(arguments, 2), propertyName: property,
            value: value(arguments, 4))
        Unmanaged<FunctionContext>.fromOpaque(data).takeUnretainedValue().changes.append(change)
    }

    /// `(table, Z_ENT, Z_PK, property name, value)` for derived attributes with mergeable
    /// storage: Core Data converts the text into its mergeable-string encoding, which is not
    /// documented. NULL stays NULL; any other value fails the statement with a clear message
    /// rather than writing a value Core Data could not read.
    private static let mergeableString: Function = { context, _, arguments in
        guard let value = arguments?[4], sqlite3_value_type(value) != SQLITE_NULL else { return sqlite3_result_null(context) }
        sqlite3_result_error(context, "NSCoreDataDATriggerMergeableString: mergeable string storage is not supported", -1)
    }

    /// `(Z_ENT, property name, …)`: the `ACHANGE.ZCOLUMNS` bit map with the named properties'
    /// bits set for that entity, as Core Data's batch-delete history triggers call it. The map
    /// comes from the connection's ``StoreConnection/setHistoryColumnMask(_:)``; NULL when it has
    /// none or the entity is unknown.
    private static let historyColumnMask: Function = { context, count, arguments in
        guard count >= 1, let data = sqlite3_user_data(context),
            let mask = Unmanaged<FunctionContext>.fromOpaque(data).takeUnretainedValue().historyColumnMask
        else { return sqlite3_result_null(context) }
        let names = (1..<max(Int(count), 1)).compactMap { text(arguments, $0) }
        guard let bytes = mask(integer(arguments, 0), names) else { return sqlite3_result_null(context) }
        resultBlob(context, bytes)
    }

    /// `(mask, …)`: the union (bitwise OR) of the `ZCOLUMNS` bit maps given as blobs, used when
    /// a second change to one row merges into its first; other values are skipped, NULL when none
    /// is a blob.
    private static let historyMaskUnion: Function = { context, count, arguments in
        var union: [UInt8]?
        for index in 0..<Int(max(count, 0)) {
            guard case .blob(let bytes) = value(arguments, index) else { continue }
            var merged = union ?? []
            if merged.count < bytes.count { merged += [UInt8](repeating: 0, count: bytes.count - merged.count) }
            for (offset, byte) in bytes.enumerated() { merged[offset] |= byte }
            union = merged
        }
        guard let union else { return sqlite3_result_null(context) }
        resultBlob(context, union)
    }

    private static func resultBlob(_ context: OpaquePointer?, _ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            sqlite3_result_blob64(context, buffer.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(buffer.count), Statement.transient)
        }
    }

    // MARK: Collations

    typealias CollationFunction = @convention(c) (UnsafeMutableRawPointer?, Int32, UnsafeRawPointer?, Int32, UnsafeRawPointer?) -> Int32

    private static func string(_ pointer: UnsafeRawPointer?, _ count: Int32) -> String {
        guard let pointer, count > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: Int(count)), as: UTF8.self)
    }

    private static let collationFunctions: [CoreDataStringSemantics.Collation: CollationFunction] = [
        .noCase: { _, n1, p1, n2, p2 in CoreDataStringSemantics.Collation.noCase.compare(string(p1, n1), string(p2, n2)) },
        .numericallyNoCase: { _, n1, p1, n2, p2 in
            CoreDataStringSemantics.Collation.numericallyNoCase.compare(string(p1, n1), string(p2, n2))
        },
        .localeSensitive: { _, n1, p1, n2, p2 in
            CoreDataStringSemantics.Collation.localeSensitive.compare(string(p1, n1), string(p2, n2))
        },
        .localeSensitiveNoCase: { _, n1, p1, n2, p2 in
            CoreDataStringSemantics.Collation.localeSensitiveNoCase.compare(string(p1, n1), string(p2, n2))
        },
        .finderlike: { _, n1, p1, n2, p2 in CoreDataStringSemantics.Collation.finderlike.compare(string(p1, n1), string(p2, n2)) },
    ]
}
