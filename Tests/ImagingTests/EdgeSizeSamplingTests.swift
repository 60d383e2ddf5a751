import Foundation
import TestSupport
import Testing

@testable import Imaging

/// Tiny and odd images, exactly as long as their geometry (the last row without padding), with
/// regions touching the edges, every rotation and mirroring: the fast paths (vector YUV rows,
/// column pairs, packed rows, the writers' runs) give the general path's bytes and, run under
/// AddressSanitizer, read nothing past the image.
@Suite("Sampling: tiny and odd images at their edges")
struct EdgeSizeSamplingTests {
    static let formats: [PixelFormat] = [.rgba8, .bgra8, .rgb8, .gray8, .nv12, .nv21, .i420, .i444, .yuyv]

    static let sizes: [(width: Int, height: Int)] = [
        (1, 1), (1, 2), (2, 1), (3, 3), (7, 5), (8, 8), (9, 9), (15, 3), (16, 16), (17, 1),
    ]

    static let regions: [RegionOfInterest] = [
        .wholeImage,
        try! RegionOfInterest(CGRect(x: 0, y: 0, width: 0.1, height: 1)),
        try! RegionOfInterest(CGRect(x: 0.9, y: 0, width: 0.1, height: 1)),
        try! RegionOfInterest(CGRect(x: 0, y: 0.9, width: 1, height: 0.1)),
        try! RegionOfInterest(CGRect(x: 0.95, y: 0.95, width: 0.05, height: 0.05)),
        try! RegionOfInterest(CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)),
    ]

    static let tensorSizes: [(width: Int, height: Int)] = [(1, 1), (8, 8), (9, 3), (17, 2), (16, 1), (33, 29)]

    /// The image's bytes in an array exactly as long as its layout (nil stride: packed rows;
    /// else the Y plane's stride), so that a read past its end is outside the allocation.
    static func picture(_ format: PixelFormat, width: Int, height: Int, padding: Int?, seed: UInt64) throws -> PixelImage {
        let rowBytes = YUVPicture.planeSizes(format, width: width, height: height)[0].rowBytes
        let stride = padding.map { rowBytes + $0 }
        let data: Data
        if format.isYUV {
            data = YUVPicture(format, width: width, height: height, seed: seed).contiguous(bytesPerRow: stride)
        } else {
            var random = SplitMix64(seed: seed)
            let count = (stride ?? rowBytes) * (height - 1) + rowBytes
            data = Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &random) })
        }
        var bytes = [UInt8](repeating: 0, count: data.count)
        bytes.withUnsafeMutableBytes { _ = data.copyBytes(to: $0) }
        return try PixelImage(
            bytes: bytes, width: width, height: height, bytesPerRow: stride, format: format, colorRange: .video,
            colorMatrix: .bt601)
    }

    @Test("uint8 tensors equal the general path", arguments: Self.formats)
    func bytes(format: PixelFormat) throws {
        try compare(format, elements: [.uint8])
    }

    @Test(
        "float and int8 tensors equal the general path", arguments: [PixelFormat.rgb8, .rgba8, .gray8, .i420, .nv21, .yuyv])
    func floats(format: PixelFormat) throws {
        try compare(
            format,
            elements: [
                TensorElement(mean: 127.5, std: 127.5),
                TensorElement(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375]),
                TensorElement(mean: [127.5], std: [127.5], quantizationScale: 1.0 / 128, zeroPoint: -1),
            ], tensorSizes: [(1, 1), (9, 3), (17, 2)])
    }

    func compare(
        _ format: PixelFormat, elements: [TensorElement],
        tensorSizes: [(width: Int, height: Int)] = Self.tensorSizes
    ) throws {
        var mismatches: [String] = []
        for (index, size) in Self.sizes.enumerated() {
            for padding in [nil, 3] {
                let image = try Self.picture(
                    format, width: size.width, height: size.height, padding: padding, seed: UInt64(index))
                for region in Self.regions {
                    for rotation in [0, 90, 180, 270] {
                        for mirrored in [false, true] {
                            for tensor in tensorSizes {
                                for element in elements {
                                    let expected = SeparableSamplerTests.reference(
                                        image, width: tensor.width, height: tensor.height, element: element,
                                        region: region, rotationDegrees: rotation, mirrored: mirrored)
                                    let result = try SeparableSamplerTests.preprocessed(
                                        image, width: tensor.width, height: tensor.height, element: element,
                                        region: region, rotationDegrees: rotation, mirrored: mirrored)
                                    if result.bytes != expected && mismatches.count < 10 {
                                        mismatches.append(
                                            "\(size) padding \(String(describing: padding)) \(region) \(rotation)° mirrored \(mirrored) tensor \(tensor) \(element)"
                                        )
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(format): \(mismatches)")
    }

    /// Every width from 1 to 40 (the column pairs start at 3, the vector blocks at 8 tensor
    /// columns) and both roundings, the whole image and its right edge, upright and turned.
    @Test("YUV widths 1 to 40, both roundings", arguments: [PixelFormat.nv12, .i420, .i444, .yuyv])
    func widths(format: PixelFormat) throws {
        var mismatches: [String] = []
        var separableCount = 0
        let regions = [RegionOfInterest.wholeImage, Self.regions[2]]
        for width in 1...40 {
            for rounding in [YUVRounding.roundedSum, .truncatedTerms] {
                let image = try Self.picture(format, width: width, height: 3, padding: nil, seed: UInt64(width))
                    .withYUVRounding(rounding)
                for region in regions {
                    for rotation in [0, 90] {
                        for tensor in [(width: 24, height: 2), (width: 3, height: 41)] {
                            let expected = SeparableSamplerTests.reference(
                                image, width: tensor.width, height: tensor.height, region: region,
                                rotationDegrees: rotation, mirrored: false)
                            let result = try SeparableSamplerTests.preprocessed(
                                image, width: tensor.width, height: tensor.height, region: region,
                                rotationDegrees: rotation, mirrored: false)
                            separableCount += result.separable ? 1 : 0
                            if result.bytes != expected && mismatches.count < 10 {
                                mismatches.append("width \(width) \(rounding) \(region) \(rotation)° \(tensor)")
                            }
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(format): \(mismatches)")
        // 40 widths x 2 roundings x 2 regions x 2 rotations x 2 tensors: most take the fast path.
        #expect(separableCount > 320, "only \(separableCount) of 640 took the separable path")
    }
}
