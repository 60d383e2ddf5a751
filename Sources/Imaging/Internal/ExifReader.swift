/// Finds the EXIF `Orientation` tag of a JPEG, PNG or WebP file.
///
/// The EXIF block is a TIFF structure (either byte order); the tag is 0x0112 in IFD0.
/// It is looked for in the JPEG APP1 "Exif\0\0" segment, the PNG `eXIf` chunk and the
/// WebP `EXIF` chunk. Every read is bounds-checked: a damaged block gives nil. The file is
/// borrowed, never copied: blocks are views into it (`Bytes`, indexed from 0).
enum ExifReader {
    /// A file or a block of it, indexed from 0.
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// The EXIF orientation of a file, or nil when it has none or it is invalid.
    static func orientation(in bytes: Bytes, container: ImageContainer) -> ImageOrientation? {
        let tiff: Bytes?
        switch container {
        case .jpeg: tiff = jpegExif(bytes)
        case .png: tiff = pngExif(bytes)
        case .webp: tiff = webpExif(bytes)
        }
        return tiff.flatMap(orientation(inTIFF:))
    }

    /// The TIFF bytes of the first JPEG APP1 segment that starts with "Exif\0\0", looking
    /// at the markers before the first scan.
    static func jpegExif(_ bytes: Bytes) -> Bytes? {
        var index = 2  // after SOI
        while index + 1 < bytes.count {
            guard bytes[index] == 0xFF else { return nil }
            let marker = bytes[index + 1]
            if marker == 0xFF {  // fill byte
                index += 1
                continue
            }
            index += 2
            switch marker {
            case 0xD9, 0xDA:  // EOI, SOS: no more metadata segments
                return nil
            case 0x01, 0xD0...0xD7:  // TEM, RSTn: no length
                continue
            default:
                guard let length = readUInt16(bytes, at: index, bigEndian: true), length >= 2,
                    index + Int(length) <= bytes.count
                else { return nil }
                let segment = Bytes(rebasing: bytes[(index + 2)..<(index + Int(length))])
                if marker == 0xE1, let tiff = strippingExifHeader(segment, required: true) {
                    return tiff
                }
                index += Int(length)
            }
        }
        return nil
    }

    /// The contents of the PNG `eXIf` chunk, if any (searched up to IEND).
    static func pngExif(_ bytes: Bytes) -> Bytes? {
        var index = ImageContainer.pngSignature.count
        while let length = readUInt32(bytes, at: index, bigEndian: true), index + 8 <= bytes.count {
            let type = bytes[(index + 4)..<(index + 8)]
            let dataStart = index + 8
            guard length <= UInt32(Int32.max), dataStart + Int(length) <= bytes.count else { return nil }
            let dataEnd = dataStart + Int(length)
            if type.elementsEqual("eXIf".utf8) {
                return strippingExifHeader(Bytes(rebasing: bytes[dataStart..<dataEnd]), required: false)
            }
            if type.elementsEqual("IEND".utf8) { return nil }
            index = dataEnd + 4  // skip the CRC
        }
        return nil
    }

    /// The contents of the WebP `EXIF` chunk, if any.
    static func webpExif(_ bytes: Bytes) -> Bytes? {
        var index = 12  // after "RIFF", size, "WEBP"
        while index + 8 <= bytes.count, let length = readUInt32(bytes, at: index + 4, bigEndian: false) {
            let dataStart = index + 8
            guard length <= UInt32(Int32.max), dataStart + Int(length) <= bytes.count else { return nil }
            let dataEnd = dataStart + Int(length)
            if bytes[index..<(index + 4)].elementsEqual("EXIF".utf8) {
                return strippingExifHeader(Bytes(rebasing: bytes[dataStart..<dataEnd]), required: false)
            }
            index = dataEnd + Int(length & 1)  // chunks are padded to even sizes
        }
        return nil
    }

    /// Removes a leading "Exif\0\0"; when `required`, returns nil if it is missing.
    static func strippingExifHeader(_ block: Bytes, required: Bool) -> Bytes? {
        let header: [UInt8] = [0x45, 0x78, 0x69, 0x66, 0x00, 0x00]
        if block.starts(with: header) { return Bytes(rebasing: block.dropFirst(header.count)) }
        return required ? nil : block
    }

    /// The orientation in IFD0 of a TIFF structure, or nil when absent or invalid.
    ///
    /// - Parameter tiff: The TIFF block, indexed from 0 (its offsets are relative to its start).
    static func orientation(inTIFF tiff: Bytes) -> ImageOrientation? {
        guard tiff.count >= 8 else { return nil }
        let bigEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): bigEndian = false  // "II"
        case (0x4D, 0x4D): bigEndian = true  // "MM"
        default: return nil
        }
        guard readUInt16(tiff, at: 2, bigEndian: bigEndian) == 42,
            let ifdOffset = readUInt32(tiff, at: 4, bigEndian: bigEndian), ifdOffset <= UInt32(Int32.max),
            let entryCount = readUInt16(tiff, at: Int(ifdOffset), bigEndian: bigEndian)
        else { return nil }
        for entry in 0..<Int(entryCount) {
            let offset = Int(ifdOffset) + 2 + entry * 12
            guard let tag = readUInt16(tiff, at: offset, bigEndian: bigEndian),
                let type = readUInt16(tiff, at: offset + 2, bigEndian: bigEndian),
                let count = readUInt32(tiff, at: offset + 4, bigEndian: bigEndian)
            else { return nil }
            guard tag == 0x0112 else { continue }
            guard count >= 1 else { return nil }
            let value: Int?
            switch type {
            case 3: value = readUInt16(tiff, at: offset + 8, bigEndian: bigEndian).map(Int.init)  // SHORT
            case 4: value = readUInt32(tiff, at: offset + 8, bigEndian: bigEndian).map(Int.init)  // LONG
            default: value = nil
            }
            return value.flatMap(ImageOrientation.init(exifOrientation:))
        }
        return nil
    }

    /// A 16-bit integer at `offset`, or nil out of bounds.
    static func readUInt16(_ bytes: Bytes, at offset: Int, bigEndian: Bool) -> UInt16? {
        guard offset >= 0, offset <= bytes.count - 2 else { return nil }
        let first = UInt16(bytes[offset]), second = UInt16(bytes[offset + 1])
        return bigEndian ? first << 8 | second : second << 8 | first
    }

    /// A 32-bit integer at `offset`, or nil out of bounds.
    static func readUInt32(_ bytes: Bytes, at offset: Int, bigEndian: Bool) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        var value: UInt32 = 0
        for index in 0..<4 {
            let byte = UInt32(bytes[offset + (bigEndian ? index : 3 - index)])
            value = value << 8 | byte
        }
        return value
    }
}
