#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Receives the sampled red, green and blue bytes of the tensor pixels.
///
/// `write(pixel:red:green:blue:)` takes one finished pixel (the general path);
/// `writeRun(pixel:stride:count:upper:lower:weightUpper:weightLower:)` finishes a run of pixels
/// from the horizontally interpolated sums of their two source rows (the separable path), through
/// the writer's `writeContiguousRun` when the pixels are adjacent.
protocol TensorPixelWriter {
    /// Writes the pixel with flat index `pixel` (`v * width + u`); values are 0...255.
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32)

    /// `writeRun` for adjacent pixels (stride 1): the run's `3 count` elements are contiguous,
    /// so a writer converts them in one loop.
    func writeContiguousRun(
        pixel: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>, weightUpper: Int32,
        weightLower: Int32)

    /// Writes the pixel with flat index `pixel` from red, green and blue (0...255) in lanes 0
    /// to 2 of `rgb`; when `spare`, the element after the pixel may be overwritten (it is
    /// written later), so that the pixel is stored as four elements at once.
    func write(pixel: Int, rgb: SIMD4<Int32>, spare: Bool)
}

/// The value of one element of a run (see `TensorPixelWriter.writeRun`).
@inline(__always)
func blended(_ upper: Int16, _ lower: Int16, _ weightUpper: Int32, _ weightLower: Int32) -> Int32 {
    (Int32(upper) &* weightUpper &+ Int32(lower) &* weightLower &+ 512) &>> 10
}

#if arch(x86_64)
    /// `weightUpper`, `weightLower` in each pair of 16-bit lanes, for `blended8`.
    @inline(__always)
    func blendingWeights(_ weightUpper: Int32, _ weightLower: Int32) -> __m128i {
        _mm_set1_epi32(weightUpper | weightLower << 16)
    }

    /// `blended` of eight adjacent elements, in 16-bit lanes: SSE2's `pmaddwd` of interleaved
    /// (upper, lower) lanes and `weights` forms the 32-bit sums exactly (at most 261,120).
    @inline(__always)
    func blended8(_ upper: UnsafePointer<Int16>, _ lower: UnsafePointer<Int16>, weights: __m128i) -> __m128i {
        let top = UnsafeRawPointer(upper).loadUnaligned(as: __m128i.self)
        let bottom = UnsafeRawPointer(lower).loadUnaligned(as: __m128i.self)
        let rounding = _mm_set1_epi32(512)
        let low = _mm_madd_epi16(_mm_unpacklo_epi16(top, bottom), weights)
        let high = _mm_madd_epi16(_mm_unpackhi_epi16(top, bottom), weights)
        return _mm_packs_epi32(
            _mm_srai_epi32(_mm_add_epi32(low, rounding), 10), _mm_srai_epi32(_mm_add_epi32(high, rounding), 10))
    }
#endif

extension TensorPixelWriter {
    /// Writes `count` pixels at flat indices `pixel`, `pixel + stride`, ...: pixel `i` of the run
    /// has the sums `upper[3i + c]` and `lower[3i + c]` (each `left (32 - fx) + right fx`, at
    /// most 8160, for the source rows above and below) and becomes
    /// `(upper weightUpper + lower weightLower + 512) >> 10` (the weights in 1/32 summing to
    /// 32): OpenCV's rounding of its 15-bit weights. Adjacent pixels go through the writer's
    /// `writeContiguousRun`, others pixel by pixel.
    @inline(__always)
    func writeRun(
        pixel: Int, stride: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>,
        weightUpper: Int32, weightLower: Int32
    ) {
        guard stride == 1 else {
            return writeEachPixel(
                pixel: pixel, stride: stride, count: count, upper: upper, lower: lower,
                weightUpper: weightUpper, weightLower: weightLower)
        }
        writeContiguousRun(
            pixel: pixel, count: count, upper: upper, lower: lower, weightUpper: weightUpper, weightLower: weightLower)
    }

    /// `writeRun` pixel by pixel, through `write(pixel:red:green:blue:)`.
    @inline(__always)
    private func writeEachPixel(
        pixel: Int, stride: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>,
        weightUpper: Int32, weightLower: Int32
    ) {
        for index in 0..<count {
            let element = 3 &* index
            write(
                pixel: pixel &+ index &* stride,
                red: blended(upper[element], lower[element], weightUpper, weightLower),
                green: blended(upper[element &+ 1], lower[element &+ 1], weightUpper, weightLower),
                blue: blended(upper[element &+ 2], lower[element &+ 2], weightUpper, weightLower))
        }
    }
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

    /// Eight elements at a time (`blended8` on x86-64), the rest one by one.
    @inline(__always)
    func writeContiguousRun(
        pixel: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>, weightUpper: Int32,
        weightLower: Int32
    ) {
        // Raw bytes: binding them to UInt8 is always allowed.
        let output = (tensor.baseAddress.unsafelyUnwrapped + pixel &* 3).bindMemory(to: UInt8.self, capacity: count &* 3)
        let total = count &* 3
        var element = 0
        #if arch(x86_64)
            let weights = blendingWeights(weightUpper, weightLower)
            while element &+ 8 <= total {
                let values = blended8(upper + element, lower + element, weights: weights)
                // The values are 0...255: packing them to bytes changes none.
                UnsafeMutableRawPointer(output + element).storeBytes(of: _mm_packus_epi16(values, values)[0], as: Int64.self)
                element &+= 8
            }
        #endif
        while element < total {
            output[element] = UInt8(truncatingIfNeeded: blended(upper[element], lower[element], weightUpper, weightLower))
            element &+= 1
        }
    }

    @inline(__always)
    func write(pixel: Int, rgb: SIMD4<Int32>, spare: Bool) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel &* 3
        let bytes = SIMD4<UInt8>(truncatingIfNeeded: rgb)
        if spare {
            base.storeBytes(of: bytes, as: SIMD4<UInt8>.self)
        } else {
            base.storeBytes(of: bytes[0], as: UInt8.self)
            base.storeBytes(of: bytes[1], toByteOffset: 1, as: UInt8.self)
            base.storeBytes(of: bytes[2], toByteOffset: 2, as: UInt8.self)
        }
    }
}

/// Writes `Float` elements: `p * scale + offset` of each sampled byte `p`, in single precision
/// with the product rounded before the sum (as a table of the 256 values holds them).
struct FloatWriter: TensorPixelWriter {
    let tensor: UnsafeMutableRawBufferPointer
    let scale: Float
    let offset: Float

    @inline(__always)
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel * 12
        base.storeBytes(of: element(red), as: Float.self)
        base.storeBytes(of: element(green), toByteOffset: 4, as: Float.self)
        base.storeBytes(of: element(blue), toByteOffset: 8, as: Float.self)
    }

    /// The element of byte value `value`. Swift does not fuse the multiply and the add.
    @inline(__always)
    func element(_ value: Int32) -> Float {
        Float(value) * scale + offset
    }

    /// Eight elements at a time (`blended8` on x86-64), the rest one by one.
    @inline(__always)
    func writeContiguousRun(
        pixel: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>, weightUpper: Int32,
        weightLower: Int32
    ) {
        let output = (tensor.baseAddress.unsafelyUnwrapped + pixel &* 12).bindMemory(to: Float.self, capacity: count &* 3)
        let total = count &* 3
        var element = 0
        #if arch(x86_64)
            let weights = blendingWeights(weightUpper, weightLower), zero = _mm_setzero_si128()
            // `element`'s multiply and add, unfused, as in `write(pixel:rgb:spare:)`.
            let scale = _mm_set1_ps(scale), offset = _mm_set1_ps(offset)
            while element &+ 8 <= total {
                let values = blended8(upper + element, lower + element, weights: weights)
                let low = _mm_cvtepi32_ps(_mm_unpacklo_epi16(values, zero))
                let high = _mm_cvtepi32_ps(_mm_unpackhi_epi16(values, zero))
                let raw = UnsafeMutableRawPointer(output + element)
                raw.storeBytes(of: _mm_add_ps(_mm_mul_ps(low, scale), offset), as: __m128.self)
                raw.storeBytes(of: _mm_add_ps(_mm_mul_ps(high, scale), offset), toByteOffset: 16, as: __m128.self)
                element &+= 8
            }
        #endif
        while element < total {
            output[element] = self.element(blended(upper[element], lower[element], weightUpper, weightLower))
            element &+= 1
        }
    }

    @inline(__always)
    func write(pixel: Int, rgb: SIMD4<Int32>, spare: Bool) {
        #if arch(x86_64)
            // The same operations as below, which the compiler splits into scalar and vector parts.
            let values = _mm_add_ps(
                _mm_mul_ps(_mm_cvtepi32_ps(unsafeBitCast(rgb, to: __m128i.self)), _mm_set1_ps(scale)),
                _mm_set1_ps(offset))
        #else
            let values = SIMD4<Float>(rgb) * scale + offset
        #endif
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel &* 12
        if spare {
            base.storeBytes(of: values, as: SIMD4<Float>.self)
        } else {
            base.storeBytes(of: values.lowHalf, as: SIMD2<Float>.self)
            base.storeBytes(of: values[2], toByteOffset: 8, as: Float.self)
        }
    }
}
