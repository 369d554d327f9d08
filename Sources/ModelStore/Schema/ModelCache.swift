import CZlib
import ModelSchema

/// `Z_MODELCACHE.Z_CONTENT`: the model that wrote the store, as a keyed archive compressed with
/// raw DEFLATE (no zlib header), as in every fixture store. The archive is the version's `.mom`.
public enum ModelCache {
    public struct CompressionError: Error, Equatable, Sendable {
        public let message: String
    }

    public static func encode(_ version: ModelVersion) throws(CompressionError) -> [UInt8] {
        try deflate(CompiledModel.mom(for: version))
    }

    /// Raw DEFLATE at the default level.
    public static func deflate(_ bytes: [UInt8]) throws(CompressionError) -> [UInt8] {
        var stream = z_stream()
        guard
            deflateInit2_(
                &stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, -15, 8, Z_DEFAULT_STRATEGY, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
                == Z_OK
        else { throw CompressionError(message: "cannot initialise zlib") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, UInt(bytes.count))) + 16)
        var input = bytes
        let result = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { destination in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = destination.baseAddress
                stream.avail_out = UInt32(destination.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { throw CompressionError(message: "zlib could not compress the model") }
        return Array(output.prefix(Int(stream.total_out)))
    }

    /// Inflates raw DEFLATE data, refusing output larger than `limit` bytes.
    public static func inflate(_ bytes: [UInt8], limit: Int = 64 << 20) throws(CompressionError) -> [UInt8] {
        var stream = z_stream()
        guard inflateInit2_(&stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            throw CompressionError(message: "cannot initialise zlib")
        }
        defer { inflateEnd(&stream) }
        var input = bytes
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            while status == Z_OK, output.count <= limit {
                chunk.withUnsafeMutableBufferPointer { destination in
                    stream.next_out = destination.baseAddress
                    stream.avail_out = UInt32(destination.count)
                    status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    output.append(contentsOf: destination.prefix(destination.count - Int(stream.avail_out)))
                }
                if status == Z_OK, stream.avail_in == 0, stream.avail_out != 0 { break }
            }
        }
        guard status == Z_STREAM_END, output.count <= limit else {
            throw CompressionError(message: "the model cache is not valid raw DEFLATE data")
        }
        return output
    }
}
