/// Builds the database image a reader of a WAL-mode store sees: the main file with every
/// committed frame of its `-wal` file applied, as SQLite's WAL format defines it (a 32-byte
/// header with salts and a cumulative checksum, then 24-byte frame headers each followed by one
/// page; only frames up to the last valid commit frame count). Lets a store be read entirely in
/// memory, without SQLite creating `-shm` files or checkpointing beside the original.
public enum WALReplay {
    public struct FormatError: Error, Equatable, Sendable {
        public let message: String
    }

    public static func image(database: [UInt8], wal: [UInt8]) throws(FormatError) -> [UInt8] {
        var image = database
        guard wal.count >= 32 else { return withLegacyHeader(image) }
        let magic = bigEndian32(wal, 0)
        guard magic == 0x377f_0682 || magic == 0x377f_0683 else { throw FormatError(message: "the -wal file has no WAL header") }
        let bigEndianChecksums = magic == 0x377f_0683
        let pageSize = Int(bigEndian32(wal, 8))
        guard pageSize >= 512, pageSize <= 65536, pageSize & (pageSize - 1) == 0 else {
            throw FormatError(message: "the -wal file has an invalid page size")
        }
        var checksum = Self.checksum(wal[0..<24], seed: (0, 0), bigEndian: bigEndianChecksums)
        guard checksum == (bigEndian32(wal, 24), bigEndian32(wal, 28)) else { return withLegacyHeader(image) }
        let salts = (bigEndian32(wal, 16), bigEndian32(wal, 20))
        // Every page beyond the main file must come from a frame, so a valid image is never
        // larger than the two files together; anything claiming more is corrupt.
        let limit = database.count + wal.count
        var pending: [(page: Int, offset: Int)] = []
        var offset = 32
        var committedPages: Int?
        while offset + 24 + pageSize <= wal.count {
            let pageNumber = Int(bigEndian32(wal, offset))
            let commitSize = Int(bigEndian32(wal, offset + 4))
            guard pageNumber > 0, (bigEndian32(wal, offset + 8), bigEndian32(wal, offset + 12)) == salts else { break }
            checksum = Self.checksum(wal[offset..<offset + 8], seed: checksum, bigEndian: bigEndianChecksums)
            checksum = Self.checksum(wal[offset + 24..<offset + 24 + pageSize], seed: checksum, bigEndian: bigEndianChecksums)
            guard checksum == (bigEndian32(wal, offset + 16), bigEndian32(wal, offset + 20)) else { break }
            pending.append((pageNumber, offset + 24))
            if commitSize != 0 {
                guard commitSize <= limit / pageSize else {
                    throw FormatError(message: "the -wal file claims a store larger than its files")
                }
                try apply(pending, from: wal, pageSize: pageSize, limit: limit, to: &image)
                pending.removeAll()
                committedPages = commitSize
            }
            offset += 24 + pageSize
        }
        if let committedPages {
            let size = committedPages * pageSize
            if image.count > size {
                image.removeLast(image.count - size)
            } else if image.count < size {
                image.append(contentsOf: repeatElement(0, count: size - image.count))
            }
        }
        return withLegacyHeader(image)
    }

    private static func apply(
        _ frames: [(page: Int, offset: Int)], from wal: [UInt8], pageSize: Int, limit: Int, to image: inout [UInt8]
    ) throws(FormatError) {
        for frame in frames {
            guard frame.page <= limit / pageSize else { throw FormatError(message: "the -wal file names a page beyond the store") }
            let start = (frame.page - 1) * pageSize
            if image.count < start + pageSize { image.append(contentsOf: repeatElement(0, count: start + pageSize - image.count)) }
            image.replaceSubrange(start..<start + pageSize, with: wal[frame.offset..<frame.offset + pageSize])
        }
    }

    /// Marks the image as a rollback-journal database (header bytes 18 and 19) so an in-memory
    /// open does not look for a WAL.
    private static func withLegacyHeader(_ image: [UInt8]) -> [UInt8] {
        var image = image
        if image.count >= 100, image[18] == 2, image[19] == 2 {
            image[18] = 1
            image[19] = 1
        }
        return image
    }

    static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    static func checksum(_ bytes: ArraySlice<UInt8>, seed: (UInt32, UInt32), bigEndian: Bool) -> (UInt32, UInt32) {
        var (s0, s1) = seed
        var index = bytes.startIndex
        while index + 8 <= bytes.endIndex {
            let x0 = word(bytes, index, bigEndian)
            let x1 = word(bytes, index + 4, bigEndian)
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            index += 8
        }
        return (s0, s1)
    }

    private static func word(_ bytes: ArraySlice<UInt8>, _ at: Int, _ bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }
}
