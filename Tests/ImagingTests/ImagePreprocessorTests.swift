import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

@Suite("ImagePreprocessor")
struct ImagePreprocessorTests {
    /// A 333x250 RGBA picture with varied values (width 333 makes unaligned rows).
    static let picture: PixelImage = {
        let width = 333, height = 250
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let offset = (y * width + x) * 4
                bytes[offset] = UInt8((x * 7 + y * 3) & 255)
                bytes[offset + 1] = UInt8((x * x / 5 + y) & 255)
                bytes[offset + 2] = UInt8((x ^ (y * 5)) & 255)
                bytes[offset + 3] = UInt8((x + y) & 255)
            }
        }
        return try! PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: width * 4, format: .rgba8)
    }()

    static let regions: [CGRect] = [
        wholeImage, CGRect(x: 0.125, y: 0.25, width: 0.5, height: 0.625),
        CGRect(x: 0.3, y: 0.1, width: 0.45, height: 0.33),
    ]

    @Test("RGBA, BGRA, RGB, padded rows: identical tensors", arguments: [0, 90, 180, -90])
    func formatsAgree(degrees: Int) throws {
        for region in Self.regions {
            let reference = try tensor(Self.picture, width: 64, height: 48, regionOfInterest: region, rotationDegrees: degrees)
            for format in [PixelFormat.rgba8, .bgra8, .rgb8] {
                for padding in [0, 1, 37] {
                    let variant = try converted(Self.picture, to: format, rowPadding: padding)
                    let bytes = try tensor(variant, width: 64, height: 48, regionOfInterest: region, rotationDegrees: degrees)
                    #expect(bytes == reference, "\(format) padding \(padding) region \(region)")
                }
            }
        }
    }

    @Test("alpha is dropped, not composited")
    func alphaIgnored() throws {
        let opaque = try PixelImage(
            bytes: [10, 20, 30, 255, 40, 50, 60, 255], width: 2, height: 1, bytesPerRow: 8, format: .rgba8)
        let clear = try PixelImage(bytes: [10, 20, 30, 0, 40, 50, 60, 7], width: 2, height: 1, bytesPerRow: 8, format: .rgba8)
        #expect(try tensor(opaque, width: 2, height: 1) == [10, 20, 30, 40, 50, 60])
        #expect(try tensor(clear, width: 2, height: 1) == [10, 20, 30, 40, 50, 60])
    }

    @Test("gray repeats in R, G and B, with padded rows")
    func grayRepeats() throws {
        let gray = try converted(Self.picture, to: .gray8, rowPadding: 3)
        let bytes = try tensor(gray, width: 50, height: 40, rotationDegrees: 90)
        let asRGB = try converted(gray, to: .rgb8)  // R = G = B = the gray value
        #expect(try tensor(asRGB, width: 50, height: 40, rotationDegrees: 90) == bytes)
        for pixel in stride(from: 0, to: bytes.count, by: 3) {
            #expect(bytes[pixel] == bytes[pixel + 1] && bytes[pixel] == bytes[pixel + 2])
        }
    }

    /// The tiny image `[[0, 10, 20], [30, 40, 50]]` (3x2, gray as RGB): MediaPipe's tensors,
    /// printed by make_golden.py (Tests/Reference/imaging/make_golden.py). They show MediaPipe's geometry: the
    /// rectangle's corners, not pixel centres, map to the tensor's corners, so a rotation
    /// shifts the content by one pixel and replicates the edge.
    @Test(
        "tiny image rotations",
        arguments: [
            (90, 3, 2, [[30, 30], [40, 40], [50, 50]]),
            (180, 2, 3, [[50, 50, 40], [50, 50, 40]]),
            (-90, 3, 2, [[20, 50], [20, 50], [10, 40]]),
        ])
    func tinyRotations(degrees: Int, height: Int, width: Int, expected: [[UInt8]]) throws {
        let image = try PixelImage(bytes: [0, 10, 20, 30, 40, 50], width: 3, height: 2, bytesPerRow: 3, format: .gray8)
        let bytes = try tensor(image, width: width, height: height, rotationDegrees: degrees)
        let red = stride(from: 0, to: bytes.count, by: 3).map { bytes[$0] }
        #expect(red == expected.flatMap { $0 })
        #expect(bytes == red.flatMap { [$0, $0, $0] })
    }

    @Test("a tensor the size of the image copies it (source x = u * imageWidth / tensorWidth)")
    func identity() throws {
        let bytes = try tensor(Self.picture, width: 333, height: 250)
        let rgb = rgbaBytes(Self.picture).enumerated().filter { $0.offset % 4 != 3 }.map(\.element)
        #expect(bytes == rgb)
    }

    @Test("halving samples every other pixel exactly")
    func halving() throws {
        let image = try converted(Self.picture, to: .rgb8)
        let small = try PixelImage(
            bytes: Array(image.bytes[0..<(332 * 3 * 2)]), width: 332, height: 2, bytesPerRow: 332 * 3, format: .rgb8)
        let bytes = try tensor(small, width: 166, height: 1)
        for u in 0..<166 {
            #expect(Array(bytes[(u * 3)..<(u * 3 + 3)]) == Array(small.bytes[(u * 6)..<(u * 6 + 3)]))
        }
    }

    @Test(
        "mirrored orientations of a flipped copy give the original's bytes",
        arguments: [
            (ImageOrientation.up, ImageOrientation.upMirrored), (.right, .rightMirrored),
            (.down, .downMirrored), (.left, .leftMirrored),
        ])
    func mirroredPairs(plain: ImageOrientation, mirrored: ImageOrientation) throws {
        let flipped = try flippedHorizontally(Self.picture)
        // Regions in stored coordinates: the flipped copy's region is the mirror image.
        let pairs: [(CGRect, CGRect)] = [
            (wholeImage, wholeImage),
            (CGRect(x: 0.125, y: 0.25, width: 0.5, height: 0.625), CGRect(x: 0.375, y: 0.25, width: 0.5, height: 0.625)),
        ]
        for (region, mirroredRegion) in pairs {
            for (width, height) in [(224, 224), (37, 53)] {
                let original = try tensor(
                    Self.picture, orientation: plain, width: width, height: height, regionOfInterest: region)
                let copy = try tensor(
                    flipped, orientation: mirrored, width: width, height: height, regionOfInterest: mirroredRegion)
                #expect(copy == original, "\(plain)/\(mirrored) \(width)x\(height) \(region)")
            }
        }
    }

    @Test("orientations map to MediaPipe rotations", arguments: ImageOrientation.allCases)
    func orientationMapping(orientation: ImageOrientation) throws {
        let transform = orientation.preprocessingTransform
        let viaOrientation = try tensor(Self.picture, orientation: orientation, width: 40, height: 30)
        let direct = try tensor(
            Self.picture, width: 40, height: 30, rotationDegrees: transform.rotationDegrees, mirrored: transform.mirrored)
        #expect(viaOrientation == direct)
    }

    @Test("rotations equal modulo 360 give the same tensor", arguments: [(90, -270), (180, -180), (0, 360), (270, -90)])
    func equivalentRotations(first: Int, second: Int) throws {
        let region = CGRect(x: 0.125, y: 0.25, width: 0.5, height: 0.625)
        #expect(
            try tensor(Self.picture, width: 64, height: 64, regionOfInterest: region, rotationDegrees: first)
                == tensor(Self.picture, width: 64, height: 64, regionOfInterest: region, rotationDegrees: second))
    }

    @Test(
        "float elements are p * scale + offset of the byte tensor",
        arguments: [
            TensorElement(mean: 127.5, std: 127.5), TensorElement(mean: 0, std: 255), .float32(scale: -2, offset: 3.25),
        ])
    func floatMatchesBytes(element: TensorElement) throws {
        guard case let .float32(scale, offset) = element else { return }
        let region = CGRect(x: 0.3, y: 0.1, width: 0.45, height: 0.33)
        let bytes = try tensor(Self.picture, width: 31, height: 17, regionOfInterest: region, rotationDegrees: 90)
        let floats = try tensor(
            Self.picture, width: 31, height: 17, element: element, regionOfInterest: region, rotationDegrees: 90)
        #expect(floats.count == bytes.count * 4)
        let values = floats.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
        #expect(values == bytes.map { Float($0) * scale + offset })
    }

    @Test("MediaPipe's normalization: mean and std 127.5 give [-1, 1]")
    func normalization() {
        guard case let .float32(scale, offset) = TensorElement(mean: 127.5, std: 127.5) else {
            Issue.record("expected float32")
            return
        }
        #expect(offset == -1)
        #expect(scale == Float(2) / 255)
        #expect(Float(255) * scale + offset == 1)
        #expect(TensorElement.uint8.byteCount == 1 && TensorElement(mean: 0, std: 1).byteCount == 4)
    }

    @Test(
        "invalid options are rejected with MediaPipe's messages",
        arguments: [
            (CGRect(x: 0, y: 0, width: 1, height: 1), 45, "Expected rotation to be a multiple of 90°. Got 45°."),
            (CGRect(x: 0, y: 0, width: 1, height: 1), -100, "Expected rotation to be a multiple of 90°."),
            (CGRect(x: 0.5, y: 0, width: 0, height: 1), 0, "Expected RectF with left < right and top < bottom."),
            (CGRect(x: 0.5, y: 0.2, width: -0.25, height: 0.5), 0, "Expected RectF with left < right and top < bottom."),
            (CGRect(x: 0, y: 0.5, width: 1, height: 0), 0, "Expected RectF with left < right and top < bottom."),
            (CGRect(x: -0.1, y: 0, width: 0.5, height: 1), 0, "Expected RectF values to be in [0,1]. Got left -0.1"),
            (CGRect(x: 0.5, y: 0.5, width: 0.6, height: 0.2), 0, "Expected RectF values to be in [0,1]."),
            (CGRect(x: 0, y: 0.1, width: 1, height: 1), 90, "Expected RectF values to be in [0,1]."),
            (CGRect(x: Double.nan, y: 0, width: 0.5, height: 1), 0, "Expected RectF values to be in [0,1]."),
        ])
    func invalidOptions(region: CGRect, degrees: Int, message: String) {
        expectTasksError(.invalidArgumentError, containing: [message]) {
            _ = try tensor(Self.picture, width: 8, height: 8, regionOfInterest: region, rotationDegrees: degrees)
        }
    }

    @Test("the tensor buffer must have exactly the tensor's size")
    func bufferSize() {
        var bytes = [UInt8](repeating: 0, count: 8 * 8 * 3 + 1)
        expectTasksError(.invalidArgumentError, containing: ["193 bytes", "expected 192"]) {
            try bytes.withUnsafeMutableBytes {
                try ImagePreprocessor.preprocess(Self.picture, into: $0, width: 8, height: 8, element: .uint8)
            }
        }
        expectTasksError(.invalidArgumentError, containing: ["193 bytes", "expected 768"]) {
            try bytes.withUnsafeMutableBytes {
                try ImagePreprocessor.preprocess(
                    Self.picture, into: $0, width: 8, height: 8, element: .float32(scale: 1, offset: 0))
            }
        }
        expectTasksError(.invalidArgumentError, containing: ["Invalid tensor size 0x8"]) {
            try bytes.withUnsafeMutableBytes {
                try ImagePreprocessor.preprocess(Self.picture, into: $0, width: 0, height: 8, element: .uint8)
            }
        }
    }

    @Test(
        "preprocessing a decoded photo at 224x224 takes well under a frame",
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
    func speed() throws {
        let image = try ImageDecoder.decode(contentsOf: TestData.image("cats_and_dogs.jpg")).pixels
        var bytes = [UInt8](repeating: 0, count: 224 * 224 * 12)
        // CPU time of this thread (the preprocessing runs on it): the work itself, which other
        // tests and processes do not stretch as they stretch wall-clock time.
        let start = threadCPUTime()
        for _ in 0..<10 {
            try bytes.withUnsafeMutableBytes {
                try ImagePreprocessor.preprocess(
                    image, rotationDegrees: 90, into: $0, width: 224, height: 224,
                    element: TensorElement(mean: 127.5, std: 127.5))
            }
        }
        let elapsed = threadCPUTime() - start
        // Generous for debug builds; release builds take about 1 ms.
        #expect(elapsed < .seconds(5), "10 preprocessings took \(elapsed) of CPU time")
    }
}
