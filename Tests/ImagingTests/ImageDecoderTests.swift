import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

@Suite("ImageDecoder: lossless fixtures")
struct LosslessDecodingTests {
    /// Each fixture (made by make_fixtures.py) and the pixels it must decode to.
    static let cases: [(name: String, base64: String, format: PixelFormat, expected: @Sendable (Int, Int) -> [UInt8])] = [
        ("RGB 8-bit", Fixtures.pngRGB8, .rgb8, { Array(TestPicture.rgba($0, $1).prefix(3)) }),
        ("RGBA 8-bit", Fixtures.pngRGBA8, .rgba8, { TestPicture.rgba($0, $1) }),
        ("RGBA 8-bit interlaced", Fixtures.pngRGBA8Interlaced, .rgba8, { TestPicture.rgba($0, $1) }),
        ("gray 8-bit", Fixtures.pngGray8, .gray8, { [TestPicture.gray($0, $1)] }),
        (
            "gray 8-bit with tRNS", Fixtures.pngGray8Transparent, .rgba8,
            { x, y in
                let g = TestPicture.gray(x, y)
                return [g, g, g, g == TestPicture.gray(3, 2) ? 0 : 255]
            }
        ),
        ("gray 1-bit", Fixtures.pngGray1, .gray8, { [($0 + $1) % 2 == 1 ? 255 : 0] }),
        ("gray 4-bit", Fixtures.pngGray4, .gray8, { [UInt8((($0 + 3 * $1) % 16) * 17)] }),
        (
            "gray 16-bit (high byte, as MediaPipe)", Fixtures.pngGray16, .gray8,
            { [TestPicture.highByte(TestPicture.gray16($0, $1))] }
        ),
        (
            "gray + alpha", Fixtures.pngGrayAlpha8, .rgba8,
            { x, y in
                let g = TestPicture.gray(x, y)
                return [g, g, g, TestPicture.rgba(x, y)[3]]
            }
        ),
        ("RGB 16-bit interlaced", Fixtures.pngRGB16Interlaced, .rgb8, { TestPicture.rgb16($0, $1).map(TestPicture.highByte) }),
        (
            "palette 8-bit", Fixtures.pngPalette8, .rgb8,
            { Array(TestPicture.palette[TestPicture.paletteIndex($0, $1)].prefix(3)) }
        ),
        ("palette 4-bit with tRNS", Fixtures.pngPalette4Alpha, .rgba8, { TestPicture.palette[TestPicture.paletteIndex($0, $1)] }),
        (
            "RGB with tRNS", Fixtures.pngRGB8Transparent, .rgba8,
            { x, y in
                let rgb = Array(TestPicture.rgba(x, y).prefix(3))
                return rgb + [rgb == Array(TestPicture.rgba(1, 1).prefix(3)) ? 0 : 255]
            }
        ),
        ("WebP lossless", Fixtures.webpLosslessRGB, .rgb8, { Array(TestPicture.rgba($0, $1).prefix(3)) }),
        ("WebP lossless with alpha", Fixtures.webpLosslessRGBA, .rgba8, { TestPicture.rgba($0, $1) }),
    ]

    @Test("decodes to the exact pixels", arguments: 0..<cases.count)
    func decodesExactly(index: Int) throws {
        let testCase = Self.cases[index]
        let image = try decode(fixture(testCase.base64), testCase.name).pixels
        #expect(image.width == TestPicture.width && image.height == TestPicture.height, "\(testCase.name)")
        #expect(image.format == testCase.format, "\(testCase.name)")
        #expect(image.bytesPerRow == image.width * image.format.bytesPerPixel)
        #expect(image.bytes == TestPicture.bytes(testCase.expected), "\(testCase.name)")
    }
}

@Suite("ImageDecoder: lossy fixtures")
struct LossyDecodingTests {
    /// Lossy fixtures and Pillow 13's decode of them (recorded by make_fixtures.py). libjpeg-turbo
    /// and libwebp decode deterministically; 1 level of slack covers other library builds.
    static let cases: [(name: String, base64: String, format: PixelFormat, pillow: [UInt8])] = [
        ("JPEG baseline", Fixtures.jpegRGB, .rgb8, Fixtures.jpegRGBPillow),
        ("JPEG progressive", Fixtures.jpegProgressive, .rgb8, Fixtures.jpegProgressivePillow),
        ("JPEG gray", Fixtures.jpegGray, .gray8, Fixtures.jpegGrayPillow),
        ("JPEG CMYK (Adobe, inverted)", Fixtures.jpegCMYK, .rgb8, Fixtures.jpegCMYKPillow),
        ("WebP lossy", Fixtures.webpLossyRGB, .rgb8, Fixtures.webpLossyRGBPillow),
        ("WebP lossy with alpha", Fixtures.webpLossyRGBA, .rgba8, Fixtures.webpLossyRGBAPillow),
    ]

    @Test("decodes as Pillow does", arguments: 0..<cases.count)
    func matchesPillow(index: Int) throws {
        let testCase = Self.cases[index]
        let image = try decode(fixture(testCase.base64), testCase.name).pixels
        #expect(image.width == 7 && image.height == 5)
        #expect(image.format == testCase.format, "\(testCase.name)")
        let decoded = rgbaBytes(image)
        #expect(decoded.count == testCase.pillow.count)
        let worst = zip(decoded, testCase.pillow).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(worst <= 1, "\(testCase.name): largest difference from Pillow \(worst)")
    }
}

@Suite("ImageDecoder: shared images", .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct SharedImageDecodingTests {
    /// Sizes, formats, and pixels that Pillow 13 decodes (`Image.open(p).convert('RGBA')`,
    /// checked during development: every pixel of every shared image matched exactly).
    static let cases: [(file: String, width: Int, height: Int, format: PixelFormat, samples: [(x: Int, y: Int, rgba: [UInt8])])] =
        [
            (
                "burger.jpg", 480, 325, .rgb8,
                [(0, 0, [231, 190, 158, 255]), (240, 162, [142, 174, 49, 255]), (479, 324, [107, 72, 68, 255])]
            ),
            ("burger-224.png", 224, 224, .rgb8, [(0, 0, [230, 189, 158, 255]), (112, 112, [142, 172, 45, 255])]),
            ("burger_crop.jpg", 400, 325, .rgb8, [(200, 160, [222, 234, 230, 255])]),
            ("burger_rotation180.jpg", 480, 325, .rgb8, [(240, 162, [154, 179, 59, 255])]),
            ("cat.jpg", 600, 400, .rgb8, [(300, 200, [112, 85, 58, 255])]),
            ("cats_and_dogs.jpg", 1200, 600, .rgb8, [(600, 300, [251, 177, 194, 255])]),
            ("cats_and_dogs_rotation180.jpg", 1200, 600, .rgb8, [(600, 300, [253, 180, 197, 255])]),
            ("dogs.jpg", 640, 427, .rgb8, [(320, 213, [145, 144, 90, 255])]),
            ("grace_hopper.jpg", 517, 606, .rgb8, [(258, 303, [208, 123, 86, 255])]),
            ("multi_objects.jpg", 902, 358, .rgb8, [(451, 179, [215, 216, 211, 255])]),
            ("sparrow.jpg", 640, 480, .rgb8, [(320, 240, [35, 25, 16, 255])]),
            ("sparrow.png", 1280, 851, .rgba8, [(0, 0, [0, 0, 0, 0]), (640, 425, [159, 141, 130, 255])]),
        ]

    @Test("size, format and Pillow's pixels", arguments: 0..<cases.count)
    func decodes(index: Int) throws {
        let testCase = Self.cases[index]
        let decoded = try ImageDecoder.decode(contentsOf: TestData.image(testCase.file))
        let image = decoded.pixels
        #expect(image.width == testCase.width && image.height == testCase.height, "\(testCase.file)")
        #expect(image.format == testCase.format, "\(testCase.file)")
        #expect(decoded.exifOrientation == .up, "\(testCase.file)")
        for sample in testCase.samples {
            let pixel = image.rgba(x: sample.x, y: sample.y)
            #expect(
                [pixel.red, pixel.green, pixel.blue, pixel.alpha] == sample.rgba, "\(testCase.file) at (\(sample.x), \(sample.y))"
            )
        }
    }

    @Test("a truncated JPEG is an error, not gray padding")
    func truncatedJPEG() throws {
        let data = try TestData.bytes("images/burger.jpg")
        expectTasksError(
            .invalidArgumentError, containing: ["half burger: Failed to decode image", "Premature end of JPEG file"]
        ) {
            _ = try ImageDecoder.decode(data.prefix(data.count / 2), source: "half burger")
        }
    }

    @Test("a truncated progressive JPEG is an error")
    func truncatedProgressiveJPEG() throws {
        let data = try TestData.bytes("images/multi_objects.jpg")
        expectTasksError(.invalidArgumentError, containing: ["Premature end of JPEG file"]) {
            _ = try ImageDecoder.decode(data.prefix(data.count * 3 / 4), source: "cut")
        }
    }

    @Test("a JPEG without its final EOI marker still decodes (all pixels are there)")
    func jpegWithoutEOI() throws {
        let data = try TestData.bytes("images/burger.jpg")
        let full = try ImageDecoder.decode(data, source: "full").pixels
        let cut = try ImageDecoder.decode(data.prefix(data.count - 2), source: "no EOI").pixels
        #expect(cut.bytes == full.bytes)
    }

    @Test("a truncated PNG is an error")
    func truncatedPNG() throws {
        let data = try TestData.bytes("images/sparrow.png")
        expectTasksError(.invalidArgumentError, containing: ["cut png: Failed to decode image"]) {
            _ = try ImageDecoder.decode(data.prefix(data.count / 2), source: "cut png")
        }
    }
}

@Suite("ImageDecoder: errors")
struct DecodingErrorTests {
    @Test("a missing file is notFound, naming the path")
    func missingFile() {
        let url = URL(fileURLWithPath: "/nonexistent/dir/picture.jpg")
        expectTasksError(.notFoundError, containing: ["/nonexistent/dir/picture.jpg"]) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
    }

    @Test("a directory is invalidArgument, naming it")
    func directory() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        expectTasksError(.invalidArgumentError, containing: [directory.path, "is a directory"]) {
            _ = try ImageDecoder.decode(contentsOf: directory)
        }
    }

    @Test("an empty file names the file")
    func emptyFile() throws {
        let directory = try TestData.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("empty.png")
        try Data().write(to: url)
        expectTasksError(.invalidArgumentError, containing: ["\(url.path): Failed to decode image", "empty"]) {
            _ = try ImageDecoder.decode(contentsOf: url)
        }
    }

    @Test(
        "bad data",
        arguments: [
            ("garbage", Data("hello, this is not an image".utf8), ["unrecognized format", "68 65 6C 6C"]),
            (
                "JPEG magic then garbage", Data([0xFF, 0xD8, 0xFF, 0x00, 0x01, 0x02, 0x03, 0x04]),
                ["JPEG magic then garbage: Failed to decode image"]
            ),
            ("PNG signature only", Data(ImageContainer.pngSignature), ["PNG signature only: Failed to decode image"]),
            ("RIFF header only", Data("RIFF\u{10}\0\0\0WEBPVP8 ".utf8), ["invalid WebP header"]),
            ("truncated JPEG fixture", fixture(Fixtures.jpegRGB).prefix(400), ["Premature end of JPEG file"]),
            ("truncated PNG fixture", fixture(Fixtures.pngRGBA8).prefix(120), ["Failed to decode image"]),
            ("truncated WebP fixture", fixture(Fixtures.webpLossyRGB).prefix(100), ["Failed to decode image"]),
        ])
    func badData(source: String, data: Data, fragments: [String]) {
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try ImageDecoder.decode(data, source: source)
        }
    }

    @Test("a PNG header claiming 100000x100000 is refused before allocation")
    func hugePNG() {
        let data = ImageBytes.pngHeader(width: 100_000, height: 100_000)
        expectTasksError(
            .invalidArgumentError, containing: ["huge.png: The image is too large", "100000x100000", "100000000 pixels"]
        ) {
            _ = try ImageDecoder.decode(data, source: "huge.png")
        }
    }

    @Test("a JPEG header claiming 65500x65500 (JPEG's largest) is refused before allocation")
    func hugeJPEG() {
        let data = ImageBytes.jpeg(fixture(Fixtures.jpegRGB), withWidth: 65500, height: 65500)
        expectTasksError(.invalidArgumentError, containing: ["huge.jpg: The image is too large", "65500x65500"]) {
            _ = try ImageDecoder.decode(data, source: "huge.jpg")
        }
    }

    @Test("an image just over the limit is refused, one at the limit is only checked")
    func limitBoundary() {
        #expect(ImageDecoder.maxPixelCount == 100_000_000)
        expectTasksError(.invalidArgumentError, containing: ["10001x10000"]) {
            try ImageDecoder.checkDimensions(width: 10_001, height: 10_000, source: .buffer("x"))
        }
        #expect(throws: Never.self) { try ImageDecoder.checkDimensions(width: 10_000, height: 10_000, source: .buffer("x")) }
    }

    @Test("zero dimensions in a header are refused")
    func zeroDimensions() {
        expectTasksError(.invalidArgumentError, containing: ["zero.png: Failed to decode image"]) {
            _ = try ImageDecoder.decode(ImageBytes.pngHeader(width: 0, height: 10), source: "zero.png")
        }
        expectTasksError(.invalidArgumentError, containing: ["empty size 0x5"]) {
            try ImageDecoder.checkDimensions(width: 0, height: 5, source: .buffer("x"))
        }
    }
}
