/// The horizontal neighbour table recast as pairs of adjacent pixels, so that the planar YUV
/// path reads each column's two luma bytes, and its two chroma bytes of each plane, with one
/// 16-bit load each (`PlanarYUVSource`).
///
/// A column whose neighbours are `left` and `left + 1` keeps them and their weights. A clamped
/// column (both neighbours the same pixel `x`, weights summing to 32) becomes the pair
/// `(x, x + 1)` weighted `(32, 0)`, or `(x − 1, x)` weighted `(0, 32)` at the right edge: the
/// same sums, since the pixel it adds has weight 0. For 4:2:0 chroma the pair `(p, p + 1)`
/// covers chroma columns `p / 2` and `(p + 1) / 2`, the same one or adjacent ones; the load
/// starts at `chromaStart` (kept inside the chroma row) and the masks say which of its two
/// bytes each pixel takes.
final class ColumnPairs {
    /// Per column: the pair's first pixel `p` (the pair is `p`, `p + 1`).
    let start = Scratch<Int32>()
    /// The weights of `p` and `p + 1` (in 1/32, summing to 32).
    let weightLeft = Scratch<Int16>(), weightRight = Scratch<Int16>()
    /// 4:2:0: where the 16-bit load of the pair's chroma starts in a chroma row.
    let chromaStart = Scratch<Int32>()
    /// 4:2:0: -1 when pixel `p` (`leftHigh`) or `p + 1` (`rightHigh`) takes the load's second
    /// byte, 0 when it takes the first.
    let leftHigh = Scratch<Int16>(), rightHigh = Scratch<Int16>()
    /// Whether the tables hold pairs: the image is at least 3 pixels wide (2 chroma columns).
    private(set) var available = false

    /// Fills the tables from the first `count` entries of `columns` for an image `width`
    /// pixels wide.
    ///
    /// - Precondition: each entry's second neighbour is its first or the next pixel (as
    ///   `NeighbourTable.set` makes them).
    func fill(from columns: NeighbourTable, count: Int, width: Int) {
        available = width >= 3
        guard available else { return }
        for table in [start, chromaStart] { table.reserve(count) }
        for table in [weightLeft, weightRight, leftHigh, rightHigh] { table.reserve(count) }
        let chromaWidth = (width + 1) / 2
        for index in 0..<count {
            let left = Int(columns.first.pointer[index]), right = Int(columns.second.pointer[index])
            let weights = (columns.firstWeight.pointer[index], columns.secondWeight.pointer[index])
            precondition(right == left || right == left + 1, "columns \(left) and \(right) are not neighbours")
            let pair: (start: Int, weights: (Int16, Int16)) =
                right == left + 1
                ? (left, weights)
                : left + 1 < width ? (left, (weights.0 + weights.1, 0)) : (left - 1, (0, weights.0 + weights.1))
            start.pointer[index] = Int32(pair.start)
            (weightLeft.pointer[index], weightRight.pointer[index]) = pair.weights
            let chroma = pair.start >> 1
            let (chromaPair, high): (Int, (Int16, Int16)) =
                pair.start & 1 == 1
                ? (chroma, (0, -1))  // p odd: chroma columns p / 2 and p / 2 + 1
                : chroma + 1 < chromaWidth ? (chroma, (0, 0)) : (chroma - 1, (-1, -1))
            chromaStart.pointer[index] = Int32(chromaPair)
            (leftHigh.pointer[index], rightHigh.pointer[index]) = high
        }
    }
}
