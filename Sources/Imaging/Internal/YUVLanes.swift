#if arch(x86_64)
    import _Builtin_intrinsics.intel

    /// `YUVToRGB` for eight pixels at once, in the 16-bit lanes of SSE2 registers: the same
    /// coefficients and rounding, computed instead of read from tables, bit for bit the same
    /// red, green and blue (the tests compare them over every Y, U, V byte).
    protocol YUVLanes {
        /// The conversion with `coefficients` (each must fit in 16 bits: the initializers trap
        /// otherwise; swscale's are at most 17,546).
        init(_ coefficients: YUVToRGB.Coefficients)
        /// The red, green and blue (0...255) of the eight pixels whose Y, U and V bytes
        /// (0...255) are the 16-bit lanes of `y`, `u` and `v`.
        func rgb(y: __m128i, u: __m128i, v: __m128i) -> (red: __m128i, green: __m128i, blue: __m128i)
    }

    /// `YUVRounding.truncatedTerms`: every term is SSE2's `pmulhw` of `8 x` and the coefficient,
    /// `⌊8 x c / 2^16⌋` from the exact 32-bit product, which is the table's `(8 x c) >> 16`
    /// (swscale's own instruction). The terms are at most 546 in magnitude and their sums
    /// −289...550, so 16-bit lanes hold every step exactly.
    struct TruncatedTermsLanes: YUVLanes {
        private let yOffset: __m128i, center: __m128i
        private let luma: __m128i, vToRed: __m128i, uToGreen: __m128i, vToGreen: __m128i, uToBlue: __m128i

        init(_ coefficients: YUVToRGB.Coefficients) {
            yOffset = _mm_set1_epi16(Int16(8 * coefficients.yOffset))
            center = _mm_set1_epi16(8 * 128)
            luma = _mm_set1_epi16(Int16(coefficients.y))
            vToRed = _mm_set1_epi16(Int16(coefficients.vToRed))
            uToGreen = _mm_set1_epi16(Int16(coefficients.uToGreen))
            vToGreen = _mm_set1_epi16(Int16(coefficients.vToGreen))
            uToBlue = _mm_set1_epi16(Int16(coefficients.uToBlue))
        }

        @inline(__always)
        func rgb(y: __m128i, u: __m128i, v: __m128i) -> (red: __m128i, green: __m128i, blue: __m128i) {
            // 8 (Y − yOffset), 8 (U − 128), 8 (V − 128): within −1024...2040.
            let y8 = _mm_sub_epi16(_mm_slli_epi16(y, 3), yOffset)
            let u8 = _mm_sub_epi16(_mm_slli_epi16(u, 3), center), v8 = _mm_sub_epi16(_mm_slli_epi16(v, 3), center)
            let lumaTerm = _mm_mulhi_epi16(y8, luma)
            let red = _mm_add_epi16(lumaTerm, _mm_mulhi_epi16(v8, vToRed))
            let green = _mm_add_epi16(lumaTerm, _mm_add_epi16(_mm_mulhi_epi16(u8, uToGreen), _mm_mulhi_epi16(v8, vToGreen)))
            let blue = _mm_add_epi16(lumaTerm, _mm_mulhi_epi16(u8, uToBlue))
            return (saturated(red), saturated(green), saturated(blue))
        }
    }

    /// `YUVRounding.roundedSum`: `(cY (Y − yOffset) + c u + c' v + 4096) >> 13` with the products
    /// summed in 32 bits by SSE2's `pmaddwd` on interleaved (value, value') lanes and
    /// (coefficient, coefficient') pairs: exact, as the table's 32-bit sums (at most 2.5 million
    /// in magnitude); green takes its rounding constant as the product `1 · 4096`. The shifted
    /// sums (−289...550) are packed back to 16 bits without saturating.
    struct RoundedSumLanes: YUVLanes {
        private let yOffset: __m128i, center: __m128i
        /// Coefficient pairs: (cY, cVR), (cY, cUG), (cY, cUB), (cVG, 4096).
        private let red: __m128i, green: __m128i, blue: __m128i, greenV: __m128i
        private let rounding = _mm_set1_epi32(4096), one = _mm_set1_epi16(1)

        init(_ coefficients: YUVToRGB.Coefficients) {
            yOffset = _mm_set1_epi16(Int16(coefficients.yOffset))
            center = _mm_set1_epi16(128)
            red = Self.pair(coefficients.y, coefficients.vToRed)
            green = Self.pair(coefficients.y, coefficients.uToGreen)
            blue = Self.pair(coefficients.y, coefficients.uToBlue)
            greenV = Self.pair(coefficients.vToGreen, 4096)
        }

        /// `first`, `second` in each pair of 16-bit lanes.
        private static func pair(_ first: Int32, _ second: Int32) -> __m128i {
            let bits = Int32(UInt16(bitPattern: Int16(first))) | Int32(Int16(second)) << 16
            return _mm_set1_epi32(bits)
        }

        @inline(__always)
        func rgb(y: __m128i, u: __m128i, v: __m128i) -> (red: __m128i, green: __m128i, blue: __m128i) {
            let y0 = _mm_sub_epi16(y, yOffset), u0 = _mm_sub_epi16(u, center), v0 = _mm_sub_epi16(v, center)
            let red = Self.products(y0, v0, self.red), blue = Self.products(y0, u0, self.blue)
            let green = Self.products(y0, u0, self.green), greenV = Self.products(v0, one, self.greenV)
            return (
                Self.shifted(_mm_add_epi32(red.low, rounding), _mm_add_epi32(red.high, rounding)),
                Self.shifted(_mm_add_epi32(green.low, greenV.low), _mm_add_epi32(green.high, greenV.high)),
                Self.shifted(_mm_add_epi32(blue.low, rounding), _mm_add_epi32(blue.high, rounding))
            )
        }

        /// `a c + b c'` of lanes 0...3 (`low`) and 4...7 (`high`), in 32 bits.
        @inline(__always)
        private static func products(_ a: __m128i, _ b: __m128i, _ pair: __m128i) -> (low: __m128i, high: __m128i) {
            (_mm_madd_epi16(_mm_unpacklo_epi16(a, b), pair), _mm_madd_epi16(_mm_unpackhi_epi16(a, b), pair))
        }

        /// The sums `>> 13` (arithmetic, as the table's), saturated to 0...255, in 16-bit lanes.
        @inline(__always)
        private static func shifted(_ low: __m128i, _ high: __m128i) -> __m128i {
            saturated(_mm_packs_epi32(_mm_srai_epi32(low, 13), _mm_srai_epi32(high, 13)))
        }
    }

    /// 16-bit lanes clamped to 0...255.
    @inline(__always)
    private func saturated(_ lanes: __m128i) -> __m128i {
        _mm_min_epi16(_mm_max_epi16(lanes, _mm_setzero_si128()), _mm_set1_epi16(255))
    }
#endif
