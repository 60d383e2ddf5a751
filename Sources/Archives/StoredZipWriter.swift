import CZip
import Foundation
import TasksCommon

/// Writes the zip of associated files that follows a model: every file STORED (uncompressed),
/// offsets absolute from the start of the model file, as the reference metadata writer's
/// Python `zipfile` in append mode writes them.
///
/// Written by hand because libzip (1.7) can neither create an archive after other bytes nor
/// read one whose offsets are relative to its own start; the result is read back with libzip
/// (`ZipArchive`) before the writer returns it. The CRC-32 is zlib's `crc32`.
package enum StoredZipWriter {
    /// The largest file or archive a zip without ZIP64 records holds, in bytes.
    package static let maximumSize = Int(UInt32.max)

    /// The archive for `files`, to be placed at byte `startOffset` of the model file.
    /// - Throws: `TasksError` invalidArgument when a name is empty or longer than 65535 bytes,
    ///   two files share a name, or the archive would pass 4 GiB (no ZIP64 support).
    package static func archive(_ files: [(name: String, contents: Data)], startOffset: Int) throws(TasksError) -> Data {
        var archive = Data()
        var directory = Data()
        var seen: Set<String> = []
        for file in files {
            let name = Array(file.name.utf8)
            guard !name.isEmpty, name.count <= Int(UInt16.max), seen.insert(file.name).inserted else {
                throw .invalidArgument(
                    "Associated file name '\(file.name)' is empty, longer than 65535 bytes or used twice; each file in the model's zip needs its own name."
                )
            }
            let offset = startOffset + archive.count
            guard offset + file.contents.count + 30 + name.count <= maximumSize else {
                throw .invalidArgument("The associated files would end past 4 GiB, where a zip without ZIP64 records ends.")
            }
            let crc = checksum(file.contents)
            let size = UInt32(file.contents.count)
            // Version 2.0, no flags, STORED, DOS time 0:00 and date 1980-01-01 (0x21), as zipfile writes for a fixed date.
            let common = le16(20) + le16(0) + le16(0) + le16(0) + le16(0x21) + le32(crc) + le32(size) + le32(size)
            archive += le32(0x0403_4B50) + common + le16(UInt16(name.count)) + le16(0) + name
            archive += file.contents
            directory += le32(0x0201_4B50) + le16(20) + common + le16(UInt16(name.count)) + le16(0) + le16(0)
            directory += le16(0) + le16(0) + le32(0) + le32(UInt32(offset)) + name
        }
        let directoryOffset = startOffset + archive.count
        guard files.count <= Int(UInt16.max), directoryOffset + directory.count + 22 <= maximumSize else {
            throw .invalidArgument("The associated files would end past 4 GiB or number more than 65535 (no ZIP64 support).")
        }
        archive += directory
        archive += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(files.count)) + le16(UInt16(files.count))
        archive += le32(UInt32(directory.count)) + le32(UInt32(directoryOffset)) + le16(0)
        return archive
    }

    /// zlib's CRC-32 of `data`, fed in chunks that fit its `uInt` length.
    private static func checksum(_ data: Data) -> UInt32 {
        data.withUnsafeBytes { raw in
            var crc: uLong = crc32(0, nil, 0)
            var offset = 0
            while offset < raw.count {
                let length = min(raw.count - offset, 1 << 30)
                crc = crc32(crc, raw.baseAddress!.advanced(by: offset).assumingMemoryBound(to: Bytef.self), uInt(length))
                offset += length
            }
            return UInt32(truncatingIfNeeded: crc)
        }
    }

    private static func le16(_ value: UInt16) -> Data { Data([UInt8(value & 0xFF), UInt8(value >> 8)]) }
    private static func le32(_ value: UInt32) -> Data { Data((0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) }) }

    /// Where the zip appended to `bytes` starts (its first local header), so that a writer
    /// replacing the associated files can drop the old ones; nil when no zip is found.
    ///
    /// Reads the end-of-central-directory record and the central directory (libzip does not
    /// report header offsets). Only archives that libzip opens are passed here.
    package static func archiveStart(in bytes: Data) -> Int? {
        let count = bytes.count
        guard count >= 22 else { return nil }
        let base = bytes.startIndex
        func u16(_ at: Int) -> Int { Int(bytes[base + at]) | Int(bytes[base + at + 1]) << 8 }
        func u32(_ at: Int) -> Int { u16(at) | u16(at + 2) << 16 }
        // The record is 22 bytes plus a comment of at most 65535 bytes, at the very end.
        var record = count - 22
        while record >= max(0, count - 22 - 65535) {
            if u32(record) == 0x0605_4B50, record + 22 + u16(record + 20) == count { break }
            record -= 1
        }
        guard record >= 0, u32(record) == 0x0605_4B50 else { return nil }
        let entries = u16(record + 10)
        var entry = u32(record + 16)
        var start = min(record, u32(record + 16))
        for _ in 0..<entries {
            guard entry + 46 <= count, u32(entry) == 0x0201_4B50 else { return nil }
            start = min(start, u32(entry + 42))
            entry += 46 + u16(entry + 28) + u16(entry + 30) + u16(entry + 32)
        }
        return start
    }
}
