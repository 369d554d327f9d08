import Foundation

/// A property list value, including the UID references of keyed archives. Dictionaries keep
/// their keys in the order given, so encoding is byte-for-byte deterministic.
public indirect enum PropertyList: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
    case data([UInt8])
    case date(Double)
    case array([PropertyList])
    case dictionary([(key: String, value: PropertyList)])
    case uid(UInt64)

    public static func == (lhs: PropertyList, rhs: PropertyList) -> Bool {
        switch (lhs, rhs) {
        case (.string(let a), .string(let b)): a == b
        case (.integer(let a), .integer(let b)): a == b
        case (.real(let a), .real(let b)): a == b || (a.isNaN && b.isNaN)
        case (.boolean(let a), .boolean(let b)): a == b
        case (.data(let a), .data(let b)): a == b
        case (.date(let a), .date(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.dictionary(let a), .dictionary(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.uid(let a), .uid(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let value): hasher.combine(value)
        case .integer(let value): hasher.combine(value)
        case .real(let value): hasher.combine(value)
        case .boolean(let value): hasher.combine(value)
        case .data(let value): hasher.combine(value)
        case .date(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .dictionary(let value):
            for (key, item) in value {
                hasher.combine(key)
                hasher.combine(item)
            }
        case .uid(let value): hasher.combine(value)
        }
    }

    public subscript(_ key: String) -> PropertyList? {
        if case .dictionary(let members) = self { return members.first { $0.key == key }?.value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}

/// Apple's binary property list format (`bplist00`).
public enum BinaryPropertyList {
    public struct FormatError: Error, Equatable, Sendable {
        public let message: String
    }

    // MARK: Encoding

    /// Encodes `root`. Equal values (other than dictionaries and arrays) are stored once, as
    /// Apple's encoder does; the output depends only on the value.
    public static func encode(_ root: PropertyList) -> [UInt8] {
        var writer = Writer()
        _ = writer.flatten(root)
        return writer.finish()
    }

    private struct Writer {
        var objects: [[UInt8]] = []
        var uniqueScalars: [PropertyList: Int] = [:]
        var pending: [(index: Int, value: PropertyList)] = []
        var references: [[Int]] = []

        /// Assigns object numbers depth-first; collections record the numbers of their members.
        mutating func flatten(_ value: PropertyList) -> Int {
            switch value {
            case .array, .dictionary: break
            default:
                if let known = uniqueScalars[value] { return known }
            }
            let index = objects.count
            objects.append([])
            references.append([])
            switch value {
            case .array(let items):
                references[index] = items.map { flatten($0) }
            case .dictionary(let members):
                let keys = members.map { flatten(.string($0.key)) }
                let values = members.map { flatten($0.value) }
                references[index] = keys + values
            default:
                uniqueScalars[value] = index
            }
            pending.append((index, value))
            return index
        }

        mutating func finish() -> [UInt8] {
            let referenceSize = Self.byteCount(UInt64(objects.count))
            for (index, value) in pending { objects[index] = Self.body(of: value, references: references[index], size: referenceSize) }
            var output = Array("bplist00".utf8)
            var offsets: [UInt64] = []
            for object in objects {
                offsets.append(UInt64(output.count))
                output += object
            }
            let offsetTableStart = UInt64(output.count)
            let offsetSize = Self.byteCount(offsetTableStart)
            for offset in offsets { output += Self.bigEndian(offset, size: offsetSize) }
            output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
            output += Self.bigEndian(UInt64(objects.count), size: 8)
            output += Self.bigEndian(0, size: 8)
            output += Self.bigEndian(offsetTableStart, size: 8)
            return output
        }

        static func byteCount(_ value: UInt64) -> Int {
            value < 1 << 8 ? 1 : value < 1 << 16 ? 2 : value < 1 << 32 ? 4 : 8
        }

        static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
            (0..<size).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
        }

        static func marker(_ type: UInt8, count: Int) -> [UInt8] {
            if count < 15 { return [type << 4 | UInt8(count)] }
            return [type << 4 | 0x0F] + integer(Int64(count))
        }

        static func integer(_ value: Int64) -> [UInt8] {
            if value < 0 { return [0x13] + bigEndian(UInt64(bitPattern: value), size: 8) }
            let size = byteCount(UInt64(value))
            let power: UInt8 = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : 3
            return [0x10 | power] + bigEndian(UInt64(value), size: size)
        }

        static func body(of value: PropertyList, references: [Int], size: Int) -> [UInt8] {
            let refs = references.flatMap { bigEndian(UInt64($0), size: size) }
            switch value {
            case .boolean(let flag): return [flag ? 0x09 : 0x08]
            case .integer(let number): return integer(number)
            case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
            case .date(let seconds): return [0x33] + bigEndian(seconds.bitPattern, size: 8)
            case .data(let bytes): return marker(0x4, count: bytes.count) + bytes
            case .string(let text):
                if text.utf8.allSatisfy({ $0 < 0x80 }) { return marker(0x5, count: text.utf8.count) + Array(text.utf8) }
                let units = Array(text.utf16)
                return marker(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            case .uid(let number):
                let bytes = bigEndian(number, size: byteCount(number))
                return [0x80 | UInt8(bytes.count - 1)] + bytes
            case .array(let items): return marker(0xA, count: items.count) + refs
            case .dictionary(let members): return marker(0xD, count: members.count) + refs
            }
        }
    }

    // MARK: Decoding

    /// Decodes untrusted bytes. Every offset, count and size is bounds-checked, so corrupt input
    /// throws instead of trapping. As Core Foundation does, an object referenced from several
    /// places is decoded once and shared, so decoding is linear in the file; a reference cycle is
    /// an error. Because the decoded value is a tree, shared objects still count once per place
    /// they appear: the expanded value may hold at most ``expansionLimit(forFileSize:)`` units (one
    /// per value plus one per byte of string or data), so a file of a few hundred bytes whose
    /// objects reference each other exponentially is rejected instead of exhausting memory in
    /// whatever walks the result.
    public static func decode(_ bytes: [UInt8]) throws(FormatError) -> PropertyList {
        guard bytes.count >= 40, bytes.starts(with: Array("bplist00".utf8)) else {
            throw FormatError(message: "not a binary property list")
        }
        let trailer = Array(bytes[(bytes.count - 32)...])
        let offsetSize = Int(trailer[6])
        let referenceSize = Int(trailer[7])
        let count = Int(clamping: read(trailer, 8, 8))
        let top = Int(clamping: read(trailer, 16, 8))
        let tableStart = Int(clamping: read(trailer, 24, 8))
        // Every bound is checked with divisions, so no corrupt count or size can overflow.
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count < bytes.count, top < count,
            tableStart >= 8, tableStart <= bytes.count - 32, (bytes.count - 32 - tableStart) / offsetSize >= count
        else { throw FormatError(message: "corrupt trailer") }
        var reader = Reader(
            bytes: bytes, offsetSize: offsetSize, referenceSize: referenceSize, count: count, tableStart: tableStart,
            limit: expansionLimit(forFileSize: bytes.count))
        return try reader.object(top, depth: 0)
    }

    /// How large (in values plus string and data bytes) the decoded tree of a file may grow: far
    /// more than any file Apple's encoder or this one writes (they share only strings, numbers
    /// and other scalars, so their trees are about as large as the file), yet linear in it.
    public static func expansionLimit(forFileSize size: Int) -> Int {
        max(1 << 20, size.multipliedReportingOverflow(by: 64).overflow ? Int.max : size * 64)
    }

    static func read(_ bytes: [UInt8], _ start: Int, _ size: Int) -> UInt64 {
        var value: UInt64 = 0
        for index in start..<(start + size) { value = value << 8 | UInt64(bytes[index]) }
        return value
    }

    private struct Reader {
        let bytes: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let count: Int
        let tableStart: Int
        let limit: Int
        /// Objects decoded so far with their expanded size, by object number.
        var decoded: [Int: (value: PropertyList, size: Int)] = [:]
        /// Object numbers being decoded: meeting one again is a reference cycle.
        var inProgress: Set<Int> = []

        init(bytes: [UInt8], offsetSize: Int, referenceSize: Int, count: Int, tableStart: Int, limit: Int) {
            self.bytes = bytes
            self.offsetSize = offsetSize
            self.referenceSize = referenceSize
            self.count = count
            self.tableStart = tableStart
            self.limit = limit
        }

        func offset(of object: Int) throws(FormatError) -> Int {
            guard object >= 0, object < count else { throw FormatError(message: "object reference out of range") }
            let offset = Int(clamping: BinaryPropertyList.read(bytes, tableStart + object * offsetSize, offsetSize))
            guard offset >= 8, offset < tableStart else { throw FormatError(message: "object offset out of range") }
            return offset
        }

        func take(_ start: Int, _ length: Int) throws(FormatError) -> [UInt8] {
            guard length >= 0, start >= 0, start <= tableStart, length <= tableStart - start else {
                throw FormatError(message: "object runs past the data")
            }
            return Array(bytes[start..<(start + length)])
        }

        /// The length of a sized object and where its content starts.
        func length(at offset: Int, marker: UInt8) throws(FormatError) -> (Int, Int) {
            let low = Int(marker & 0x0F)
            if low != 0x0F { return (low, offset + 1) }
            let intMarker = try take(offset + 1, 1)[0]
            guard intMarker & 0xF0 == 0x10 else { throw FormatError(message: "bad length") }
            let size = 1 << Int(intMarker & 0x0F)
            guard size <= 8 else { throw FormatError(message: "bad length") }
            let value = BinaryPropertyList.read(try take(offset + 2, size), 0, size)
            guard value < UInt64(bytes.count) else { throw FormatError(message: "length past the data") }
            return (Int(value), offset + 2 + size)
        }

        /// The object with this number, decoded once however often it is referenced.
        mutating func object(_ index: Int, depth: Int) throws(FormatError) -> PropertyList {
            try sizedObject(index, depth: depth).value
        }

        private mutating func sizedObject(_ index: Int, depth: Int) throws(FormatError) -> (value: PropertyList, size: Int) {
            if let known = decoded[index] { return known }
            guard depth < 512 else { throw FormatError(message: "nested too deeply") }
            guard inProgress.insert(index).inserted else { throw FormatError(message: "reference cycle") }
            let result = try decodeObject(index, depth: depth)
            inProgress.remove(index)
            guard result.size <= limit else {
                throw FormatError(message: "objects reference each other too often: the value would be too large")
            }
            decoded[index] = result
            return result
        }

        /// Adds expanded sizes without overflowing; anything past the limit is as bad as the limit.
        private func add(_ total: inout Int, _ size: Int) {
            total = total > limit - size ? limit + 1 : total + size
        }

        private mutating func decodeObject(_ index: Int, depth: Int) throws(FormatError) -> (value: PropertyList, size: Int) {
            let offset = try offset(of: index)
            let marker = bytes[offset]
            switch marker >> 4 {
            case 0x0:
                switch marker {
                case 0x08: return (.boolean(false), 1)
                case 0x09: return (.boolean(true), 1)
                default: throw FormatError(message: "unsupported marker")
                }
            case 0x1:
                let size = 1 << Int(marker & 0x0F)
                guard size <= 8 else { throw FormatError(message: "bad integer") }
                let raw = BinaryPropertyList.read(try take(offset + 1, size), 0, size)
                return (.integer(size == 8 ? Int64(bitPattern: raw) : Int64(raw)), 1)
            case 0x2:
                let size = 1 << Int(marker & 0x0F)
                guard size == 4 || size == 8 else { throw FormatError(message: "bad real") }
                let raw = BinaryPropertyList.read(try take(offset + 1, size), 0, size)
                if size == 4 { return (.real(Double(Float(bitPattern: UInt32(truncatingIfNeeded: raw)))), 1) }
                return (.real(Double(bitPattern: raw)), 1)
            case 0x3:
                return (.date(Double(bitPattern: BinaryPropertyList.read(try take(offset + 1, 8), 0, 8))), 1)
            case 0x4:
                let (length, start) = try length(at: offset, marker: marker)
                return (.data(try take(start, length)), 1 + length)
            case 0x5:
                let (length, start) = try length(at: offset, marker: marker)
                return (.string(String(decoding: try take(start, length), as: UTF8.self)), 1 + length)
            case 0x6:
                let (length, start) = try length(at: offset, marker: marker)
                let raw = try take(start, length * 2)
                let units = stride(from: 0, to: raw.count, by: 2).map { UInt16(raw[$0]) << 8 | UInt16(raw[$0 + 1]) }
                return (.string(String(decoding: units, as: UTF16.self)), 1 + raw.count)
            case 0x8:
                // Core Foundation reads up to 16 bytes but rejects values past 32 bits.
                let size = Int(marker & 0x0F) + 1
                let raw = try take(offset + 1, size)
                guard raw.dropLast(4).allSatisfy({ $0 == 0 }) else { throw FormatError(message: "UID out of range") }
                return (.uid(BinaryPropertyList.read(raw, max(0, size - 4), min(size, 4))), 1)
            case 0xA:
                let (length, start) = try length(at: offset, marker: marker)
                let refs = try references(start, length)
                var items: [PropertyList] = []
                items.reserveCapacity(refs.count)
                var total = 1
                for ref in refs {
                    let (item, size) = try sizedObject(ref, depth: depth + 1)
                    add(&total, size)
                    guard total <= limit else {
                        throw FormatError(message: "objects reference each other too often: the value would be too large")
                    }
                    items.append(item)
                }
                return (.array(items), total)
            case 0xD:
                let (length, start) = try length(at: offset, marker: marker)
                let refs = try references(start, length * 2)
                var members: [(key: String, value: PropertyList)] = []
                members.reserveCapacity(length)
                var total = 1
                for index in 0..<length {
                    let (key, keySize) = try sizedObject(refs[index], depth: depth + 1)
                    guard case .string(let name) = key else { throw FormatError(message: "dictionary key is not a string") }
                    let (value, valueSize) = try sizedObject(refs[length + index], depth: depth + 1)
                    add(&total, keySize)
                    add(&total, valueSize)
                    guard total <= limit else {
                        throw FormatError(message: "objects reference each other too often: the value would be too large")
                    }
                    members.append((name, value))
                }
                return (.dictionary(members), total)
            default:
                throw FormatError(message: "unsupported object type \(marker >> 4)")
            }
        }

        func references(_ start: Int, _ count: Int) throws(FormatError) -> [Int] {
            let raw = try take(start, count * referenceSize)
            return (0..<count).map { Int(clamping: BinaryPropertyList.read(raw, $0 * referenceSize, referenceSize)) }
        }
    }
}

extension PropertyList {
    /// The value as Foundation objects (`[String: Any]`, `[Any]`, `String`, `Int`, `Double`,
    /// `Bool`, `Data`, `Date`; UIDs as `Int`, or `UInt64` past `Int.max`).
    public var foundationObject: Any {
        switch self {
        case .string(let text): text
        case .integer(let number): Int(number)
        case .real(let number): number
        case .boolean(let flag): flag
        case .data(let bytes): Data(bytes)
        case .date(let seconds): Date(timeIntervalSinceReferenceDate: seconds)
        case .array(let items): items.map(\.foundationObject)
        case .dictionary(let members): Dictionary(members.map { ($0.key, $0.value.foundationObject) }) { first, _ in first }
        case .uid(let number): Int(exactly: number).map { $0 as Any } ?? number
        }
    }

    /// Reads a property list from untrusted bytes: binary ones with the bounds-checked decoder
    /// here, XML ones with Foundation. Nil when the bytes are neither.
    public static func foundationObject(from data: Data) -> Any? {
        let bytes = [UInt8](data)
        if bytes.starts(with: Array("bplist".utf8)) {
            return (try? BinaryPropertyList.decode(bytes))?.foundationObject
        }
        return try? PropertyListSerialization.propertyList(from: data, format: nil)
    }
}
