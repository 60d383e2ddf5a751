/// OpenCV's fixed-point bilinear sampling (`INTER_LINEAR`, `BORDER_REPLICATE`) over a
/// `SamplingGeometry`, position by position: the general path, for maps whose source x and y
/// do not each follow one tensor axis (see `SeparableSampler` for those), and the reference
/// the separable path is tested against.
enum BilinearSampler {
    /// Source positions are kept in 1/32 pixel (OpenCV's `INTER_BITS` = 5).
    static let fractionBits = 5

    /// Samples every tensor pixel of `image` and hands it to `writer`.
    ///
    /// Each of the four neighbours is read as red, green and blue through the image's
    /// `PixelSource` (YUV converted on the fly), so the result is the one the same image
    /// converted to RGB8 beforehand would give. See `sample(_:width:height:geometry:tensorWidth:tensorHeight:positions:writer:)`.
    static func sample<Writer: TensorPixelWriter>(
        _ image: PixelImage, geometry: SamplingGeometry,
        tensorWidth: Int, tensorHeight: Int, buffers: PreprocessingBuffers,
        writer: Writer
    ) {
        buffers.positions.0.reserve(tensorWidth)
        buffers.positions.1.reserve(tensorWidth)
        image.withPixelSource(
            Sampling(
                width: image.width, height: image.height, geometry: geometry,
                tensorWidth: tensorWidth, tensorHeight: tensorHeight,
                positions: (buffers.positions.0.pointer, buffers.positions.1.pointer), writer: writer))
    }

    /// The sampling of one image, specialized for its pixel source.
    private struct Sampling<Writer: TensorPixelWriter>: PixelSourceVisitor {
        let width: Int, height: Int
        let geometry: SamplingGeometry
        let tensorWidth: Int, tensorHeight: Int
        let positions: (x: UnsafeMutablePointer<Int>, y: UnsafeMutablePointer<Int>)
        let writer: Writer

        func visit<Source: PixelSource>(_ source: Source) {
            BilinearSampler.sample(
                source, width: width, height: height, geometry: geometry,
                tensorWidth: tensorWidth, tensorHeight: tensorHeight, positions: positions, writer: writer)
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
    /// is held at a time, in `positions` (`tensorWidth` each).
    static func sample<Source: PixelSource, Writer: TensorPixelWriter>(
        _ source: Source, width: Int, height: Int, geometry: SamplingGeometry,
        tensorWidth: Int, tensorHeight: Int, positions: (x: UnsafeMutablePointer<Int>, y: UnsafeMutablePointer<Int>),
        writer: Writer
    ) {
        let maxX = width - 1, maxY = height - 1
        // In a mirrored map x becomes maxX - x: in fixed point, 32 * maxX - X.
        let mirrored = geometry.mirrored
        let mirrorX = mirrored ? maxX << fractionBits : 0
        let fractionMask = (1 << fractionBits) - 1
        let one = Int32(1 << fractionBits)
        let map = SourcePositions(matrix: geometry.matrix, tensorWidth: tensorWidth, tensorHeight: tensorHeight)
        let (rowX, rowY) = positions

        for v in 0..<tensorHeight {
            map.fill(row: v, x: rowX, y: rowY)
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
                writer.write(
                    pixel: v * tensorWidth + u,
                    red: interpolate(topLeft.red, topRight.red, bottomLeft.red, bottomRight.red),
                    green: interpolate(topLeft.green, topRight.green, bottomLeft.green, bottomRight.green),
                    blue: interpolate(topLeft.blue, topRight.blue, bottomLeft.blue, bottomRight.blue))
            }
        }
    }
}

/// The source position of each tensor pixel in 1/32 pixel, computed with the arithmetic of
/// OpenCV's `warpPerspective` (`INTER_LINEAR`): per row, in column blocks whose width
/// depends on the tensor size, `X = cvRound(32 (x0 + m0 k) / (w0 + m6 k))` for the k-th
/// column of a block, half to even.
///
/// When each source axis follows one tensor axis, `SeparableSampler` tabulates them instead
/// (after checking, position by position, that they do).
struct SourcePositions {
    private let m: [Double]
    private let tensorWidth: Int
    private let blockWidth: Int

    init(matrix: [Double], tensorWidth: Int, tensorHeight: Int) {
        m = matrix
        self.tensorWidth = tensorWidth
        // warpPerspective's blocks: at most 32 x 32 = 1024 pixels, at most 16 rows.
        blockWidth = min(1024 / min(16, tensorHeight), tensorWidth)
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

    /// Writes the positions of tensor row `row` into `x` and `y` (`tensorWidth` each),
    /// computing each one.
    func fill(row: Int, x: UnsafeMutablePointer<Int>, y: UnsafeMutablePointer<Int>) {
        for column in 0..<tensorWidth {
            (x[column], y[column]) = position(column: column, row: row)
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
