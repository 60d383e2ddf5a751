import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

/// Truncated and corrupt JPEGs: an error naming the file, never another picture (the warning
/// policy of jpeg_codec.c), and libjpeg's memory bounded.
@Suite("JPEG: truncation and corruption", .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct CorruptJPEGTests {
    /// The tester's case: cats_and_dogs.jpg (progressive) cut where its second scan starts
    /// decoded as the first scan's coarse picture.
    @Test("a progressive JPEG cut between scans is an error")
    func progressiveCutBetweenScans() throws {
        let data = try TestData.bytes("images/cats_and_dogs.jpg")
        #expect(Self.segmentOffsets(data).contains(7282), "7282 starts a segment (the second scan's SOS)")
        expectTasksError(.invalidArgumentError, containing: ["cut.jpg: Failed to decode image", "Premature end of JPEG file"]) {
            _ = try ImageDecoder.decode(data.prefix(7282), source: "cut.jpg")
        }
    }

    @Test(
        "a progressive JPEG cut anywhere is an error, at every segment boundary too",
        arguments: ["cats_and_dogs.jpg", "multi_objects.jpg"])
    func progressiveCutAnywhere(file: String) throws {
        let data = try TestData.bytes("images/\(file)")
        let firstScan = try #require(Self.segmentOffsets(data).first { data[$0 + 1] == 0xDA })
        // Every segment start after the first scan's header, the last bytes, and a spread.
        let cuts = Set(
            Self.segmentOffsets(data).filter { $0 > firstScan } + [data.count - 1, data.count - 2]
                + stride(from: firstScan + 20, to: data.count, by: data.count / 40))
        for cut in cuts.sorted() {
            expectTasksError(.invalidArgumentError, containing: ["\(file) cut at \(cut): ", "Premature end of JPEG file"]) {
                _ = try ImageDecoder.decode(data.prefix(cut), source: "\(file) cut at \(cut)")
            }
        }
    }

    /// A baseline file runs out while libjpeg looks for the marker after the last MCU: every
    /// pixel is there. Any earlier cut loses pixels and must be an error, with or without an
    /// EOI marker appended.
    @Test(
        "a baseline JPEG cut anywhere is an error, unless only the EOI marker is missing",
        arguments: ["burger.jpg", "grace_hopper.jpg"])
    func baselineCutAnywhere(file: String) throws {
        let data = try TestData.bytes("images/\(file)")
        let full = try ImageDecoder.decode(data, source: file).pixels
        for cut in [data.count - 2, data.count - 1] {
            let decoded = try ImageDecoder.decode(data.prefix(cut), source: "\(file) cut at \(cut)").pixels
            #expect(decoded.bytes == full.bytes, "cut at \(cut)")
        }
        let scan = try #require(Self.segmentOffsets(data).first { data[$0 + 1] == 0xDA })
        for cut in stride(from: scan + 20, to: data.count - 2, by: data.count / 50) {
            expectTasksError(.invalidArgumentError, containing: ["\(file) cut at \(cut): ", "Premature end of JPEG file"]) {
                _ = try ImageDecoder.decode(data.prefix(cut), source: "\(file) cut at \(cut)")
            }
            expectTasksError(.invalidArgumentError, containing: ["Corrupt JPEG data: premature end of data segment"]) {
                _ = try ImageDecoder.decode(data.prefix(cut) + [0xFF, 0xD9], source: "\(file) cut at \(cut) + EOI")
            }
        }
    }

    /// The tester's case: burger.jpg's first 700 bytes and an EOI marker decoded as gray.
    @Test("a baseline JPEG cut and closed with an EOI marker is corrupt data, not gray")
    func cutWithEOI() throws {
        let data = try TestData.bytes("images/burger.jpg")
        expectTasksError(
            .invalidArgumentError,
            containing: ["cut700.jpg: Failed to decode image", "Corrupt JPEG data: premature end of data segment"]
        ) {
            _ = try ImageDecoder.decode(data.prefix(700) + [0xFF, 0xD9], source: "cut700.jpg")
        }
    }

    /// Sixteen 1 bits (stuffed 0xFF 0x00 bytes) are no Huffman code. libjpeg-turbo's fast path
    /// would decode them as 0 without a warning; the decoder feeds the data so that every code
    /// is checked, near the start of the data as near its end.
    @Test("a bad Huffman code is an error, wherever it is", arguments: [1_000, 15_000, 30_100])
    func badHuffmanCode(offset: Int) throws {
        var data = try TestData.bytes("images/burger.jpg")
        data.replaceSubrange(offset..<(offset + 8), with: [0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00])
        expectTasksError(.invalidArgumentError, containing: ["bad code: ", "Corrupt JPEG data: bad Huffman code"]) {
            _ = try ImageDecoder.decode(data, source: "bad code")
        }
    }

    /// JWRN_EXTRANEOUS_DATA loses nothing: the pixels are the file's.
    @Test("bytes between segments are ignored, as libjpeg ignores them")
    func extraneousBytes() throws {
        let data = try TestData.bytes("images/burger.jpg")
        let second = try #require(Self.segmentOffsets(data).dropFirst().first)
        let padded = data.prefix(second) + [0x00, 0x01, 0x02] + data.dropFirst(second)
        let decoded = try ImageDecoder.decode(padded, source: "padded").pixels
        #expect(decoded.bytes == (try ImageDecoder.decode(data, source: "burger.jpg")).pixels.bytes)
    }

    /// The offsets of the marker segments of a JPEG (SOI excluded), scans' entropy data skipped.
    static func segmentOffsets(_ data: Data) -> [Int] {
        let bytes = [UInt8](data)
        var offsets: [Int] = []
        var index = 2
        while index + 3 < bytes.count, bytes[index] == 0xFF {
            offsets.append(index)
            let marker = bytes[index + 1]
            if marker == 0xD9 { break }
            index += 2 + (Int(bytes[index + 2]) << 8 | Int(bytes[index + 3]))
            if marker == 0xDA {  // entropy data: up to a marker that is not a stuffed 0 or RSTn
                while index + 1 < bytes.count,
                    !(bytes[index] == 0xFF && bytes[index + 1] != 0 && !(0xD0...0xD7).contains(bytes[index + 1]))
                {
                    index += 1
                }
            }
        }
        return offsets
    }
}

@Suite("JPEG: decoder memory")
struct JPEGMemoryTests {
    /// The tester's 202-byte file: the first 200 bytes of a 10000x10000 progressive CMYK JPEG
    /// (Pillow 13: `Image.new("CMYK", (10000, 10000)).save(f, "JPEG", progressive=True)`), then
    /// an EOI marker. Its coefficient buffer alone would take 10000 x 10000 x 4 x 2 = 800 MB.
    static let progressiveCMYKBomb =
        "/9j/7gAOQWRvYmUAZAAAAAAA/9sAQwACAQEBAQECAQEBAgICAgIEAwICAgIFBAQDBAYFBgYGBQYGBgcJCAYHCQcGBggLCAkKCgoKCgYICwwLCgwJCgoK/8IAFAgnECcQBEMRAE0RAFkRAEsRAP/EABYAAQEBAAAAAAAAAAAAAAAAAAAIBv/aAA4EQwBNAFkASwAAAAGkMPMd/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAD/2Q=="

    @Test("a progressive JPEG needing more than the memory limit is resourceExhausted, naming file and size")
    func progressiveBomb() throws {
        let data = try #require(Data(base64Encoded: Self.progressiveCMYKBomb))
        #expect(data.count == 202)
        #expect(ImageDecoder.maxJPEGDecoderMemory == 512 << 20)
        expectTasksError(.resourceExhaustedError, containing: ["bomb.jpg: ", "10000x10000", "536870912 bytes (512 MiB)"]) {
            _ = try ImageDecoder.decode(data, source: "bomb.jpg")
        }
    }
}
