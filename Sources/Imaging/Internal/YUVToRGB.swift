/// BT.601 Y'CbCr to RGB in FFmpeg swscale's 13-bit fixed point (see `YUVColorRange` for the
/// formulas, the coefficients and how they compare with FFmpeg), read from tables.
///
/// A value borrows its tables: use it only inside `withConversion(for:_:)`.
struct YUVToRGB {
    /// Five tables of 256 sums, by the Y, V, U, V, U byte: `cY (Y − yOffset) + 4096`, then
    /// `cVR v`, `cUG u`, `cVG v`, `cUB u` with `u = U − 128`, `v = V − 128`.
    private let terms: UnsafePointer<Int32>
    /// `saturated[s + saturationOffset]` is `s` clamped to 0...255.
    private let saturated: UnsafePointer<UInt8>

    /// The coefficients (× 8192) of a range: yOffset, cY, cVR, cUG, cVG, cUB.
    static func coefficients(_ range: YUVColorRange) -> (yOffset: Int32, y: Int32, vToRed: Int32, uToGreen: Int32, vToGreen: Int32, uToBlue: Int32) {
        switch range {
        case .video:
            // swscale: cy = 65536 · 255 / 219 (truncated) = 76308; each coefficient is
            // roundToInt16(c · 2^13) = round(c / 8) of its 16.16 value.
            (16, 9539, 13075, -3209, -6660, 16525)
        case .full:
            // swscale: cy = 65536; the chroma coefficients are first scaled by 224 / 255 (truncated).
            (0, 8192, 11485, -2819, -5850, 14516)
        }
    }

    private static func makeTerms(_ range: YUVColorRange) -> [Int32] {
        let c = coefficients(range)
        var terms = [Int32](repeating: 0, count: 5 * 256)
        for value in 0..<256 {
            let centered = Int32(value) - 128
            terms[value] = (Int32(value) - c.yOffset) * c.y + 4096
            terms[256 + value] = c.vToRed * centered
            terms[512 + value] = c.uToGreen * centered
            terms[768 + value] = c.vToGreen * centered
            terms[1024 + value] = c.uToBlue * centered
        }
        return terms
    }

    private static let videoTerms = makeTerms(.video)
    private static let fullTerms = makeTerms(.full)

    /// The shifted sums lie in −277...534 (video range blue, Y = 0 to 255 with U = 0 or 255);
    /// the table covers −512...1023.
    private static let saturationOffset = 512
    private static let saturation: [UInt8] = (0..<1536).map { UInt8(min(max($0 - saturationOffset, 0), 255)) }

    /// Calls `body` with the conversion for `range`, valid during the call.
    static func withConversion<Result>(for range: YUVColorRange, _ body: (YUVToRGB) -> Result) -> Result {
        (range == .video ? videoTerms : fullTerms).withUnsafeBufferPointer { terms in
            saturation.withUnsafeBufferPointer { saturated in
                body(YUVToRGB(terms: terms.baseAddress.unsafelyUnwrapped, saturated: saturated.baseAddress.unsafelyUnwrapped))
            }
        }
    }

    /// The red, green and blue (0...255) of one Y, U, V triple:
    /// `clamp((cY (Y − yOffset) + 4096 + chroma terms) >> 13)`.
    @inline(__always)
    func rgb(y: UInt8, u: UInt8, v: UInt8) -> (red: Int32, green: Int32, blue: Int32) {
        let (y, u, v) = (Int(y), Int(u), Int(v))
        let luma = terms[y]
        // Wrapping arithmetic: every sum is below 2^23 in magnitude.
        let red = luma &+ terms[256 + v]
        let green = luma &+ terms[512 + u] &+ terms[768 + v]
        let blue = luma &+ terms[1024 + u]
        let offset = Self.saturationOffset
        return (Int32(saturated[Int(red >> 13) &+ offset]), Int32(saturated[Int(green >> 13) &+ offset]),
                Int32(saturated[Int(blue >> 13) &+ offset]))
    }
}
