#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// `SeparableSampler` for RGB8, RGBA8 and BGRA8, vertical step first, written for SIMD.
///
/// For each tensor row (each tensor column at 90° and 270°) the two source rows are blended
/// byte by byte over the span of columns the tables name, `V = top weightTop + bottom
/// weightBottom` (at most 8160, in 16-bit lanes: a loop the compiler vectorizes); each tensor
/// pixel then takes the blended bytes of its left pixel and the next one and forms
/// `(V_left weightLeft + V_right weightRight + 512) >> 10` per channel (`horizontal`: on x86-64
/// one SSE2 multiply-add of 16-bit pairs into 32-bit sums). The sums are the general path's,
/// the four neighbour products in another order, all exact.
struct PackedRowSampler<Layout: PackedPixelLayout, Writer: TensorPixelWriter> {
    let image: PixelImage
    let transposed: Bool
    let columns: Range<Int>
    let tensorWidth: Int, tensorHeight: Int
    let buffers: PreprocessingBuffers
    let writer: Writer

    func run() {
        let bytesPerPixel = Layout.bytesPerPixel
        let columnCount = transposed ? tensorHeight : tensorWidth
        let rowCount = transposed ? tensorWidth : tensorHeight
        let left = buffers.columns.first.pointer, weights = buffers.columnWeights.pointer
        let rows = buffers.rows
        let top = rows.first.pointer, bottom = rows.second.pointer
        let weightTop = rows.firstWeight.pointer, weightBottom = rows.secondWeight.pointer
        let spanBytes = columns.count * bytesPerPixel
        let blended = buffers.blendedRow.pointer
        // The last pixel's reads pass the span by up to 8 elements, with weight 0.
        blended.advanced(by: spanBytes).update(repeating: 0, count: 8)
        image.withPlaneStarts { starts in
            let base = starts[0] + columns.lowerBound * bytesPerPixel
            for index in 0..<rowCount {
                let upper = base + Int(top[index]) * image.bytesPerRow, lower = base + Int(bottom[index]) * image.bytesPerRow
                let upperWeight = weightTop[index], lowerWeight = weightBottom[index]
                if lowerWeight == 0 {
                    for element in 0..<spanBytes { blended[element] = Int16(upper[element]) &* upperWeight }
                } else {
                    for element in 0..<spanBytes {
                        blended[element] = Int16(upper[element]) &* upperWeight &+ Int16(lower[element]) &* lowerWeight
                    }
                }
                // Not transposed: tensor row `index`, left to right; transposed: tensor column
                // `index`, top to bottom.
                let pixel = transposed ? index : index * tensorWidth, stride = transposed ? tensorWidth : 1
                @inline(__always)
                func write(_ columnRange: Range<Int>, spare: Bool) {
                    for column in columnRange {
                        let offset = (Int(left[column]) &- columns.lowerBound) &* bytesPerPixel
                        writer.write(
                            pixel: pixel &+ column &* stride,
                            rgb: Self.horizontal(blended + offset, weights: weights[column]), spare: spare)
                    }
                }
                // A pixel may be stored with a spare fourth element when the element after it is
                // written later: not the tensor's last pixel, nor (column by column) the last
                // column's pixels.
                if index + 1 < rowCount {
                    write(0..<columnCount, spare: true)
                } else if transposed {
                    write(0..<columnCount, spare: false)
                } else {
                    write(0..<(columnCount - 1), spare: true)
                    write((columnCount - 1)..<columnCount, spare: false)
                }
            }
        }
    }

    /// The horizontal step of one pixel: `pixels` points at the blended bytes of the left pixel,
    /// followed by the next one's; `weights` holds `weightLeft, weightRight` four times. Returns
    /// `(V_left weightLeft + V_right weightRight + 512) >> 10` for red, green and blue in lanes 0
    /// to 2 (lane 3 is unspecified). Reads 4 elements from each pixel.
    @inline(__always)
    static func horizontal(_ pixels: UnsafePointer<Int16>, weights: SIMD8<Int16>) -> SIMD4<Int32> {
        #if arch(x86_64)
            // Lanes (left c, next c) for c = 0...3, each pair multiplied and added in 32 bits.
            let first = _mm_loadl_epi64(UnsafeRawPointer(pixels).assumingMemoryBound(to: __m128i.self))
            let second = _mm_loadl_epi64(UnsafeRawPointer(pixels + Layout.bytesPerPixel).assumingMemoryBound(to: __m128i.self))
            let sums = _mm_madd_epi16(_mm_unpacklo_epi16(first, second), unsafeBitCast(weights, to: __m128i.self))
            let values = unsafeBitCast(_mm_srai_epi32(_mm_add_epi32(sums, _mm_set1_epi32(512)), 10), to: SIMD4<Int32>.self)
        #else
            let values = portableSums(pixels, weights: weights)
        #endif
        return Layout.red == 0 ? values : SIMD4<Int32>(values[Layout.red], values[Layout.green], values[Layout.blue], 0)
    }

    /// `horizontal`'s sums in plain Swift, in the lanes of the left pixel's bytes: the path of
    /// other architectures, which the tests compare with the SSE2 one.
    @inline(__always)
    static func portableSums(_ pixels: UnsafePointer<Int16>, weights: SIMD8<Int16>) -> SIMD4<Int32> {
        let weightLeft = Int32(weights[0]), weightRight = Int32(weights[1])
        let next = pixels + Layout.bytesPerPixel
        func channel(_ lane: Int) -> Int32 {
            (Int32(pixels[lane]) &* weightLeft &+ Int32(next[lane]) &* weightRight &+ 512) &>> 10
        }
        return SIMD4<Int32>(channel(0), channel(1), channel(2), channel(3))
    }
}
