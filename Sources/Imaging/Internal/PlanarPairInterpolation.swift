#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

extension PlanarYUVSource {
    /// I420 and I444 rows through `ColumnPairs` (one 16-bit load per column and plane instead
    /// of `pairBytes`' six byte loads), else the word path. The pairs give the same sums as the
    /// neighbour table (see `ColumnPairs`), and the rest is `finishBlock`, as for the words.
    @inline(__always)
    func interpolate(row y: Int, taps: ColumnTaps, pairs: ColumnPairs, into sums: UnsafeMutablePointer<Int16>) {
        #if arch(x86_64)
            guard pairs.available else { return interpolateByWords(row: y, taps: taps, into: sums) }
            interpolate(
                row: y, taps: taps, blocks: PairBlocks(source: self, address: row(y), pairs: pairs, sums: sums), into: sums)
        #else
            interpolateByWords(row: y, taps: taps, into: sums)
        #endif
    }
}

#if arch(x86_64)
    /// The planar pair path's blocks: each plane's pair bytes loaded 16 bits at a time into one
    /// lane per column (first byte low), then split into the left and right pixels' values (for
    /// 4:2:0 chroma, by the pairs' masks).
    struct PairBlocks: YUVBlocks {
        let source: PlanarYUVSource
        let address: PlanarYUVSource.Row
        let pairs: ColumnPairs
        let sums: UnsafeMutablePointer<Int16>

        @inline(__always)
        func interpolate<Lanes: YUVLanes>(at column: Int, lanes: Lanes) {
            let start = pairs.start.pointer + column
            let chromaStart = source.chromaShift == 0 ? start : pairs.chromaStart.pointer + column
            let luma = Self.gathered(address.luma, at: start)
            let u = Self.gathered(address.u, at: chromaStart), v = Self.gathered(address.v, at: chromaStart)
            let lowByte = _mm_set1_epi16(0xFF)
            let lumaPixels = (left: _mm_and_si128(luma, lowByte), right: _mm_srli_epi16(luma, 8))
            var uPixels = (left: _mm_and_si128(u, lowByte), right: _mm_srli_epi16(u, 8))
            var vPixels = (left: _mm_and_si128(v, lowByte), right: _mm_srli_epi16(v, 8))
            if source.chromaShift != 0 {
                let leftHigh = UnsafeRawPointer(pairs.leftHigh.pointer + column).loadUnaligned(as: __m128i.self)
                let rightHigh = UnsafeRawPointer(pairs.rightHigh.pointer + column).loadUnaligned(as: __m128i.self)
                uPixels = (
                    Self.selected(leftHigh, uPixels.right, uPixels.left), Self.selected(rightHigh, uPixels.right, uPixels.left)
                )
                vPixels = (
                    Self.selected(leftHigh, vPixels.right, vPixels.left), Self.selected(rightHigh, vPixels.right, vPixels.left)
                )
            }
            finishBlock(
                left: (lumaPixels.left, uPixels.left, vPixels.left), right: (lumaPixels.right, uPixels.right, vPixels.right),
                weightLeft: pairs.weightLeft.pointer + column, weightRight: pairs.weightRight.pointer + column,
                into: sums + 3 &* column, lanes: lanes)
        }

        /// The 16-bit values at `plane + offsets[i]` for the eight offsets, lane `i` each.
        @inline(__always)
        private static func gathered(_ plane: UnsafePointer<UInt8>, at offsets: UnsafePointer<Int32>) -> __m128i {
            @inline(__always)
            func value(_ index: Int) -> UInt16 {
                UnsafeRawPointer(plane + Int(offsets[index])).loadUnaligned(as: UInt16.self)
            }
            let values = SIMD8<UInt16>(value(0), value(1), value(2), value(3), value(4), value(5), value(6), value(7))
            return unsafeBitCast(values, to: __m128i.self)
        }

        /// Per lane, `high` where `mask` is -1 and `low` where it is 0.
        @inline(__always)
        private static func selected(_ mask: __m128i, _ high: __m128i, _ low: __m128i) -> __m128i {
            _mm_or_si128(_mm_and_si128(mask, high), _mm_andnot_si128(mask, low))
        }
    }
#endif
