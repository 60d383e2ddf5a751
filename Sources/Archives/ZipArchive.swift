import CZip
import Foundation
import TasksCommon

/// Reads the zip of associated files appended to a model, with libzip, from memory.
///
/// Every libzip call of this target is in this file. The archive is opened over the
/// caller's bytes without copying them (`zip_source_buffer_create` with `freep` 0: libzip
/// borrows the bytes and never frees them), every file is copied out, and the archive is
/// discarded before the bytes' scope ends, so no libzip object outlives the bytes.
package enum ZipArchive {
    /// What reading the bytes as a zip found.
    package enum Contents: Sendable {
        /// libzip could not open the bytes as a zip (no end-of-central-directory record, or
        /// an inconsistent one): MediaPipe treats this as a model without associated files.
        case noArchive(reason: String)
        /// The files, by name, and the names in central-directory order.
        case files([String: Data], names: [String])
        /// The zip opened but a file is compressed or cannot be read (MediaPipe fails then).
        case unreadable(TasksError)
    }

    /// Opens `bytes` as a zip and copies out every file, which must be STORED.
    ///
    /// The zip's offsets are absolute offsets in `bytes` (the TFLite metadata writer appends
    /// the zip to the model with Python's `zipfile` in append mode), so the whole model is
    /// given to libzip, which finds the archive from its end.
    package static func read(_ bytes: Data) -> Contents {
        guard !bytes.isEmpty else { return .noArchive(reason: "the data is empty") }
        return bytes.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Contents in
            var error = zip_error_t()
            zip_error_init(&error)
            defer { zip_error_fini(&error) }

            // +1, ours until zip_open_from_source succeeds. Borrows `raw` (freep = 0).
            guard let source = zip_source_buffer_create(raw.baseAddress, UInt64(raw.count), 0, &error) else {
                return .noArchive(reason: "libzip: \(message(&error))")
            }
            // On success the archive owns `source`; on failure `source` is still ours.
            guard let archive = zip_open_from_source(source, ZIP_RDONLY, &error) else {
                zip_source_free(source)
                return .noArchive(reason: "libzip: \(message(&error))")
            }
            // Frees the archive and its source; runs before `raw` goes out of scope.
            defer { zip_discard(archive) }
            return readFiles(archive, byteCount: raw.count)
        }
    }

    /// Copies out every entry of an open archive.
    private static func readFiles(_ archive: OpaquePointer, byteCount: Int) -> Contents {
        let entryCount = zip_get_num_entries(archive, 0)
        guard entryCount >= 0 else {
            return .unreadable(
                TasksError(.unknownError, "Unable to get zip archive info. libzip: \(message(zip_get_error(archive)))"))
        }
        var files: [String: Data] = [:]
        var names: [String] = []
        for index in 0..<UInt64(entryCount) {
            var stat = zip_stat_t()
            zip_stat_init(&stat)
            guard zip_stat_index(archive, index, 0, &stat) == 0 else {
                return .unreadable(
                    TasksError(
                        .unknownError,
                        "Unable to read the file in zip archive. Entry \(index): libzip: \(message(zip_get_error(archive)))"))
            }
            // Borrowed: the name belongs to the archive; copied at once.
            let name = stat.name.map { String(cString: $0) } ?? ""
            switch readFile(archive, index: index, stat: stat, name: name, byteCount: byteCount) {
            case .success(let data):
                if files.updateValue(data, forKey: name) == nil { names.append(name) }
            case .failure(let error):
                return .unreadable(error)
            }
        }
        return .files(files, names: names)
    }

    /// Reads entry `index`, which must be STORED, and checks its size (libzip checks its CRC).
    private static func readFile(
        _ archive: OpaquePointer, index: UInt64, stat: zip_stat_t, name: String, byteCount: Int
    ) -> Result<Data, TasksError> {
        guard stat.valid & UInt64(ZIP_STAT_COMP_METHOD) != 0, stat.valid & UInt64(ZIP_STAT_SIZE) != 0 else {
            return .failure(
                TasksError(.unknownError, "Unable to read the file in zip archive. '\(name)' has no size or compression method."))
        }
        guard stat.comp_method == ZIP_CM_STORE else {
            return .failure(
                TasksError(
                    .unknownError,
                    "Expected uncompressed zip archive. Associated file '\(name)' is compressed (zip compression method \(stat.comp_method)); the metadata writer stores files uncompressed."
                ))
        }
        // A STORED file cannot be larger than the bytes that hold it.
        guard stat.size <= UInt64(byteCount) else {
            return .failure(
                TasksError(
                    .unknownError,
                    "Unable to read the file in zip archive. '\(name)' claims \(stat.size) bytes, more than the \(byteCount)-byte model."
                ))
        }
        // +1, ours: closed below.
        guard let file = zip_fopen_index(archive, index, 0) else {
            return .failure(
                TasksError(
                    .unknownError, "Unable to read the file in zip archive. '\(name)': libzip: \(message(zip_get_error(archive)))"
                ))
        }
        defer { zip_fclose(file) }

        let size = Int(stat.size)
        var data = Data(count: size)
        var total = 0
        let failure: String? = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> String? in
            while total < size {
                // buffer.baseAddress is non-nil because size > 0 here.
                let read = zip_fread(file, buffer.baseAddress! + total, UInt64(size - total))
                if read < 0 { return "libzip: \(message(zip_file_get_error(file)))" }
                if read == 0 { return "the data ends after \(total) of \(size) bytes" }
                total += Int(read)
            }
            // Read once more to reach the end, where libzip checks the CRC.
            var extra: UInt8 = 0
            let read = zip_fread(file, &extra, 1)
            if read < 0 { return "libzip: \(message(zip_file_get_error(file)))" }
            if read > 0 { return "the data is longer than its \(size)-byte size" }
            return nil
        }
        if let failure {
            return .failure(TasksError(.unknownError, "Unable to read the file in zip archive. '\(name)': \(failure)"))
        }
        return .success(data)
    }

    /// The text of a libzip error (borrowed: copied at once).
    private static func message(_ error: UnsafeMutablePointer<zip_error_t>) -> String {
        String(cString: zip_error_strerror(error))
    }
}
