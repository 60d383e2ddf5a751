/// Receives the sampled red, green and blue bytes of each tensor pixel.
protocol TensorPixelWriter {
    /// Writes the pixel with flat index `pixel` (`v * width + u`); values are 0...255.
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32)
}

/// Writes `UInt8` elements.
struct ByteWriter: TensorPixelWriter {
    let tensor: UnsafeMutableRawBufferPointer

    @inline(__always)
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel * 3
        base.storeBytes(of: UInt8(truncatingIfNeeded: red), as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: green), toByteOffset: 1, as: UInt8.self)
        base.storeBytes(of: UInt8(truncatingIfNeeded: blue), toByteOffset: 2, as: UInt8.self)
    }
}

/// Writes `Float` elements looked up in a 256-entry table.
struct FloatWriter: TensorPixelWriter {
    let tensor: UnsafeMutableRawBufferPointer
    let table: UnsafeBufferPointer<Float>

    @inline(__always)
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel * 12
        let values = table.baseAddress.unsafelyUnwrapped
        base.storeBytes(of: values[Int(red)], as: Float.self)
        base.storeBytes(of: values[Int(green)], toByteOffset: 4, as: Float.self)
        base.storeBytes(of: values[Int(blue)], toByteOffset: 8, as: Float.self)
    }
}

/// OpenCV's fixed-point bilinear sampling (`INTER_LINEAR`, `BORDER_REPLICATE`) over a
/// `SamplingGeometry`.
enum BilinearSampler {
    /// Source positions are kept in 1/32 pixel (OpenCV's `INTER_BITS` = 5).
    static let fractionBits = 5

    /// Samples every tensor pixel of `image` and hands it to `writer`.
    ///
    /// Each of the four neighbours is read as red, green and blue through the image's
    /// `PixelSource` (YUV converted on the fly), so the result is the one the same image
    /// converted to RGB8 beforehand would give. See `sample(_:width:height:geometry:tensorWidth:tensorHeight:writer:)`.
    static func sample<Writer: TensorPixelWriter>(_ image: PixelImage, geometry: SamplingGeometry,
                                                  tensorWidth: Int, tensorHeight: Int, writer: Writer) {
        image.withPixelSource(Sampling(width: image.width, height: image.height, geometry: geometry,
                                       tensorWidth: tensorWidth, tensorHeight: tensorHeight, writer: writer))
    }

    /// The sampling of one image, specialized for its pixel source.
    private struct Sampling<Writer: TensorPixelWriter>: PixelSourceVisitor {
        let width: Int, height: Int
        let geometry: SamplingGeometry
        let tensorWidth: Int, tensorHeight: Int
        let writer: Writer

        func visit<Source: PixelSource>(_ source: Source) {
            BilinearSampler.sample(source, width: width, height: height, geometry: geometry,
                                   tensorWidth: tensorWidth, tensorHeight: tensorHeight, writer: writer)
        }
    }

    /// Samples every tensor pixel of a `width` x `height` source and hands it to `writer`.
    ///
    /// Source positions come from `SourcePositions` (OpenCV's `warpPerspective` arithmetic,
    /// in 1/32 pixel). The integer part picks the top-left neighbour and the 1/32 fractions
    /// `fx`, `fy` weight the four neighbours with `(32 - fx)(32 - fy)`, `fx(32 - fy)`,
    /// `(32 - fx)fy`, `fx fy` (OpenCV's 15-bit weights divided by 32, which are exact),
    /// rounding the sum to nearest, for red, green and blue separately. Neighbours outside the
    /// image take the nearest edge pixel (each coordinate clamped). Only one row of positions
    /// is held at a time.
    static func sample<Source: PixelSource, Writer: TensorPixelWriter>(
        _ source: Source, width: Int, height: Int, geometry: SamplingGeometry,
        tensorWidth: Int, tensorHeight: Int, writer: Writer
    ) {
        let maxX = width - 1, maxY = height - 1
        // In a mirrored map x becomes maxX - x: in fixed point, 32 * maxX - X.
        let mirrored = geometry.mirrored
        let mirrorX = mirrored ? maxX << fractionBits : 0
        let fractionMask = (1 << fractionBits) - 1
        let one = Int32(1 << fractionBits)
        let positions = SourcePositions(matrix: geometry.matrix, tensorWidth: tensorWidth, tensorHeight: tensorHeight)
        var rowX = [Int](repeating: 0, count: tensorWidth), rowY = [Int](repeating: 0, count: tensorWidth)

        for v in 0..<tensorHeight {
            positions.fill(row: v, x: &rowX, y: &rowY)
            rowX.withUnsafeBufferPointer { rowX in
                rowY.withUnsafeBufferPointer { rowY in
                    for u in 0..<tensorWidth {
                        let fixedX = mirrored ? mirrorX - rowX[u] : rowX[u], fixedY = rowY[u]
                        let sourceX = fixedX >> fractionBits, sourceY = fixedY >> fractionBits
                        let fractionX = Int32(fixedX & fractionMask), fractionY = Int32(fixedY & fractionMask)
                        let left = source.column(min(max(sourceX, 0), maxX))
                        let right = source.column(min(max(sourceX + 1, 0), maxX))
                        let top = source.row(min(max(sourceY, 0), maxY))
                        let bottom = source.row(min(max(sourceY + 1, 0), maxY))
                        let topLeft = source.rgb(top, left), topRight = source.rgb(top, right)
                        let bottomLeft = source.rgb(bottom, left), bottomRight = source.rgb(bottom, right)
                        let weightLeft = one - fractionX, weightTop = one - fractionY

                        @inline(__always)
                        func interpolate(_ topLeft: Int32, _ topRight: Int32, _ bottomLeft: Int32, _ bottomRight: Int32) -> Int32 {
                            let upper = topLeft * weightLeft + topRight * fractionX
                            let lower = bottomLeft * weightLeft + bottomRight * fractionX
                            // (sum of 15-bit weights x values + 2^14) >> 15, with the weights / 32.
                            return (upper * weightTop + lower * fractionY + 512) >> 10
                        }
                        writer.write(pixel: v * tensorWidth + u,
                                     red: interpolate(topLeft.red, topRight.red, bottomLeft.red, bottomRight.red),
                                     green: interpolate(topLeft.green, topRight.green, bottomLeft.green, bottomRight.green),
                                     blue: interpolate(topLeft.blue, topRight.blue, bottomLeft.blue, bottomRight.blue))
                    }
                }
            }
        }
    }
}

/// The source position of each tensor pixel in 1/32 pixel, computed with the arithmetic of
/// OpenCV's `warpPerspective` (`INTER_LINEAR`): per row, in column blocks whose width
/// depends on the tensor size, `X = cvRound(32 (x0 + m0 k) / (w0 + m6 k))` for the k-th
/// column of a block, half to even.
///
/// When the matrix has no perspective terms and each source axis follows one tensor axis
/// (every multiple of 90° whose rounding noise left the cross terms exactly 0), one axis is
/// tabulated per column once and the other computed once per row: the same values, without
/// per-pixel floating point.
struct SourcePositions {
    private let m: [Double]
    private let tensorWidth: Int
    private let blockWidth: Int
    private var layout: Layout

    private enum Layout {
        /// Every position computed per pixel.
        case general
        /// x depends only on the tensor column (tabulated), y only on the row.
        case xByColumn([Int])
        /// y depends only on the tensor column (tabulated), x only on the row.
        case yByColumn([Int])
    }

    init(matrix: [Double], tensorWidth: Int, tensorHeight: Int) {
        m = matrix
        self.tensorWidth = tensorWidth
        // warpPerspective's blocks: at most 32 x 32 = 1024 pixels, at most 16 rows.
        blockWidth = min(1024 / min(16, tensorHeight), tensorWidth)
        layout = .general
        let affine = matrix[6] == 0 && matrix[7] == 0
        if affine && matrix[1] == 0 && matrix[3] == 0 {
            layout = .xByColumn((0..<tensorWidth).map { position(column: $0, row: 0).x })
        } else if affine && matrix[0] == 0 && matrix[4] == 0 {
            layout = .yByColumn((0..<tensorWidth).map { position(column: $0, row: 0).y })
        }
    }

    /// The position of tensor pixel (`column`, `row`), exactly as OpenCV computes it.
    func position(column: Int, row: Int) -> (x: Int, y: Int) {
        let blockStart = Double(column / blockWidth * blockWidth), offset = Double(column % blockWidth)
        let rowValue = Double(row)
        let x0 = m[0] * blockStart + m[1] * rowValue + m[2]
        let y0 = m[3] * blockStart + m[4] * rowValue + m[5]
        let w0 = m[6] * blockStart + m[7] * rowValue + m[8]
        var w = w0 + m[6] * offset
        w = w != 0 ? Double(1 << BilinearSampler.fractionBits) / w : 0
        return (Self.rounded((x0 + m[0] * offset) * w), Self.rounded((y0 + m[3] * offset) * w))
    }

    /// Writes the positions of tensor row `row` into `x` and `y` (`tensorWidth` each).
    func fill(row: Int, x: inout [Int], y: inout [Int]) {
        switch layout {
        case .general:
            for column in 0..<tensorWidth {
                (x[column], y[column]) = position(column: column, row: row)
            }
        case let .xByColumn(table):
            let rowY = position(column: 0, row: row).y
            for column in 0..<tensorWidth {
                x[column] = table[column]
                y[column] = rowY
            }
        case let .yByColumn(table):
            let rowX = position(column: 0, row: row).x
            for column in 0..<tensorWidth {
                x[column] = rowX
                y[column] = table[column]
            }
        }
    }

    /// OpenCV's `saturate_cast<int>` of a double: clamped to the `Int32` range, rounded half
    /// to even (`cvRound`).
    @inline(__always)
    static func rounded(_ value: Double) -> Int {
        guard !value.isNaN else { return 0 }
        return Int(min(max(value, Double(Int32.min)), Double(Int32.max)).rounded(.toNearestOrEven))
    }
}
