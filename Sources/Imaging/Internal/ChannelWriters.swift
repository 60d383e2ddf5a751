#if arch(x86_64)
    import _Builtin_intrinsics.intel
#endif

/// Writes `Float` elements with a conversion per channel: `p * scale[c] + offset[c]`, rounded
/// as `FloatWriter` rounds (so three equal conversions give its floats exactly).
struct PerChannelFloatWriter: TensorPixelWriter {
    let tensor: UnsafeMutableRawBufferPointer
    /// Red, green, blue and red again: one pixel's conversion, a lane to spare.
    private let scale: SIMD4<Float>, offset: SIMD4<Float>
    /// The channels of four adjacent pixels' twelve elements, four at a time: RGBR, GBRG, BRGB.
    private let runScale: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)
    private let runOffset: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)

    init(tensor: UnsafeMutableRawBufferPointer, scale: SIMD3<Float>, offset: SIMD3<Float>) {
        self.tensor = tensor
        self.scale = SIMD4(scale, scale[0])
        self.offset = SIMD4(offset, offset[0])
        runScale = Self.rotations(of: scale)
        runOffset = Self.rotations(of: offset)
    }

    private static func rotations(of value: SIMD3<Float>) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (
            SIMD4(value[0], value[1], value[2], value[0]), SIMD4(value[1], value[2], value[0], value[1]),
            SIMD4(value[2], value[0], value[1], value[2])
        )
    }

    @inline(__always)
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel &* 12
        base.storeBytes(of: Float(red) * scale[0] + offset[0], as: Float.self)
        base.storeBytes(of: Float(green) * scale[1] + offset[1], toByteOffset: 4, as: Float.self)
        base.storeBytes(of: Float(blue) * scale[2] + offset[2], toByteOffset: 8, as: Float.self)
    }

    /// Four pixels (twelve elements, three vectors) at a time, then the rest element by element.
    @inline(__always)
    func writeContiguousRun(
        pixel: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>, weightUpper: Int32,
        weightLower: Int32
    ) {
        let output = tensor.baseAddress.unsafelyUnwrapped + pixel &* 12
        let total = count &* 3
        var element = 0
        // The four elements `first + 4 part` onwards, converted with `scale` and `offset`.
        @inline(__always)
        func store(part: Int, of first: Int, scale: SIMD4<Float>, offset: SIMD4<Float>) {
            let at = first &+ 4 &* part
            let values = blended4(upper + at, lower + at, weightUpper, weightLower) * scale + offset
            output.storeBytes(of: values, toByteOffset: at &* 4, as: SIMD4<Float>.self)
        }
        while element &+ 12 <= total {
            store(part: 0, of: element, scale: runScale.0, offset: runOffset.0)
            store(part: 1, of: element, scale: runScale.1, offset: runOffset.1)
            store(part: 2, of: element, scale: runScale.2, offset: runOffset.2)
            element &+= 12
        }
        var channel = 0
        while element < total {
            let value = Float(blended(upper[element], lower[element], weightUpper, weightLower))
            output.storeBytes(of: value * scale[channel] + offset[channel], toByteOffset: element &* 4, as: Float.self)
            channel = channel == 2 ? 0 : channel &+ 1
            element &+= 1
        }
    }

    @inline(__always)
    func write(pixel: Int, rgb: SIMD4<Int32>, spare: Bool) {
        let values = SIMD4<Float>(rgb) * scale + offset
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel &* 12
        if spare {
            base.storeBytes(of: values, as: SIMD4<Float>.self)
        } else {
            base.storeBytes(of: values.lowHalf, as: SIMD2<Float>.self)
            base.storeBytes(of: values[2], toByteOffset: 8, as: Float.self)
        }
    }
}

/// Four adjacent elements of a run (see `TensorPixelWriter.writeRun`), as floats.
@inline(__always)
private func blended4(
    _ upper: UnsafePointer<Int16>, _ lower: UnsafePointer<Int16>, _ weightUpper: Int32, _ weightLower: Int32
) -> SIMD4<Float> {
    #if arch(x86_64)
        // SSE2 has no 32-bit multiply: the exact sums as `blended8` forms them.
        let top = _mm_loadl_epi64(UnsafeRawPointer(upper).assumingMemoryBound(to: __m128i.self))
        let bottom = _mm_loadl_epi64(UnsafeRawPointer(lower).assumingMemoryBound(to: __m128i.self))
        let sums = _mm_madd_epi16(_mm_unpacklo_epi16(top, bottom), blendingWeights(weightUpper, weightLower))
        return _mm_cvtepi32_ps(_mm_srai_epi32(_mm_add_epi32(sums, _mm_set1_epi32(512)), 10))
    #else
        let top = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(upper).loadUnaligned(as: SIMD4<Int16>.self))
        let bottom = SIMD4<Int32>(truncatingIfNeeded: UnsafeRawPointer(lower).loadUnaligned(as: SIMD4<Int16>.self))
        return SIMD4<Float>((top &* weightUpper &+ bottom &* weightLower &+ 512) &>> 10)
    #endif
}

/// Writes `Int8` elements looked up in an `Int8Table` by channel and byte value.
struct Int8Writer: TensorPixelWriter {
    let tensor: UnsafeMutableRawBufferPointer
    /// The table's 768 values.
    let table: UnsafePointer<Int8>

    /// The element of `value` (0...255; masked so that no value can read outside the table).
    @inline(__always)
    private func element(_ value: Int32, channel: Int) -> Int8 {
        table[channel &* 256 &+ Int(value & 0xFF)]
    }

    @inline(__always)
    func write(pixel: Int, red: Int32, green: Int32, blue: Int32) {
        let base = tensor.baseAddress.unsafelyUnwrapped + pixel &* 3
        base.storeBytes(of: element(red, channel: 0), as: Int8.self)
        base.storeBytes(of: element(green, channel: 1), toByteOffset: 1, as: Int8.self)
        base.storeBytes(of: element(blue, channel: 2), toByteOffset: 2, as: Int8.self)
    }

    @inline(__always)
    func writeContiguousRun(
        pixel: Int, count: Int, upper: UnsafePointer<Int16>, lower: UnsafePointer<Int16>, weightUpper: Int32,
        weightLower: Int32
    ) {
        let output = tensor.baseAddress.unsafelyUnwrapped + pixel &* 3
        var channel = 0
        for index in 0..<(count &* 3) {
            let value = blended(upper[index], lower[index], weightUpper, weightLower)
            output.storeBytes(of: element(value, channel: channel), toByteOffset: index, as: Int8.self)
            channel = channel == 2 ? 0 : channel &+ 1
        }
    }

    @inline(__always)
    func write(pixel: Int, rgb: SIMD4<Int32>, spare: Bool) {
        write(pixel: pixel, red: rgb[0], green: rgb[1], blue: rgb[2])
    }
}
