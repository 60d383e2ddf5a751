/// Writes PNG files for tests without an encoder library: one IDAT of stored (uncompressed)
/// deflate blocks, no interlace, filter 0 on every row. Enough to make exact 16-bit pictures.
public enum PNGWriter {
    /// The bytes of a PNG file.
    /// - Parameters:
    ///   - width: pixels per row.
    ///   - height: rows.
    ///   - bitDepth: 8 or 16 (16-bit samples big-endian, as PNG stores them).
    ///   - colorType: 0 gray, 2 RGB, 4 gray + alpha, 6 RGBA.
    ///   - rows: `height` rows of raw samples, without the filter byte.
    public static func png(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]]) -> [UInt8] {
        let header = be32(UInt32(width)) + be32(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        let raw: [UInt8] = rows.flatMap { row -> [UInt8] in [0] + row }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", header) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(CRC32.checksum(body))
    }

    /// A zlib stream of stored blocks (at most 65,535 bytes each) and its Adler-32.
    private static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(start + 65_535, data.count)
            let length = UInt16(end - start)
            out += [
                end == data.count ? 1 : 0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8),
            ]
            out += data[start..<end]
            start = end
        } while start < data.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + be32(b << 16 | a)
    }

    private static func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (24 - 8 * $0)) & 0xFF) } }
}

/// The CRC-32 of zip and PNG (polynomial 0xEDB88320, bit by bit: test data is small).
public enum CRC32 {
    public static func checksum(_ bytes: some Sequence<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}

/// FNV-1a, 64 bits: the fingerprint reference scripts print for tensors and files.
public func fnv1a64(_ bytes: some Sequence<UInt8>) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
}
