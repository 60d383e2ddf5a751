import Foundation

/// Collects the parts of a `multipart/form-data` body from libmicrohttpd's post processor,
/// which reports each part in pieces, each with its offset in the part.
struct FormFiles {
    private(set) var files: [FormFile] = []
    /// Whether the last piece was an empty one at offset 0: the post processor reports a part
    /// whose data has not arrived yet that way (when a read ends right after the part's
    /// headers), then reports its first bytes at offset 0 again; that is the same part.
    private var pendingEmptyStart = false

    /// Adds a piece of the part named `field` (file name `filename`) at `offset` in the part.
    mutating func receive(field: String, filename: String?, offset: UInt64, bytes: UnsafeRawBufferPointer) {
        let continuesLast = files.last.map { $0.field == field && $0.filename == filename } ?? false
        if !continuesLast || (offset == 0 && !pendingEmptyStart) {
            files.append(FormFile(field: field, filename: filename, data: Data()))
        }
        pendingEmptyStart = offset == 0 && bytes.isEmpty
        files[files.count - 1].data.append(contentsOf: bytes)
    }

    /// Drops the parts received (the body is refused).
    mutating func removeAll() {
        files = []
        pendingEmptyStart = false
    }
}
