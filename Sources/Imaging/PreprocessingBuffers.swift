/// Memory the preprocessing keeps from one image to the next, so that classifying an image
/// allocates nothing once the first image of a size was seen: the sampling tables of the last
/// geometry (source columns and rows with their 1/32 fractions), the two rows of horizontally
/// interpolated values, and the rows of positions of the general path.
///
/// The tables are reused as they are when the next image has the same size, region, rotation
/// and tensor size (a video, a benchmark, a folder of photos from one camera); another
/// geometry recomputes them in place, growing the memory only for a larger tensor.
///
/// Not `Sendable`: one owner at a time (the classifier engine, which serializes its calls).
package final class PreprocessingBuffers {
    /// What the tables were computed for.
    struct Key: Equatable {
        var imageWidth: Int, imageHeight: Int
        var tensorWidth: Int, tensorHeight: Int
        var region: RegionOfInterest
        var rotationDegrees: Int
        var mirrored: Bool
    }

    /// How the last geometry is sampled.
    enum Plan {
        /// Source x follows one tensor axis and source y the other: the tables in `columns` and
        /// `rows` hold them (see `SeparableSampler`); `columns` is the span of source columns
        /// the table names.
        case separable(transposed: Bool, columns: Range<Int>)
        /// Positions computed per pixel (`BilinearSampler`'s general path).
        case general(SamplingGeometry)
    }

    /// The key and plan of the tables, nil before the first image.
    var current: (key: Key, plan: Plan)?

    /// Per source column used (one entry per tensor pixel along the axis that gives x): the
    /// clamped left and right neighbour columns and their weights.
    let columns = NeighbourTable()
    /// The same columns as pairs of adjacent pixels (the planar YUV sources).
    let columnPairs = ColumnPairs()
    /// The same for source rows: clamped top and bottom rows and their weights.
    let rows = NeighbourTable()
    /// Two rows of horizontally interpolated red, green, blue sums (3 per tensor pixel), and one
    /// spare element (the YUV sources' vector path stores pixels as 4 elements).
    let interpolated = (Scratch<Int16>(), Scratch<Int16>())
    /// One row of vertically interpolated bytes over the column span, and 8 spare elements
    /// (`PackedRowSampler`).
    let blendedRow = Scratch<Int16>()
    /// Per tensor pixel along the x axis, its left and right column weights, four times
    /// (`PackedRowSampler`).
    let columnWeights = Scratch<SIMD8<Int16>>()
    /// One row of fixed-point source x and y for the general path.
    let positions = (Scratch<Int>(), Scratch<Int>())

    package init() {}
}

/// Neighbour indices and weights along one axis.
final class NeighbourTable {
    /// The first (left or top) and second (right or bottom) neighbour, clamped to the axis.
    let first = Scratch<Int32>()
    let second = Scratch<Int32>()
    /// Their weights in 1/32, summing to 32: `32 - f` and `f` for the fraction `f`, or 32 and 0
    /// when clamping made both neighbours the same pixel (the same sum, and the second
    /// neighbour need not be read).
    let firstWeight = Scratch<Int16>()
    let secondWeight = Scratch<Int16>()

    /// Makes room for `count` entries (allocating only to grow).
    func reserve(_ count: Int) {
        first.reserve(count)
        second.reserve(count)
        firstWeight.reserve(count)
        secondWeight.reserve(count)
    }

    /// Stores entry `index` for the fixed-point position `fixed` (1/32 pixel) on an axis of
    /// `size` pixels: the neighbours `floor(fixed / 32)` and the next, each clamped to the
    /// axis (OpenCV's `BORDER_REPLICATE`), weighted by the fraction `fixed mod 32`.
    @inline(__always)
    func set(_ index: Int, fixed: Int, size: Int) {
        let whole = fixed >> BilinearSampler.fractionBits
        let one = 1 << BilinearSampler.fractionBits
        let fraction = fixed & (one - 1)
        let firstIndex = min(max(whole, 0), size - 1), secondIndex = min(max(whole + 1, 0), size - 1)
        first.pointer[index] = Int32(firstIndex)
        second.pointer[index] = Int32(secondIndex)
        let same = firstIndex == secondIndex
        firstWeight.pointer[index] = Int16(same ? one : one - fraction)
        secondWeight.pointer[index] = Int16(same ? 0 : fraction)
    }
}

/// A heap block of `Element`s that only grows; its contents are uninitialized until written.
final class Scratch<Element> {
    private(set) var pointer: UnsafeMutablePointer<Element>
    private(set) var capacity = 0

    init() {
        pointer = UnsafeMutablePointer<Element>.allocate(capacity: 0)
    }

    deinit { pointer.deallocate() }

    /// Makes room for `count` elements; the old contents are dropped when it grows.
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        pointer.deallocate()
        pointer = UnsafeMutablePointer<Element>.allocate(capacity: count)
        capacity = count
    }
}
