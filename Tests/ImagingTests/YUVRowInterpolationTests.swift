import Foundation
import TestSupport
import Testing

@testable import Imaging

#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// The vector YUV path (`YUVLanes`, `YUVPairSource.interpolate`) gives the table path's values
/// bit for bit: every rounding, range and matrix, every format it serves, odd sizes, and through
/// the whole preprocessing with regions, mirroring and rotations.
@Suite("YUV rows: vector path equals the per-pixel tables")
struct YUVRowInterpolationTests {
    /// Every rounding, range and matrix.
    static let conversions: [(YUVRounding, YUVColorRange, YUVColorMatrix)] = [YUVRounding.roundedSum, .truncatedTerms]
        .flatMap { rounding in
            YUVColorRange.allCases.flatMap { range in YUVColorMatrix.allCases.map { (rounding, range, $0) } }
        }

    static let formats: [PixelFormat] = [.i420, .i444, .nv12, .nv21, .yuyv]

    #if arch(x86_64)
        /// Every Y with every (U, V) on a grid, and every (U, V) with the luma extremes and middles:
        /// each term of each channel over its whole domain, and the saturation at both ends.
        @Test("eight-lane conversion equals YUVToRGB.rgb", arguments: Self.conversions)
        func lanes(rounding: YUVRounding, range: YUVColorRange, matrix: YUVColorMatrix) {
            let grid = Array(stride(from: 0, through: 255, by: 15)) + [127, 128, 129]
            var triples: [(Int, Int, Int)] = []
            for y in 0...255 { for u in grid { for v in grid { triples.append((y, u, v)) } } }
            for y in [0, 16, 128, 235, 255] {
                for u in 0...255 { for v in 0...255 { triples.append((y, u, v)) } }
            }
            var mismatches: [String] = []
            YUVToRGB.withConversion(for: range, matrix: matrix, rounding: rounding) { conversion in
                for start in stride(from: 0, to: triples.count - 7, by: 8) {
                    let batch = triples[start..<(start + 8)]
                    func lanes(_ value: ((Int, Int, Int)) -> Int) -> __m128i {
                        unsafeBitCast(SIMD8<Int16>(batch.map { Int16(value($0)) }), to: __m128i.self)
                    }
                    let (y, u, v) = (lanes { $0.0 }, lanes { $0.1 }, lanes { $0.2 })
                    let rgb =
                        rounding == .roundedSum
                        ? RoundedSumLanes(conversion.coefficients).rgb(y: y, u: u, v: v)
                        : TruncatedTermsLanes(conversion.coefficients).rgb(y: y, u: u, v: v)
                    let channels = [rgb.red, rgb.green, rgb.blue].map { unsafeBitCast($0, to: SIMD8<Int16>.self) }
                    for (lane, triple) in batch.enumerated() {
                        let expected = conversion.rgb(y: UInt8(triple.0), u: UInt8(triple.1), v: UInt8(triple.2))
                        let got = (Int32(channels[0][lane]), Int32(channels[1][lane]), Int32(channels[2][lane]))
                        if got != expected && mismatches.count < 10 {
                            mismatches.append("\(triple): \(got) instead of \(expected)")
                        }
                    }
                }
            }
            #expect(mismatches.isEmpty, "\(rounding) \(range) \(matrix)")
        }
    #endif

    /// Random column tables over a random picture, every count from 0 to 41 (whole blocks of
    /// eight and remainders); widths 1 and 2 take the word path for every format, wider planar
    /// images the pairs.
    @Test("row sums equal interpolateEachPixel's", arguments: Self.formats)
    func rows(format: PixelFormat) throws {
        var random = SplitMix64(seed: 11)
        for (index, conversion) in Self.conversions.enumerated() {
            let (rounding, range, matrix) = conversion
            let width = [1, 2, 3, 37, 64][index % 5], height = 5
            let image = try Self.picture(
                format, width: width, height: height, rounding: rounding, range: range, matrix: matrix, seed: UInt64(index))
            for count in 0...41 {
                let table = RowTable(width: width, count: count, using: &random)
                let result = image.withPixelSource(RowComparison(table: table, row: count % height))
                #expect(result.fast == result.reference, "\(format) \(conversion) width \(width) count \(count)")
                #if arch(x86_64)
                    if count > 0 && count % 8 == 0 {
                        // The vector path writes the spare element (with 0), the per-pixel one
                        // never does: the requirement `SeparableSampler` calls reaches it.
                        #expect(result.spare == 0, "\(format) count \(count): the vector path was not taken")
                    }
                #endif
            }
        }
    }

    /// The whole preprocessing against the general path (`BilinearSampler`, per-pixel reads):
    /// what the separable path computes with the vector rows.
    @Test("preprocessing equals the general path for every conversion", arguments: Self.formats)
    func preprocessing(format: PixelFormat) throws {
        let regions = [RegionOfInterest.wholeImage, SeparableSamplerTests.regions[1], SeparableSamplerTests.regions[2]]
        var separableCount = 0, total = 0
        for (index, conversion) in Self.conversions.enumerated() {
            let (rounding, range, matrix) = conversion
            let image = try Self.picture(
                format, width: 99, height: 45, rounding: rounding, range: range, matrix: matrix, seed: 40 + UInt64(index))
            let region = regions[index % regions.count]
            for rotation in [0, 90, 180, 270] {
                for mirrored in [false, true] {
                    for size in [(width: 53, height: 37), (width: 24, height: 120)] {
                        let expected = SeparableSamplerTests.reference(
                            image, width: size.width, height: size.height, region: region, rotationDegrees: rotation,
                            mirrored: mirrored)
                        let result = try SeparableSamplerTests.preprocessed(
                            image, width: size.width, height: size.height, region: region, rotationDegrees: rotation,
                            mirrored: mirrored)
                        #expect(result.bytes == expected, "\(format) \(conversion) \(region) \(rotation)° \(mirrored) \(size)")
                        total += 1
                        separableCount += result.separable ? 1 : 0
                    }
                }
            }
        }
        #expect(separableCount * 2 > total, "only \(separableCount) of \(total) geometries took the separable path")
    }

    /// A random picture in `format` (rows padded by 3 bytes) with the given conversion.
    static func picture(
        _ format: PixelFormat, width: Int, height: Int, rounding: YUVRounding, range: YUVColorRange,
        matrix: YUVColorMatrix, seed: UInt64
    ) throws -> PixelImage {
        let picture = YUVPicture(format, width: width, height: height, seed: seed)
        let stride = YUVPicture.planeSizes(format, width: width, height: height)[0].rowBytes + 3
        return try PixelImage(
            copying: picture.contiguous(bytesPerRow: stride), width: width, height: height, bytesPerRow: stride,
            format: format, colorRange: range, colorMatrix: matrix
        ).withYUVRounding(rounding)
    }
}

/// A random horizontal table as `SeparableSampler.prepare` makes one: positions anywhere from
/// 2 pixels left of the image to 2 right of it (clamped neighbours at both edges), and its pairs.
private struct RowTable {
    let columns = NeighbourTable(), pairs = ColumnPairs()
    let count: Int

    init(width: Int, count: Int, using random: inout SplitMix64) {
        self.count = count
        columns.reserve(count)
        for index in 0..<count {
            columns.set(index, fixed: Int.random(in: -64...(32 * width + 64), using: &random), size: width)
        }
        pairs.fill(from: columns, count: count, width: width)
    }
}

/// One row interpolated through the `PixelSource` requirement (the path `SeparableSampler`
/// takes) and pixel by pixel.
private struct RowComparison: PixelSourceVisitor {
    let table: RowTable
    let row: Int

    func visit<Source: PixelSource>(_ source: Source) -> (fast: [Int16], reference: [Int16], spare: Int16) {
        let count = table.count, columns = table.columns
        func sums(_ body: (UnsafeMutablePointer<Int16>) -> Void) -> [Int16] {
            var sums = [Int16](repeating: -1, count: 3 * count + 1)
            sums.withUnsafeMutableBufferPointer { body($0.baseAddress!) }
            return sums
        }
        let taps = ColumnTaps(
            left: columns.first.pointer, right: columns.second.pointer, weightLeft: columns.firstWeight.pointer,
            weightRight: columns.secondWeight.pointer, count: count)
        let fast = sums { output in source.interpolate(row: row, taps: taps, pairs: table.pairs, into: output) }
        let reference = sums { output in source.interpolateEachPixel(row: row, taps: taps, into: output) }
        return (Array(fast.prefix(3 * count)), Array(reference.prefix(3 * count)), fast[3 * count])
    }
}
