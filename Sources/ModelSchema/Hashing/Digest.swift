#if canImport(CryptoKit)
import CryptoKit
#else
import CCrypto
#endif

/// SHA-2 digests from a maintained implementation: CryptoKit on Apple platforms, OpenSSL's
/// libcrypto elsewhere. Core Data's version hashes are SHA-256; store digests are SHA-512.
public enum Digest {
    public static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(SHA256.hash(data: bytes))
        #else
        return evpDigest(bytes, EVP_sha256(), length: 32)
        #endif
    }

    public static func sha512(_ bytes: [UInt8]) -> [UInt8] {
        #if canImport(CryptoKit)
        return Array(SHA512.hash(data: bytes))
        #else
        return evpDigest(bytes, EVP_sha512(), length: 64)
        #endif
    }

    #if !canImport(CryptoKit)
    private static func evpDigest(_ bytes: [UInt8], _ algorithm: OpaquePointer?, length: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: length)
        var size: UInt32 = 0
        let status = bytes.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { buffer in
                EVP_Digest(input.baseAddress, input.count, buffer.baseAddress, &size, algorithm, nil)
            }
        }
        // EVP_Digest fails only when the library cannot allocate a context; nothing sensible
        // can continue without a hash function.
        precondition(status == 1 && Int(size) == length, "libcrypto could not compute a digest")
        return output
    }
    #endif
}
