import Foundation
import TestSupport

/// Writes small zip archives by hand, for tests of the associated-files reader.
enum ZipWriter {
    /// How an entry is stored.
    enum Method {
        /// STORED (method 0), as the TFLite metadata writer does.
        case stored
        /// DEFLATE (method 8), encoded as one uncompressed deflate block (valid deflate data).
        case deflated
    }

    /// One entry; `declaredSize` overrides the sizes written in the headers (to cut data),
    /// `centralHeaderOffset` the local header offset written in the central directory.
    struct Entry {
        var name: String
        var data: [UInt8]
        var method: Method = .stored
        var declaredSize: UInt32? = nil
        var centralHeaderOffset: UInt32? = nil
    }

    /// A zip to append after `prefixLength` bytes: offsets are absolute, as Python's
    /// `zipfile` writes in append mode.
    static func archive(_ entries: [Entry], prefixLength: Int = 0) -> [UInt8] {
        var out: [UInt8] = []
        var central: [UInt8] = []
        for entry in entries {
            let payload: [UInt8]
            let method: UInt16
            switch entry.method {
            case .stored:
                payload = entry.data
                method = 0
            case .deflated:
                let length = UInt16(entry.data.count)
                payload = [0x01] + le16(length) + le16(~length) + entry.data
                method = 8
            }
            let crc = CRC32.checksum(entry.data)
            let compressedSize = entry.declaredSize ?? UInt32(payload.count)
            let size = entry.declaredSize ?? UInt32(entry.data.count)
            let name = Array(entry.name.utf8)
            let headerOffset = UInt32(prefixLength + out.count)
            out += le32(0x0403_4B50) + le16(20) + le16(0) + le16(method) + le16(0) + le16(0x21)
            out += le32(crc) + le32(compressedSize) + le32(size) + le16(UInt16(name.count)) + le16(0) + name + payload
            central += le32(0x0201_4B50) + le16(20) + le16(20) + le16(0) + le16(method) + le16(0) + le16(0x21)
            central += le32(crc) + le32(compressedSize) + le32(size) + le16(UInt16(name.count)) + le16(0) + le16(0)
            central += le16(0) + le16(0) + le32(0) + le32(entry.centralHeaderOffset ?? headerOffset) + name
        }
        let centralOffset = UInt32(prefixLength + out.count)
        out += central
        out += le32(0x0605_4B50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
        out += le32(UInt32(central.count)) + le32(centralOffset) + le16(0)
        return out
    }

    static func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8)] }
    static func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xFF) } }

}
