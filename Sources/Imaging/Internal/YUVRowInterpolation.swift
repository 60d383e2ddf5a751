#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// A YUV source whose rows `SeparableSampler` interpolates eight tensor columns at a time: the
/// bytes of each column's two pixels are gathered into one word (`pairBytes`), eight words are
/// transposed into Y, U and V lanes, converted by `YUVLanes` and blended in 16-bit lanes.
///
/// Exactness: the conversion gives `YUVToRGB.rgb`'s values (see `YUVLanes`), and the blend
/// `left weightLeft + right weightRight` is at most 255 · 32 = 8160, exact in 16 bits, so the
/// sums equal `interpolateEachPixel`'s, which the tests check.
protocol YUVPairSource: PixelSource {
    var conversion: YUVToRGB { get }
    /// The Y, U and V bytes of the pixels at columns `left` and `right` of `row`, as the bytes
    /// (from the least significant) Y left, Y right, U left, U right, V left, V right, 0, 0.
    func pairBytes(_ row: Row, left: Int, right: Int) -> UInt64
}

extension YUVPairSource {
    /// The word path (`interpolateByWords`); `pairs` is for the planar sources.
    @inline(__always)
    func interpolate(row y: Int, taps: ColumnTaps, pairs: ColumnPairs, into sums: UnsafeMutablePointer<Int16>) {
        interpolateByWords(row: y, taps: taps, into: sums)
    }

    /// `interpolateEachPixel`'s sums, the columns in blocks of eight gathered by `pairBytes` and
    /// converted in SSE2 lanes (the remainder, and other architectures, pixel by pixel); stores
    /// one element past the `3 taps.count` sums (see `PreprocessingBuffers.interpolated`).
    @inline(__always)
    func interpolateByWords(row y: Int, taps: ColumnTaps, into sums: UnsafeMutablePointer<Int16>) {
        #if arch(x86_64)
            interpolate(row: y, taps: taps, blocks: WordBlocks(source: self, address: row(y), taps: taps, sums: sums), into: sums)
        #else
            interpolateEachPixel(row: y, taps: taps, into: sums)
        #endif
    }

    #if arch(x86_64)
        /// `blocks` over the whole blocks of eight columns, then the rest pixel by pixel.
        @inline(__always)
        func interpolate<Blocks: YUVBlocks>(
            row y: Int, taps: ColumnTaps, blocks: Blocks, into sums: UnsafeMutablePointer<Int16>
        ) {
            let covered = conversion.interpolateBlocks(count: taps.count, blocks)
            interpolateEachPixel(row: y, taps: taps.dropping(covered), into: sums + 3 &* covered)
        }
    #endif
}

#if arch(x86_64)
    /// Eight tensor columns interpolated at once, from `column` on, with a conversion's lanes:
    /// the word gather (`WordBlocks`) or the planar pairs (`PairBlocks`).
    protocol YUVBlocks {
        func interpolate<Lanes: YUVLanes>(at column: Int, lanes: Lanes)
    }

    extension YUVToRGB {
        /// Runs `blocks` over the whole blocks of eight among `count` columns with the lanes of
        /// this conversion's rounding; returns how many columns they cover (a multiple of 8).
        @inline(__always)
        func interpolateBlocks<Blocks: YUVBlocks>(count: Int, _ blocks: Blocks) -> Int {
            let blockCount = count & ~7
            switch rounding {
            case .roundedSum:
                let lanes = RoundedSumLanes(coefficients)
                for column in stride(from: 0, to: blockCount, by: 8) { blocks.interpolate(at: column, lanes: lanes) }
            case .truncatedTerms:
                let lanes = TruncatedTermsLanes(coefficients)
                for column in stride(from: 0, to: blockCount, by: 8) { blocks.interpolate(at: column, lanes: lanes) }
            }
            return blockCount
        }
    }

    /// The word path's blocks: eight `pairBytes` words per block, transposed into lanes.
    struct WordBlocks<Source: YUVPairSource>: YUVBlocks {
        let source: Source
        let address: Source.Row
        let taps: ColumnTaps
        let sums: UnsafeMutablePointer<Int16>

        @inline(__always)
        func interpolate<Lanes: YUVLanes>(at column: Int, lanes: Lanes) {
            @inline(__always)
            func words(_ first: Int) -> __m128i {
                let index = column &+ first
                let low = source.pairBytes(address, left: Int(taps.left[index]), right: Int(taps.right[index]))
                let high = source.pairBytes(
                    address, left: Int(taps.left[index &+ 1]), right: Int(taps.right[index &+ 1]))
                return _mm_set_epi64x(Int64(bitPattern: high), Int64(bitPattern: low))
            }
            let (luma, u, v) = transposed(words(0), words(2), words(4), words(6))
            let lowByte = _mm_set1_epi16(0xFF)
            finishBlock(
                left: (_mm_and_si128(luma, lowByte), _mm_and_si128(u, lowByte), _mm_and_si128(v, lowByte)),
                right: (_mm_srli_epi16(luma, 8), _mm_srli_epi16(u, 8), _mm_srli_epi16(v, 8)),
                weightLeft: taps.weightLeft + column, weightRight: taps.weightRight + column, into: sums + 3 &* column,
                lanes: lanes)
        }
    }
#endif

#if arch(x86_64)
    /// Converts the left and right pixels of eight columns (Y, U, V bytes in 16-bit lanes) and
    /// stores `left weightLeft + right weightRight` of each channel at `sums`, as eight
    /// overlapping 4-element stores (the last one's spare element is written next).
    @inline(__always)
    func finishBlock<Lanes: YUVLanes>(
        left: (y: __m128i, u: __m128i, v: __m128i), right: (y: __m128i, u: __m128i, v: __m128i),
        weightLeft: UnsafePointer<Int16>, weightRight: UnsafePointer<Int16>, into sums: UnsafeMutablePointer<Int16>,
        lanes: Lanes
    ) {
        let leftPixels = lanes.rgb(y: left.y, u: left.u, v: left.v)
        let rightPixels = lanes.rgb(y: right.y, u: right.u, v: right.v)
        let leftWeights = UnsafeRawPointer(weightLeft).loadUnaligned(as: __m128i.self)
        let rightWeights = UnsafeRawPointer(weightRight).loadUnaligned(as: __m128i.self)
        @inline(__always)
        func blended(_ left: __m128i, _ right: __m128i) -> __m128i {
            _mm_add_epi16(_mm_mullo_epi16(left, leftWeights), _mm_mullo_epi16(right, rightWeights))
        }
        storeInterleaved(
            blended(leftPixels.red, rightPixels.red), blended(leftPixels.green, rightPixels.green),
            blended(leftPixels.blue, rightPixels.blue), to: sums)
    }
#endif

#if arch(x86_64)
    /// Eight `pairBytes` words, two per register (the first in the low half), as three registers
    /// of 16-bit lanes: lane `i` of the first holds word `i`'s Y pair, of the second its U pair,
    /// of the third its V pair.
    @inline(__always)
    private func transposed(
        _ words01: __m128i, _ words23: __m128i, _ words45: __m128i, _ words67: __m128i
    ) -> (__m128i, __m128i, __m128i) {
        // Lane notation wNfM: field M (Y, U, V pair, 0) of word N.
        let first02 = _mm_unpacklo_epi16(words01, words23)  // w0f0 w2f0 w0f1 w2f1 w0f2 w2f2 w0f3 w2f3
        let first13 = _mm_unpackhi_epi16(words01, words23)  // w1f0 w3f0 ...
        let last46 = _mm_unpacklo_epi16(words45, words67)
        let last57 = _mm_unpackhi_epi16(words45, words67)
        let first = _mm_unpacklo_epi16(first02, first13)  // w0f0 w1f0 w2f0 w3f0 w0f1 w1f1 w2f1 w3f1
        let firstV = _mm_unpackhi_epi16(first02, first13)  // w0f2 w1f2 w2f2 w3f2 w0f3 ...
        let last = _mm_unpacklo_epi16(last46, last57)
        let lastV = _mm_unpackhi_epi16(last46, last57)
        return (_mm_unpacklo_epi64(first, last), _mm_unpackhi_epi64(first, last), _mm_unpacklo_epi64(firstV, lastV))
    }

    /// Stores eight pixels' red, green and blue lanes as `R0 G0 B0 R1 G1 B1 ...` at `sums`,
    /// writing `sums[24]` too (with 0).
    @inline(__always)
    private func storeInterleaved(_ red: __m128i, _ green: __m128i, _ blue: __m128i, to sums: UnsafeMutablePointer<Int16>) {
        let zero = _mm_setzero_si128()
        let redGreenLow = _mm_unpacklo_epi16(red, green), redGreenHigh = _mm_unpackhi_epi16(red, green)
        let blueLow = _mm_unpacklo_epi16(blue, zero), blueHigh = _mm_unpackhi_epi16(blue, zero)
        // Each register holds two pixels as R G B 0: pixels 0 and 1, 2 and 3, 4 and 5, 6 and 7.
        let raw = UnsafeMutableRawPointer(sums)
        @inline(__always)
        func store(_ pair: __m128i, pixel: Int) {
            // `__m128i` is `SIMD2<Int64>`: its halves are the two pixels.
            raw.storeBytes(of: pair[0], toByteOffset: 6 &* pixel, as: Int64.self)
            raw.storeBytes(of: pair[1], toByteOffset: 6 &* pixel &+ 6, as: Int64.self)
        }
        store(_mm_unpacklo_epi32(redGreenLow, blueLow), pixel: 0)
        store(_mm_unpackhi_epi32(redGreenLow, blueLow), pixel: 2)
        store(_mm_unpacklo_epi32(redGreenHigh, blueHigh), pixel: 4)
        store(_mm_unpackhi_epi32(redGreenHigh, blueHigh), pixel: 6)
    }
#endif
