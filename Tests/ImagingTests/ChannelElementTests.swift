import Foundation
import TestSupport
import Testing

@testable import Imaging

/// Per-channel float elements and int8 elements are conversions of the byte tensor, element by
/// element, on every sampling path; per-channel with three equal conversions is the one-value
/// float tensor bit for bit.
@Suite("Per-channel and int8 elements")
struct ChannelElementTests {
    static let perChannel = TensorElement(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375])

    /// Pictures of each sampled kind: packed RGBA, gray, YUV 4:2:0 (odd sizes: tails of runs).
    static func pictures() throws -> [PixelImage] {
        let rgba = ImagePreprocessorTests.picture
        return [
            rgba, try converted(rgba, to: .gray8, rowPadding: 3),
            try SeparableSamplerTests.picture(.i420, width: 97, height: 61, seed: 5),
        ]
    }

    /// The geometries: whole image, a region, rotated and mirrored; tensor widths 31 and 64.
    static let geometries: [(region: CGRect, degrees: Int, mirrored: Bool, width: Int, height: Int)] = [
        (wholeImage, 0, false, 64, 48), (ImagePreprocessorTests.regions[1], 90, false, 31, 17),
        (ImagePreprocessorTests.regions[2], 180, true, 31, 23), (wholeImage, 270, false, 5, 7),
    ]

    @Test("per-channel floats are p * scale[c] + offset[c] of the byte tensor")
    func perChannelMatchesBytes() throws {
        guard case let .float32PerChannel(scale, offset) = Self.perChannel else {
            Issue.record("expected per-channel floats")
            return
        }
        for image in try Self.pictures() {
            for geometry in Self.geometries {
                let bytes = try tensor(
                    image, width: geometry.width, height: geometry.height, regionOfInterest: geometry.region,
                    rotationDegrees: geometry.degrees, mirrored: geometry.mirrored)
                let floats = try tensor(
                    image, width: geometry.width, height: geometry.height, element: Self.perChannel,
                    regionOfInterest: geometry.region, rotationDegrees: geometry.degrees, mirrored: geometry.mirrored)
                let values = floats.withUnsafeBytes { Array($0.bindMemory(to: Float.self)) }
                let expected = bytes.enumerated().map { Float($1) * scale[$0 % 3] + offset[$0 % 3] }
                #expect(values == expected, "\(image.format) \(geometry)")
            }
        }
    }

    @Test(
        "three equal per-channel conversions give the one-value floats exactly",
        arguments: [(Float(2) / 255, Float(-1)), (0.017_124_753, -2.117_904), (-2, 3.25)])
    func equalChannelsMatchOneValue(scale: Float, offset: Float) throws {
        let perChannel = TensorElement.float32PerChannel(scale: SIMD3(repeating: scale), offset: SIMD3(repeating: offset))
        for image in try Self.pictures() {
            for geometry in Self.geometries {
                let one = try tensor(
                    image, width: geometry.width, height: geometry.height, element: .float32(scale: scale, offset: offset),
                    regionOfInterest: geometry.region, rotationDegrees: geometry.degrees, mirrored: geometry.mirrored)
                let three = try tensor(
                    image, width: geometry.width, height: geometry.height, element: perChannel,
                    regionOfInterest: geometry.region, rotationDegrees: geometry.degrees, mirrored: geometry.mirrored)
                #expect(one == three, "\(image.format) \(geometry)")
            }
        }
    }

    @Test("NormalizationOptions with three equal values is the one-value conversion")
    func equalValuesChooseOneValue() {
        #expect(
            TensorElement(mean: [127.5, 127.5, 127.5], std: [127.5, 127.5, 127.5]) == TensorElement(mean: 127.5, std: 127.5))
        #expect(TensorElement(mean: [123.675], std: [58.395]) == TensorElement(mean: 123.675, std: 58.395))
        guard case let .float32PerChannel(scale, offset) = Self.perChannel else {
            Issue.record("expected per-channel floats")
            return
        }
        // Each channel is MediaPipe's one-value conversion of its own mean and std.
        for (channel, (mean, std)) in [(123.675, 58.395), (116.28, 57.12), (103.53, 57.375)].enumerated() {
            #expect(TensorElement(mean: Float(mean), std: Float(std)) == .float32(scale: scale[channel], offset: offset[channel]))
        }
    }

    @Test("int8 elements quantize the normalized float: q = round(x / scale) + zero point, clamped")
    func int8Quantizes() throws {
        // The uint8 mobilenet's input quantization read as normalization: exactly p - 128.
        guard case .int8(let exact) = TensorElement(mean: [128], std: [128], quantizationScale: 1.0 / 128, zeroPoint: 0) else {
            Issue.record("expected int8")
            return
        }
        #expect(exact.values == (0..<3).flatMap { _ in (0..<256).map { Int8($0 - 128) } })
        // [0, 1] inputs with scale 1/255 and zero point -128 (a common converter output): p - 128.
        guard case .int8(let unit) = TensorElement(mean: [0], std: [255], quantizationScale: 1.0 / 255, zeroPoint: -128) else {
            Issue.record("expected int8")
            return
        }
        #expect(unit.values == (0..<3).flatMap { _ in (0..<256).map { Int8($0 - 128) } })
        // Per channel, rounding half away from zero and clamping: 127.5/127.5 with scale 1/128.
        let element = TensorElement(mean: [127.5, 0, 255], std: [127.5, 1, 1], quantizationScale: 1.0 / 128, zeroPoint: 0)
        guard case .int8(let table) = element else {
            Issue.record("expected int8")
            return
        }
        #expect(table.values[0] == -128 && table.values[127] == -1 && table.values[128] == 1 && table.values[255] == 127)
        #expect(table.values[256] == 0 && table.values[257] == 127 && table.values[511] == 127)
        #expect(table.values[512] == -128 && table.values[767] == 0)

        let bytes = try tensor(ImagePreprocessorTests.picture, width: 31, height: 17, rotationDegrees: 90)
        let quantized = try tensor(ImagePreprocessorTests.picture, width: 31, height: 17, element: element, rotationDegrees: 90)
        #expect(quantized == bytes.enumerated().map { UInt8(bitPattern: table.values[($0 % 3) * 256 + Int($1)]) })
    }
}
