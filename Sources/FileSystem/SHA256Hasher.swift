import CCrypto
import Foundation
import Glibc
import TasksCommon

/// SHA-256 computed incrementally with OpenSSL's libcrypto (`EVP_sha256`).
///
/// libcrypto rather than our own code: hashing is outside the product's core, and OpenSSL's
/// implementation is maintained, validated and uses the CPU's SHA extensions. (Foundation has
/// no SHA-256 on Linux, swift-crypto is not a dependency of this package, and libzip has no hash API.)
/// Not `Sendable`: one owner feeds it.
package final class SHA256Hasher {
    // +1, ours: freed in deinit.
    private let context: OpaquePointer

    package init() {
        // Allocation failure here means the process is out of memory.
        guard let context = EVP_MD_CTX_new() else { fatalError("EVP_MD_CTX_new failed: out of memory") }
        self.context = context
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
    }

    deinit { EVP_MD_CTX_free(context) }

    /// Adds `bytes` to the hashed data.
    package func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        EVP_DigestUpdate(context, base, bytes.count)
    }

    /// Adds `data` to the hashed data.
    package func update(_ data: Data) {
        data.withUnsafeBytes { update($0) }
    }

    /// The digest of everything added, as 64 lowercase hexadecimal digits. Call once.
    package func finalize() -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }

    /// The SHA-256 of the file at `url` (a symbolic link is followed), read in 1 MiB pieces.
    /// - Throws: `TasksError` naming the file when it cannot be read (`FileOperation.read`).
    package static func hexDigest(ofFileAt url: URL) throws(TasksError) -> String {
        try digest(ofFileAt: url).sha256
    }

    /// The SHA-256 and byte count of the file at `url` (a symbolic link is followed), from one
    /// read, so the two describe the same bytes.
    /// - Throws: `TasksError` naming the file when it cannot be read.
    package static func digest(ofFileAt url: URL) throws(TasksError) -> (sha256: String, byteCount: Int64) {
        let path = FileSystemPath(url.path)
        return try path.failing(as: kind) { () throws(Errno) in
            let file = try FileDescriptor.open(path, O_RDONLY)
            let hasher = SHA256Hasher()
            var byteCount: Int64 = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let count = try file.read(into: &chunk)
                if count == 0 { break }
                chunk.withUnsafeBytes { hasher.update(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
                byteCount += Int64(count)
            }
            return (hasher.finalize(), byteCount)
        }
    }

    private static let kind = FileKind(noun: "file", maximumByteCount: .max)
}
