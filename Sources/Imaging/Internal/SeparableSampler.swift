/// `BilinearSampler`'s arithmetic, bit for bit, for the maps where source x follows one tensor
/// axis and source y the other: every rotation by a multiple of 90°, mirrored or not, of the
/// whole image or an axis-aligned region, unless the matrix's rounding noise moves an exact
/// 1/32-pixel tie in some rows or columns only.
///
/// Whether a map is such is checked, not assumed: `prepare` computes every position once with
/// `SourcePositions` (OpenCV's arithmetic, noise included) and compares it with the first row's
/// and column's. The positions are then tabulated: per tensor pixel along the axis that gives
/// x, the clamped left and right source columns and the fraction fx; along the other, the
/// clamped top and bottom rows and fy (as weights, see `NeighbourTable`). Sampling goes by source row pairs: a source row is
/// interpolated horizontally once into sums `left (32 - fx) + right fx` (`PixelSource`'s
/// `interpolate`, kept while the next tensor row still needs it), and each tensor row (or column, for 90° and 270°) is finished
/// from two such rows by `(upper (32 - fy) + lower fy + 512) >> 10`. The integer sums are the
/// ones the general path forms per pixel (exact, so their order does not matter; at most 8160
/// after the first step, 261,120 after the second), and a zero fy needs only the upper row.
enum SeparableSampler {
    /// Tabulates the positions of `geometry` in `buffers`, or returns nil when source x and y
    /// do not each follow one tensor axis (then the general path samples it).
    static func prepare(
        _ geometry: SamplingGeometry, imageWidth: Int, imageHeight: Int,
        tensorWidth: Int, tensorHeight: Int, buffers: PreprocessingBuffers
    ) -> PreprocessingBuffers.Plan? {
        let positions = SourcePositions(matrix: geometry.matrix, tensorWidth: tensorWidth, tensorHeight: tensorHeight)
        // x and y along the first tensor row (at 0..<tensorWidth) and column (after them).
        buffers.positions.0.reserve(tensorWidth + tensorHeight)
        buffers.positions.1.reserve(tensorWidth + tensorHeight)
        let x = buffers.positions.0.pointer, y = buffers.positions.1.pointer
        for column in 0..<tensorWidth {
            (x[column], y[column]) = positions.position(column: column, row: 0)
        }
        for row in 0..<tensorHeight {
            (x[tensorWidth + row], y[tensorWidth + row]) = positions.position(column: 0, row: row)
        }
        // Upright or 180°: x by column, y by row. 90° or 270°: x by row, y by column.
        var upright = true, turned = true
        check: for row in 0..<tensorHeight {
            for column in 0..<tensorWidth {
                let position = row == 0 ? (x: x[column], y: y[column]) : positions.position(column: column, row: row)
                upright = upright && position.x == x[column] && position.y == y[tensorWidth + row]
                turned = turned && position.x == x[tensorWidth + row] && position.y == y[column]
                if !upright && !turned { break check }
            }
        }
        guard upright || turned else { return nil }
        let transposed = !upright
        let columnCount = transposed ? tensorHeight : tensorWidth
        let rowCount = transposed ? tensorWidth : tensorHeight
        buffers.columns.reserve(columnCount)
        buffers.rows.reserve(rowCount)
        // One spare element: `PixelSource.interpolate` may write it.
        buffers.interpolated.0.reserve(3 * columnCount + 1)
        buffers.interpolated.1.reserve(3 * columnCount + 1)
        // In a mirrored map x becomes maxX - x: in fixed point, 32 * maxX - X.
        let mirrorX = (imageWidth - 1) << BilinearSampler.fractionBits
        for index in 0..<columnCount {
            let fixed = transposed ? x[tensorWidth + index] : x[index]
            buffers.columns.set(index, fixed: geometry.mirrored ? mirrorX - fixed : fixed, size: imageWidth)
        }
        for index in 0..<rowCount {
            buffers.rows.set(index, fixed: transposed ? y[index] : y[tensorWidth + index], size: imageHeight)
        }
        buffers.columnPairs.fill(from: buffers.columns, count: columnCount, width: imageWidth)
        var firstColumn = imageWidth, lastColumn = 0
        for index in 0..<columnCount {
            firstColumn = min(firstColumn, Int(buffers.columns.first.pointer[index]))
            lastColumn = max(lastColumn, Int(buffers.columns.second.pointer[index]))
        }
        let columns = firstColumn..<(lastColumn + 1)
        buffers.blendedRow.reserve(columns.count * 4 + 8)
        buffers.columnWeights.reserve(columnCount)
        for index in 0..<columnCount {
            let pair = SIMD2<Int16>(buffers.columns.firstWeight.pointer[index], buffers.columns.secondWeight.pointer[index])
            buffers.columnWeights.pointer[index] = SIMD8<Int16>(
                lowHalf: SIMD4(lowHalf: pair, highHalf: pair),
                highHalf: SIMD4(lowHalf: pair, highHalf: pair))
        }
        return .separable(transposed: transposed, columns: columns)
    }

    /// Samples `image` with the tables `prepare` left in `buffers` and hands the pixels to
    /// `writer`: RGB8, RGBA8 and BGRA8 through `PackedRowSampler`, the other formats here.
    static func sample<Writer: TensorPixelWriter>(
        _ image: PixelImage, transposed: Bool, columns: Range<Int>, tensorWidth: Int,
        tensorHeight: Int, buffers: PreprocessingBuffers, writer: Writer
    ) {
        switch image.format {
        case .rgb8:
            PackedRowSampler<RGB8Layout, Writer>(
                image: image, transposed: transposed, columns: columns, tensorWidth: tensorWidth,
                tensorHeight: tensorHeight, buffers: buffers, writer: writer
            ).run()
        case .rgba8:
            PackedRowSampler<RGBA8Layout, Writer>(
                image: image, transposed: transposed, columns: columns, tensorWidth: tensorWidth,
                tensorHeight: tensorHeight, buffers: buffers, writer: writer
            ).run()
        case .bgra8:
            PackedRowSampler<BGRA8Layout, Writer>(
                image: image, transposed: transposed, columns: columns, tensorWidth: tensorWidth,
                tensorHeight: tensorHeight, buffers: buffers, writer: writer
            ).run()
        case .gray8, .nv12, .nv21, .i420, .i444, .yuyv:
            image.withPixelSource(
                Sampling(
                    transposed: transposed, tensorWidth: tensorWidth, tensorHeight: tensorHeight,
                    buffers: buffers, writer: writer))
        }
    }

    /// The sampling of one image, specialized for its pixel source.
    private struct Sampling<Writer: TensorPixelWriter>: PixelSourceVisitor {
        let transposed: Bool
        let tensorWidth: Int, tensorHeight: Int
        let buffers: PreprocessingBuffers
        let writer: Writer

        func visit<Source: PixelSource>(_ source: Source) {
            let columnCount = transposed ? tensorHeight : tensorWidth
            let rowCount = transposed ? tensorWidth : tensorHeight
            let columns = buffers.columns, rows = buffers.rows
            let taps = ColumnTaps(
                left: columns.first.pointer, right: columns.second.pointer, weightLeft: columns.firstWeight.pointer,
                weightRight: columns.secondWeight.pointer, count: columnCount)
            let top = rows.first.pointer, bottom = rows.second.pointer
            let weightTop = rows.firstWeight.pointer, weightBottom = rows.secondWeight.pointer
            let sums = (buffers.interpolated.0.pointer, buffers.interpolated.1.pointer)
            // The source row whose sums each buffer holds (-1: none yet).
            var held = (-1, -1)

            /// The buffer holding the sums of source row `y`, interpolating it into the buffer
            /// that does not hold `keep` when neither holds it.
            @inline(__always)
            func interpolated(_ y: Int, keeping keep: Int) -> UnsafeMutablePointer<Int16> {
                if held.0 == y { return sums.0 }
                if held.1 == y { return sums.1 }
                let intoFirst = held.0 != keep
                let target = intoFirst ? sums.0 : sums.1
                source.interpolate(row: y, taps: taps, pairs: buffers.columnPairs, into: target)
                if intoFirst { held.0 = y } else { held.1 = y }
                return target
            }

            for index in 0..<rowCount {
                let upperRow = Int(top[index]), lowerRow = Int(bottom[index])
                let upperWeight = Int32(weightTop[index]), lowerWeight = Int32(weightBottom[index])
                let upper = interpolated(upperRow, keeping: lowerRow)
                // A lower row of weight 0 (a zero fraction, or the edge) need not be read.
                let lower = lowerWeight == 0 ? upper : interpolated(lowerRow, keeping: upperRow)
                // Not transposed: tensor row `index`, pixels left to right. Transposed: tensor
                // column `index`, pixels top to bottom.
                writer.writeRun(
                    pixel: transposed ? index : index * tensorWidth, stride: transposed ? tensorWidth : 1,
                    count: columnCount, upper: upper, lower: lower, weightUpper: upperWeight,
                    weightLower: lowerWeight)
            }
        }
    }
}
