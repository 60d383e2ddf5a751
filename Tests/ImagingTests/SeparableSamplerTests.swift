import Foundation
import TestSupport
import Testing

@testable import Imaging

/// The separable (tabulated, row-wise) path gives the general position-by-position path's bytes
/// for every geometry it takes, and the common geometries do take it.
@Suite("SeparableSampler: the same bytes as the general path")
struct SeparableSamplerTests {
    /// The tensor of the general path (every position computed, every pixel interpolated on its own).
    static func reference(
        _ image: PixelImage, width: Int, height: Int, element: TensorElement = .uint8,
        region: RegionOfInterest, rotationDegrees: Int, mirrored: Bool
    ) -> [UInt8] {
        let geometry = SamplingGeometry(
            imageWidth: image.width, imageHeight: image.height, tensorWidth: width,
            tensorHeight: height, region: region, rotationDegrees: rotationDegrees, mirrored: mirrored)
        var bytes = [UInt8](
            repeating: 0, count: ImagePreprocessor.tensorByteCount(width: width, height: height, element: element))
        bytes.withUnsafeMutableBytes { tensor in
            switch element {
            case .uint8:
                BilinearSampler.sample(
                    image, geometry: geometry, tensorWidth: width, tensorHeight: height,
                    buffers: PreprocessingBuffers(), writer: ByteWriter(tensor: tensor))
            case let .float32(scale, offset):
                BilinearSampler.sample(
                    image, geometry: geometry, tensorWidth: width, tensorHeight: height,
                    buffers: PreprocessingBuffers(), writer: FloatWriter(tensor: tensor, scale: scale, offset: offset))
            case let .float32PerChannel(scale, offset):
                BilinearSampler.sample(
                    image, geometry: geometry, tensorWidth: width, tensorHeight: height,
                    buffers: PreprocessingBuffers(),
                    writer: PerChannelFloatWriter(tensor: tensor, scale: scale, offset: offset))
            case .int8(let table):
                table.values.withUnsafeBufferPointer { values in
                    BilinearSampler.sample(
                        image, geometry: geometry, tensorWidth: width, tensorHeight: height,
                        buffers: PreprocessingBuffers(),
                        writer: Int8Writer(tensor: tensor, table: values.baseAddress!))
                }
            }
        }
        return bytes
    }

    /// The tensor of `ImagePreprocessor` with `buffers`, and the plan it took.
    static func preprocessed(
        _ image: PixelImage, width: Int, height: Int, element: TensorElement = .uint8,
        region: RegionOfInterest, rotationDegrees: Int, mirrored: Bool,
        buffers: PreprocessingBuffers = PreprocessingBuffers()
    ) throws -> (bytes: [UInt8], separable: Bool) {
        var bytes = [UInt8](
            repeating: 0, count: ImagePreprocessor.tensorByteCount(width: width, height: height, element: element))
        try bytes.withUnsafeMutableBytes { tensor in
            try ImagePreprocessor.preprocess(
                image, regionOfInterest: region, rotationDegrees: rotationDegrees, mirrored: mirrored,
                into: tensor, width: width, height: height, element: element, buffers: buffers)
        }
        guard case .separable = buffers.current?.plan else { return (bytes, false) }
        return (bytes, true)
    }

    /// A picture of random bytes in `format` (planes contiguous, rows padded by 5 bytes).
    static func picture(_ format: PixelFormat, width: Int, height: Int, seed: UInt64) throws -> PixelImage {
        switch format {
        case .nv12, .nv21, .i420, .i444, .yuyv:
            let yuv = YUVPicture(format, width: width, height: height, seed: seed)
            let stride = YUVPicture.planeSizes(format, width: width, height: height)[0].rowBytes + 6
            return try PixelImage(
                copying: yuv.contiguous(bytesPerRow: stride), width: width, height: height,
                bytesPerRow: stride, format: format, colorRange: .full, colorMatrix: .bt709)
        case .rgba8, .bgra8, .rgb8, .gray8:
            var random = SplitMix64(seed: seed)
            let bytesPerRow = width * format.bytesPerPixel + 5
            let bytes = (0..<(bytesPerRow * height)).map { _ in UInt8.random(in: 0...255, using: &random) }
            return try PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
    }

    static let regions: [RegionOfInterest] = [
        .wholeImage,
        try! RegionOfInterest(CGRect(x: 0.125, y: 0.25, width: 0.5, height: 0.625)),
        try! RegionOfInterest(CGRect(x: 0.3, y: 0.1, width: 0.45, height: 0.33)),
        try! RegionOfInterest(CGRect(x: 0, y: 0.5, width: 0.999, height: 0.5)),
    ]

    static let rotations = [0, 90, 180, -90, 450]

    /// Tensor sizes that downsample, upsample (beyond the image: replicated borders), are tiny or
    /// odd. (The golden tests cover 224x224 on photos.)
    static let tensorSizes: [(width: Int, height: Int)] = [(64, 40), (53, 37), (1, 1), (300, 7), (8, 96)]

    @Test(
        "RGB, gray and YUV, regions, rotations, mirroring, tensor sizes",
        arguments: [PixelFormat.rgba8, .bgra8, .rgb8, .gray8, .nv12, .nv21, .i420, .i444, .yuyv])
    func matchesGeneralPath(format: PixelFormat) throws {
        let images = [
            try Self.picture(format, width: 97, height: 61, seed: 7), try Self.picture(format, width: 5, height: 3, seed: 8),
        ]
        var separableCount = 0, total = 0
        for image in images {
            for region in Self.regions {
                for rotation in Self.rotations {
                    for mirrored in [false, true] {
                        for size in Self.tensorSizes {
                            let expected = Self.reference(
                                image, width: size.width, height: size.height, region: region,
                                rotationDegrees: rotation, mirrored: mirrored)
                            let result = try Self.preprocessed(
                                image, width: size.width, height: size.height, region: region,
                                rotationDegrees: rotation, mirrored: mirrored)
                            #expect(
                                result.bytes == expected,
                                "\(format) \(image.width)x\(image.height) \(region) \(rotation)° mirrored \(mirrored) \(size)")
                            total += 1
                            if result.separable { separableCount += 1 }
                        }
                    }
                }
            }
        }
        // Most of these maps come out without cross terms; the test is only worth its name if they do.
        #expect(separableCount * 2 > total, "only \(separableCount) of \(total) geometries took the separable path")
    }

    @Test(
        "float and int8 elements",
        arguments: [
            TensorElement(mean: 127.5, std: 127.5), .float32(scale: -2, offset: 3.25),
            TensorElement(mean: [123.675, 116.28, 103.53], std: [58.395, 57.12, 57.375]),
            TensorElement(mean: [127.5], std: [127.5], quantizationScale: 1.0 / 128, zeroPoint: -1),
        ])
    func floats(element: TensorElement) throws {
        // RGB8 goes through `PackedRowSampler`, gray and YUV through the writers' runs.
        for format in [PixelFormat.rgb8, .gray8, .i420] {
            let image = try Self.picture(format, width: 97, height: 61, seed: 9)
            for rotation in [0, 90, 180, 270] {
                for mirrored in [false, true] {
                    let expected = Self.reference(
                        image, width: 31, height: 17, element: element, region: Self.regions[2],
                        rotationDegrees: rotation, mirrored: mirrored)
                    let result = try Self.preprocessed(
                        image, width: 31, height: 17, element: element, region: Self.regions[2],
                        rotationDegrees: rotation, mirrored: mirrored)
                    #expect(result.bytes == expected, "\(format) \(rotation)° mirrored \(mirrored)")
                }
            }
        }
    }

    @Test(
        "the whole image upright and at every quarter turn takes the separable path",
        arguments: [(480, 325), (640, 480), (4032, 3024), (3024, 4032), (97, 61), (224, 224)])
    func commonCasesAreSeparable(width: Int, height: Int) throws {
        let buffers = PreprocessingBuffers()
        for rotation in [0, 90, 180, 270] {
            for mirrored in [false, true] {
                let geometry = SamplingGeometry(
                    imageWidth: width, imageHeight: height, tensorWidth: 224, tensorHeight: 224,
                    region: .wholeImage, rotationDegrees: rotation, mirrored: mirrored)
                let plan = SeparableSampler.prepare(
                    geometry, imageWidth: width, imageHeight: height, tensorWidth: 224,
                    tensorHeight: 224, buffers: buffers)
                #expect(plan != nil, "\(width)x\(height) \(rotation)° mirrored \(mirrored)")
            }
        }
    }

    @Test("buffers reused across images, sizes and geometries give fresh results")
    func reuse() throws {
        let buffers = PreprocessingBuffers()
        let images = [
            try Self.picture(.rgb8, width: 97, height: 61, seed: 1), try Self.picture(.rgba8, width: 97, height: 61, seed: 2),
            try Self.picture(.nv12, width: 33, height: 80, seed: 3), try Self.picture(.rgb8, width: 97, height: 61, seed: 4),
        ]
        for (index, image) in images.enumerated() {
            for (width, height, rotation) in [(224, 224, 0), (224, 224, 0), (53, 37, 90), (224, 224, 180), (300, 7, 0)] {
                let region = Self.regions[index % Self.regions.count]
                let expected = Self.reference(
                    image, width: width, height: height, region: region, rotationDegrees: rotation,
                    mirrored: false)
                let result = try Self.preprocessed(
                    image, width: width, height: height, region: region, rotationDegrees: rotation,
                    mirrored: false, buffers: buffers)
                #expect(result.bytes == expected, "image \(index) \(width)x\(height) \(rotation)°")
            }
        }
    }
}

/// The SSE2 horizontal step of `PackedRowSampler` and its portable form agree.
@Suite("PackedRowSampler: SSE2 and portable horizontal steps")
struct PackedRowSamplerHorizontalTests {
    func check<Layout: PackedPixelLayout>(_ layout: Layout.Type, seed: UInt64) {
        var random = SplitMix64(seed: seed)
        var pixels = [Int16](repeating: 0, count: 16)
        for _ in 0..<2000 {
            for index in pixels.indices { pixels[index] = Int16.random(in: 0...8160, using: &random) }
            let fraction = Int16.random(in: 0...32, using: &random)
            let pair = SIMD2<Int16>(32 - fraction, fraction)
            let weights = SIMD8<Int16>(
                lowHalf: SIMD4(lowHalf: pair, highHalf: pair), highHalf: SIMD4(lowHalf: pair, highHalf: pair))
            pixels.withUnsafeBufferPointer { buffer in
                let fast = PackedRowSampler<Layout, ByteWriter>.horizontal(buffer.baseAddress!, weights: weights)
                let portable = PackedRowSampler<Layout, ByteWriter>.portableSums(buffer.baseAddress!, weights: weights)
                let expected = SIMD3<Int32>(portable[Layout.red], portable[Layout.green], portable[Layout.blue])
                #expect(SIMD3(fast[0], fast[1], fast[2]) == expected, "\(Layout.self) \(pixels) \(pair)")
                // And the definition, channel by channel.
                let next = Layout.bytesPerPixel
                for (lane, channel) in [Layout.red, Layout.green, Layout.blue].enumerated() {
                    let sum = Int32(pixels[channel]) * Int32(pair[0]) + Int32(pixels[next + channel]) * Int32(pair[1])
                    #expect(fast[lane] == (sum + 512) >> 10)
                }
            }
        }
    }

    @Test func rgb8() { check(RGB8Layout.self, seed: 1) }
    @Test func rgba8() { check(RGBA8Layout.self, seed: 2) }
    @Test func bgra8() { check(BGRA8Layout.self, seed: 3) }
}
