import CZip
import FileSystem
import Foundation
import Glibc
import TasksCommon

/// Unpacks a downloaded zip bundle into an empty folder with libzip; every libzip call of this
/// target is in this file.
///
/// Refused, before anything is written outside the folder: entry names that are absolute, hold
/// `..`, a backslash or are empty; symbolic links and any entry whose Unix mode is neither a
/// regular file nor a directory; a total of unpacked bytes over the limit, counted as the bytes
/// are read (the sizes the zip declares are not trusted); and, through libzip's CRC check, a
/// corrupt entry; two entries with one name (named in the refusal). Files are created with
/// `O_EXCL | O_NOFOLLOW`, so nothing unpacked can replace another file.
package enum ZipUnpacker {
    /// A reason for refusing the bundle, with the error code it reports.
    package struct Refusal: Error {
        package let code: TasksErrorCode
        package let reason: String
    }

    /// Unpacks `zip` into `folder`, which exists and is empty.
    /// - Throws: `Refusal`: dataLoss for a file that is not a zip or is corrupt; invalidArgument
    ///   for a bad entry name or type; resourceExhausted over `sizeLimit`.
    package static func unpack(_ zip: URL, into folder: URL, sizeLimit: Int64) throws(Refusal) {
        var errorCode: Int32 = 0
        // +1, ours: discarded below.
        guard let archive = zip_open(zip.path, ZIP_RDONLY | ZIP_CHECKCONS, &errorCode) else {
            if errorCode == ZIP_ER_EXISTS, let name = duplicateName(in: zip) {
                throw Refusal(
                    code: .invalidArgumentError, reason: "the bundle has two entries named \"\(name)\"; each name appears once")
            }
            var error = zip_error_t()
            zip_error_init_with_code(&error, errorCode)
            defer { zip_error_fini(&error) }
            throw Refusal(code: .dataLossError, reason: "the bundle is not a readable zip: libzip: \(message(&error))")
        }
        defer { zip_discard(archive) }
        let count = zip_get_num_entries(archive, 0)
        guard count >= 0 else {
            throw Refusal(code: .dataLossError, reason: "libzip: \(message(zip_get_error(archive)))")
        }
        var budget = sizeLimit
        for index in 0..<UInt64(count) {
            try unpackEntry(archive, index: index, into: folder, budget: &budget, sizeLimit: sizeLimit)
        }
    }

    /// The first entry name that appears twice in `zip`: libzip's consistency check refuses such a
    /// zip without naming the entry, so the zip is opened again without the check to find it.
    private static func duplicateName(in zip: URL) -> String? {
        var errorCode: Int32 = 0
        // +1, ours: discarded below.
        guard let archive = zip_open(zip.path, ZIP_RDONLY, &errorCode) else { return nil }
        defer { zip_discard(archive) }
        var seen: Set<String> = []
        for index in 0..<UInt64(max(0, zip_get_num_entries(archive, 0))) {
            // Borrowed: the name belongs to the archive; copied at once.
            guard let rawName = zip_get_name(archive, index, ZIP_FL_ENC_GUESS) else { continue }
            let name = String(cString: rawName)
            if !seen.insert(name).inserted { return name }
        }
        return nil
    }

    private static func unpackEntry(
        _ archive: OpaquePointer, index: UInt64, into folder: URL, budget: inout Int64, sizeLimit: Int64
    ) throws(Refusal) {
        // Borrowed: the name belongs to the archive; copied at once.
        guard let rawName = zip_get_name(archive, index, ZIP_FL_ENC_GUESS) else {
            throw Refusal(code: .dataLossError, reason: "entry \(index): libzip: \(message(zip_get_error(archive)))")
        }
        let name = String(cString: rawName)
        try checkName(name)
        let isDirectory = name.hasSuffix("/")
        try checkType(archive, index: index, name: name, isDirectory: isDirectory)
        let target = folder.appendingPathComponent(name)
        if isDirectory {
            do {
                try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
            } catch {
                throw Refusal(code: .internalError, reason: "cannot create \(target.path): \(error)")
            }
            return
        }
        try? FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try copyEntry(archive, index: index, name: name, to: target, budget: &budget, sizeLimit: sizeLimit)
    }

    private static func checkName(_ name: String) throws(Refusal) {
        let parts = name.split(separator: "/", omittingEmptySubsequences: false)
        guard !name.isEmpty, !name.hasPrefix("/"), !name.contains("\\"), !name.contains("\0"),
            !parts.contains(".."), !parts.dropLast().contains("")
        else {
            throw Refusal(
                code: .invalidArgumentError,
                reason:
                    "the bundle has an entry named \"\(name)\"; entries must be relative paths inside the bundle (no leading '/', no '..', no backslash)"
            )
        }
    }

    /// Refuses symbolic links and other special files, by the Unix mode in the external attributes.
    private static func checkType(_ archive: OpaquePointer, index: UInt64, name: String, isDirectory: Bool) throws(Refusal) {
        var system: UInt8 = 0
        var attributes: UInt32 = 0
        guard zip_file_get_external_attributes(archive, index, 0, &system, &attributes) == 0 else {
            throw Refusal(code: .dataLossError, reason: "entry \"\(name)\": libzip: \(message(zip_get_error(archive)))")
        }
        guard system == UInt8(ZIP_OPSYS_UNIX) else { return }
        let type = (attributes >> 16) & UInt32(S_IFMT)
        guard type == 0 || type == UInt32(isDirectory ? S_IFDIR : S_IFREG) else {
            let kind = type == UInt32(S_IFLNK) ? "a symbolic link" : String(format: "a special file (mode %o)", attributes >> 16)
            throw Refusal(
                code: .invalidArgumentError,
                reason: "the bundle's entry \"\(name)\" is \(kind); only files and folders are accepted")
        }
    }

    private static func copyEntry(
        _ archive: OpaquePointer, index: UInt64, name: String, to target: URL, budget: inout Int64, sizeLimit: Int64
    ) throws(Refusal) {
        // +1, ours: closed below.
        guard let file = zip_fopen_index(archive, index, 0) else {
            throw Refusal(code: .dataLossError, reason: "entry \"\(name)\": libzip: \(message(zip_get_error(archive)))")
        }
        defer { zip_fclose(file) }
        let descriptor: FileDescriptor
        do throws(Errno) {
            descriptor = try FileDescriptor.open(FileSystemPath(target.path), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW)
        } catch {
            throw Refusal(code: .invalidArgumentError, reason: "cannot create \"\(name)\": \(error)")
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let read = zip_fread(file, &buffer, UInt64(buffer.count))
            if read < 0 {
                throw Refusal(
                    code: .dataLossError, reason: "entry \"\(name)\" is corrupt: libzip: \(message(zip_file_get_error(file)))")
            }
            if read == 0 { return }
            budget -= Int64(read)
            guard budget >= 0 else {
                throw Refusal(
                    code: .resourceExhaustedError,
                    reason:
                        "the bundle unpacks to more than \(sizeLimit) bytes (at entry \"\(name)\"), the limit for unpacked bundles"
                )
            }
            try writeAll(buffer, count: Int(read), to: descriptor, name: name)
        }
    }

    private static func writeAll(_ buffer: [UInt8], count: Int, to file: FileDescriptor, name: String) throws(Refusal) {
        do throws(Errno) {
            try file.write(buffer.prefix(count))
        } catch {
            throw Refusal(code: .internalError, reason: "cannot write \"\(name)\": \(error)")
        }
    }

    /// The text of a libzip error (borrowed: copied at once).
    private static func message(_ error: UnsafeMutablePointer<zip_error_t>) -> String {
        String(cString: zip_error_strerror(error))
    }
}
