/// Reads the red, green and blue of any pixel of an image, for the bilinear sampler.
///
/// A pixel is addressed by its row and its column, each prepared once (`row(_:)`,
/// `column(_:)`) and combined by `rgb(_:_:)`, so that the sampler's four neighbours share two
/// rows and two columns. YUV sources convert on every read (no RGB copy of the image is made):
/// each luma pixel takes the chroma sample that covers it (column `x / 2`; row `y / 2` for
/// 4:2:0; column `x`, row `y` for 4:4:4), without interpolating chroma.
protocol PixelSource {
    /// What a row address holds (a pointer per plane).
    associatedtype Row
    /// What a column address holds (byte offsets within the rows).
    associatedtype Column
    /// The address of row `y`, `0 <= y < height`.
    func row(_ y: Int) -> Row
    /// The address of column `x`, `0 <= x < width`.
    func column(_ x: Int) -> Column
    /// The red, green and blue (0...255) of the pixel at `row`, `column`.
    func rgb(_ row: Row, _ column: Column) -> (red: Int32, green: Int32, blue: Int32)
    /// Writes `left weightLeft + right weightRight` for red, green and blue of the column pairs
    /// `taps` of source row `y` into `sums` (3 per pair). Every sum is at most 255 · 32 = 8160.
    /// `pairs` holds the same columns as adjacent pairs (`ColumnPairs`). May also write
    /// `sums[3 taps.count]`.
    func interpolate(row y: Int, taps: ColumnTaps, pairs: ColumnPairs, into sums: UnsafeMutablePointer<Int16>)
}

/// The tabulated column pairs a row interpolation reads: for entry `i` (of `count`), the source
/// columns `left[i]` and `right[i]` with the weights `weightLeft[i]` and `weightRight[i]`, in
/// 1/32 (0...32, summing to 32).
struct ColumnTaps {
    let left: UnsafePointer<Int32>, right: UnsafePointer<Int32>
    let weightLeft: UnsafePointer<Int16>, weightRight: UnsafePointer<Int16>
    let count: Int

    /// The entries from `first` on.
    @inline(__always)
    func dropping(_ first: Int) -> ColumnTaps {
        ColumnTaps(
            left: left + first, right: right + first, weightLeft: weightLeft + first, weightRight: weightRight + first,
            count: count - first)
    }
}

extension PixelSource {
    /// `interpolate` pixel by pixel through `rgb`: the implementation of the RGB and gray
    /// sources, and the reference the YUV sources' vector path is tested against.
    @inline(__always)
    func interpolate(row y: Int, taps: ColumnTaps, pairs: ColumnPairs, into sums: UnsafeMutablePointer<Int16>) {
        interpolateEachPixel(row: y, taps: taps, into: sums)
    }

    /// `interpolate`'s sums, pixel by pixel (writing exactly `3 taps.count` elements).
    @inline(__always)
    func interpolateEachPixel(row y: Int, taps: ColumnTaps, into sums: UnsafeMutablePointer<Int16>) {
        let address = row(y)
        for index in 0..<taps.count {
            let leftWeight = Int32(taps.weightLeft[index]), rightWeight = Int32(taps.weightRight[index])
            let leftPixel = rgb(address, column(Int(taps.left[index])))
            let rightPixel = rgb(address, column(Int(taps.right[index])))
            let element = 3 &* index
            sums[element] = Int16(truncatingIfNeeded: leftPixel.red &* leftWeight &+ rightPixel.red &* rightWeight)
            sums[element &+ 1] = Int16(truncatingIfNeeded: leftPixel.green &* leftWeight &+ rightPixel.green &* rightWeight)
            sums[element &+ 2] = Int16(truncatingIfNeeded: leftPixel.blue &* leftWeight &+ rightPixel.blue &* rightWeight)
        }
    }
}

/// Something done with the `PixelSource` of an image, specialized for each source type.
protocol PixelSourceVisitor {
    associatedtype Result
    func visit<Source: PixelSource>(_ source: Source) -> Result
}

extension PixelImage {
    /// Calls `visitor` with the source that reads this image's format, valid during the call.
    func withPixelSource<Visitor: PixelSourceVisitor>(_ visitor: Visitor) -> Visitor.Result {
        withPlaneStarts { starts in
            let base = starts[0]
            switch format {
            case .rgba8:
                return visitor.visit(PackedRGBSource<RGBA8Layout>(base: base, bytesPerRow: bytesPerRow))
            case .rgb8:
                return visitor.visit(PackedRGBSource<RGB8Layout>(base: base, bytesPerRow: bytesPerRow))
            case .bgra8:
                return visitor.visit(PackedRGBSource<BGRA8Layout>(base: base, bytesPerRow: bytesPerRow))
            case .gray8:
                return visitor.visit(PackedRGBSource<Gray8Layout>(base: base, bytesPerRow: bytesPerRow))
            case .nv12, .nv21, .i420, .i444, .yuyv:
                return YUVToRGB.withConversion(for: colorRange, matrix: colorMatrix, rounding: yuvRounding) { conversion in
                    visitYUV(visitor, starts: starts, conversion: conversion)
                }
            }
        }
    }

    /// Calls `visitor` with the source of a YUV format.
    private func visitYUV<Visitor: PixelSourceVisitor>(
        _ visitor: Visitor, starts: PlaneStarts,
        conversion: YUVToRGB
    ) -> Visitor.Result {
        let plane = { (index: Int) in (starts[index], planes[index].bytesPerRow) }
        switch format {
        case .nv12, .nv21:
            let (luma, chroma) = (plane(0), plane(1))
            let uFirst = format == .nv12
            return visitor.visit(
                SemiPlanarYUVSource(
                    luma: luma.0, lumaBytesPerRow: luma.1, chroma: chroma.0,
                    chromaBytesPerRow: chroma.1, u: uFirst ? 0 : 1, v: uFirst ? 1 : 0,
                    conversion: conversion))
        case .i420, .i444:
            let (luma, u, v) = (plane(0), plane(1), plane(2))
            return visitor.visit(
                PlanarYUVSource(
                    luma: luma.0, lumaBytesPerRow: luma.1, u: u.0, uBytesPerRow: u.1,
                    v: v.0, vBytesPerRow: v.1, chromaShift: format == .i420 ? 1 : 0,
                    conversion: conversion))
        case .yuyv:
            return visitor.visit(PackedYUYVSource(base: starts[0], bytesPerRow: bytesPerRow, conversion: conversion))
        case .rgba8, .bgra8, .rgb8, .gray8:
            preconditionFailure("\(format) is not a YUV format")
        }
    }
}

/// Where red, green and blue lie within a packed pixel, known at compile time so that the
/// sampler is specialized for each layout.
protocol PackedPixelLayout {
    static var bytesPerPixel: Int { get }
    static var red: Int { get }
    static var green: Int { get }
    static var blue: Int { get }
}

enum RGBA8Layout: PackedPixelLayout {
    static var bytesPerPixel: Int { 4 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
}

enum RGB8Layout: PackedPixelLayout {
    static var bytesPerPixel: Int { 3 }
    static var red: Int { 0 }
    static var green: Int { 1 }
    static var blue: Int { 2 }
}

enum BGRA8Layout: PackedPixelLayout {
    static var bytesPerPixel: Int { 4 }
    static var red: Int { 2 }
    static var green: Int { 1 }
    static var blue: Int { 0 }
}

enum Gray8Layout: PackedPixelLayout {
    static var bytesPerPixel: Int { 1 }
    static var red: Int { 0 }
    static var green: Int { 0 }
    static var blue: Int { 0 }
}

/// RGBA, BGRA, RGB and gray: the channels at `Layout`'s offsets within each pixel.
struct PackedRGBSource<Layout: PackedPixelLayout>: PixelSource {
    let base: UnsafePointer<UInt8>
    let bytesPerRow: Int

    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt8> { base + y &* bytesPerRow }

    @inline(__always)
    func column(_ x: Int) -> Int { x &* Layout.bytesPerPixel }

    @inline(__always)
    func rgb(_ row: UnsafePointer<UInt8>, _ column: Int) -> (red: Int32, green: Int32, blue: Int32) {
        (Int32(row[column &+ Layout.red]), Int32(row[column &+ Layout.green]), Int32(row[column &+ Layout.blue]))
    }
}

/// NV12 and NV21: a Y plane and a plane of interleaved chroma pairs (U at `u`, V at `v`).
struct SemiPlanarYUVSource: YUVPairSource {
    let luma: UnsafePointer<UInt8>, lumaBytesPerRow: Int
    let chroma: UnsafePointer<UInt8>, chromaBytesPerRow: Int
    let u: Int, v: Int
    let conversion: YUVToRGB

    @inline(__always)
    func row(_ y: Int) -> (luma: UnsafePointer<UInt8>, chroma: UnsafePointer<UInt8>) {
        (luma + y * lumaBytesPerRow, chroma + (y >> 1) * chromaBytesPerRow)
    }

    @inline(__always)
    func column(_ x: Int) -> (luma: Int, chroma: Int) { (x, (x >> 1) << 1) }

    @inline(__always)
    func rgb(
        _ row: (luma: UnsafePointer<UInt8>, chroma: UnsafePointer<UInt8>),
        _ column: (luma: Int, chroma: Int)
    ) -> (red: Int32, green: Int32, blue: Int32) {
        conversion.rgb(y: row.luma[column.luma], u: row.chroma[column.chroma + u], v: row.chroma[column.chroma + v])
    }

    @inline(__always)
    func pairBytes(_ row: (luma: UnsafePointer<UInt8>, chroma: UnsafePointer<UInt8>), left: Int, right: Int) -> UInt64 {
        let leftChroma = row.chroma + ((left >> 1) << 1), rightChroma = row.chroma + ((right >> 1) << 1)
        return packedPair(
            y: (row.luma[left], row.luma[right]), u: (leftChroma[u], rightChroma[u]), v: (leftChroma[v], rightChroma[v]))
    }
}

/// I420 and I444: Y, U and V planes, chroma at half width and half height (`chromaShift` 1)
/// or at full resolution (`chromaShift` 0).
struct PlanarYUVSource: YUVPairSource {
    let luma: UnsafePointer<UInt8>, lumaBytesPerRow: Int
    let u: UnsafePointer<UInt8>, uBytesPerRow: Int
    let v: UnsafePointer<UInt8>, vBytesPerRow: Int
    /// log2 of the chroma subsampling, the same horizontally and vertically.
    let chromaShift: Int
    let conversion: YUVToRGB

    @inline(__always)
    func row(_ y: Int) -> (luma: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>) {
        let chromaRow = y >> chromaShift
        return (luma + y * lumaBytesPerRow, u + chromaRow * uBytesPerRow, v + chromaRow * vBytesPerRow)
    }

    @inline(__always)
    func column(_ x: Int) -> (luma: Int, chroma: Int) { (x, x >> chromaShift) }

    @inline(__always)
    func rgb(
        _ row: (luma: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>),
        _ column: (luma: Int, chroma: Int)
    ) -> (red: Int32, green: Int32, blue: Int32) {
        conversion.rgb(y: row.luma[column.luma], u: row.u[column.chroma], v: row.v[column.chroma])
    }

    @inline(__always)
    func pairBytes(
        _ row: (luma: UnsafePointer<UInt8>, u: UnsafePointer<UInt8>, v: UnsafePointer<UInt8>), left: Int, right: Int
    ) -> UInt64 {
        let leftChroma = left &>> chromaShift, rightChroma = right &>> chromaShift
        return packedPair(
            y: (row.luma[left], row.luma[right]), u: (row.u[leftChroma], row.u[rightChroma]),
            v: (row.v[leftChroma], row.v[rightChroma]))
    }
}

/// YUYV: Y0, U, Y1, V per pair of pixels in one plane.
struct PackedYUYVSource: YUVPairSource {
    let base: UnsafePointer<UInt8>
    let bytesPerRow: Int
    let conversion: YUVToRGB

    @inline(__always)
    func row(_ y: Int) -> UnsafePointer<UInt8> { base + y * bytesPerRow }

    /// The luma byte (`2x`) and the pair's first byte (`4 (x / 2)`).
    @inline(__always)
    func column(_ x: Int) -> (luma: Int, pair: Int) { (x << 1, (x >> 1) << 2) }

    @inline(__always)
    func rgb(_ row: UnsafePointer<UInt8>, _ column: (luma: Int, pair: Int)) -> (red: Int32, green: Int32, blue: Int32) {
        conversion.rgb(y: row[column.luma], u: row[column.pair + 1], v: row[column.pair + 3])
    }

    @inline(__always)
    func pairBytes(_ row: UnsafePointer<UInt8>, left: Int, right: Int) -> UInt64 {
        let leftPair = row + ((left >> 1) << 2), rightPair = row + ((right >> 1) << 2)
        return packedPair(y: (row[left << 1], row[right << 1]), u: (leftPair[1], rightPair[1]), v: (leftPair[3], rightPair[3]))
    }
}

/// The word `YUVPairSource.pairBytes` returns.
@inline(__always)
private func packedPair(y: (UInt8, UInt8), u: (UInt8, UInt8), v: (UInt8, UInt8)) -> UInt64 {
    func pair(_ bytes: (UInt8, UInt8)) -> UInt64 { UInt64(bytes.0) | UInt64(bytes.1) << 8 }
    return pair(y) | pair(u) << 16 | pair(v) << 32
}
