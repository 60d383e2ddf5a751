/// Y'CbCr to RGB in FFmpeg swscale's 13-bit fixed point (see `YUVColorRange` for the formulas,
/// `YUVColorMatrix` for how each matrix's coefficients are derived and `YUVRounding` for the
/// two roundings), read from tables.
///
/// The one YUV-to-RGB conversion of the project: raw buffers, planes and video frames all come
/// here. A value borrows its tables: use it only inside `withConversion(for:matrix:_:)`.
struct YUVToRGB {
    /// Five tables of 256 sums, by the Y, V, U, V, U byte: `cY (Y − yOffset) + 4096`, then
    /// `cVR v`, `cUG u`, `cVG v`, `cUB u` with `u = U − 128`, `v = V − 128`.
    private let terms: UnsafePointer<Int32>
    /// `saturated[s + saturationOffset]` is `s` clamped to 0...255.
    private let saturated: UnsafePointer<UInt8>
    /// The coefficients the tables were made from, for conversions that compute the terms
    /// instead of reading them (`YUVLanes`).
    let coefficients: Coefficients
    /// How the terms are rounded.
    let rounding: YUVRounding

    /// The coefficients (× 8192) of a range and matrix.
    struct Coefficients: Equatable {
        /// The luma of black: 16 in video range, 0 in full range.
        var yOffset: Int32
        /// cY, the luma scale.
        var y: Int32
        /// cVR, cUG, cVG, cUB: the chroma terms of red, green (two) and blue.
        var vToRed: Int32, uToGreen: Int32, vToGreen: Int32, uToBlue: Int32
    }

    /// The coefficients of `range` and `matrix`, derived from swscale's 16.16 table row as
    /// `ff_yuv2rgb_c_init_tables` derives them (with brightness 0, contrast and saturation 1,
    /// whose scaling then changes nothing).
    static func coefficients(_ range: YUVColorRange, _ matrix: YUVColorMatrix) -> Coefficients {
        let row = matrix.swscaleInverseCoefficients
        var chroma = (vToRed: row.crv, uToGreen: -row.cgu, vToGreen: -row.cgv, uToBlue: row.cbu)
        let luma: Int64, yOffset: Int32
        switch range {
        case .video:
            // Luma is stretched from 219 levels; chroma keeps the table's 224-level scale.
            (luma, yOffset) = (65536 * 255 / 219, 16)
        case .full:
            // Chroma spans 255 levels: scale the table's values by 224 / 255 (Swift's `/`
            // truncates toward zero, as C's does).
            (luma, yOffset) = (65536, 0)
            chroma = (
                chroma.vToRed * 224 / 255, chroma.uToGreen * 224 / 255,
                chroma.vToGreen * 224 / 255, chroma.uToBlue * 224 / 255
            )
        }
        // swscale's roundToInt16(c · 2^13): (c · 2^13 + 2^15) >> 16, an arithmetic shift.
        func fixed13(_ value: Int64) -> Int32 { Int32((value * 8192 + 32768) >> 16) }
        return Coefficients(
            yOffset: yOffset, y: fixed13(luma), vToRed: fixed13(chroma.vToRed),
            uToGreen: fixed13(chroma.uToGreen), vToGreen: fixed13(chroma.vToGreen),
            uToBlue: fixed13(chroma.uToBlue))
    }

    private static func makeTerms(_ range: YUVColorRange, _ matrix: YUVColorMatrix, _ rounding: YUVRounding) -> [Int32] {
        let c = coefficients(range, matrix)
        // roundedSum: the 13-bit terms, 0.5 added once. truncatedTerms: each term in pixel
        // units as swscale's `pmulhw` gives it (`⌊8 x · c / 2^16⌋`), stored × 2^13 so that the
        // same `>> 13` reads the sum back exactly.
        let term = { (coefficient: Int32, value: Int32) -> Int32 in
            switch rounding {
            case .roundedSum: coefficient * value
            case .truncatedTerms: ((8 * value * coefficient) >> 16) << 13
            }
        }
        var terms = [Int32](repeating: 0, count: 5 * 256)
        for value in 0..<256 {
            let centered = Int32(value) - 128
            terms[value] = term(c.y, Int32(value) - c.yOffset) + (rounding == .roundedSum ? 4096 : 0)
            terms[256 + value] = term(c.vToRed, centered)
            terms[512 + value] = term(c.uToGreen, centered)
            terms[768 + value] = term(c.vToGreen, centered)
            terms[1024 + value] = term(c.uToBlue, centered)
        }
        // Every shifted sum must index the saturation table.
        func extremes(_ range: Range<Int>) -> (Int32, Int32) { (terms[range].min()!, terms[range].max()!) }
        let luma = extremes(0..<256), red = extremes(256..<512), blue = extremes(1024..<1280)
        let green = (extremes(512..<768).0 + extremes(768..<1024).0, extremes(512..<768).1 + extremes(768..<1024).1)
        let lowest = luma.0 + min(red.0, green.0, blue.0), highest = luma.1 + max(red.1, green.1, blue.1)
        precondition(
            (lowest >> 13) >= -Int32(saturationOffset) && (highest >> 13) < Int32(saturation.count - saturationOffset),
            "\(matrix) \(range): sums \(lowest >> 13)...\(highest >> 13) outside the saturation table")
        return terms
    }

    /// The tables of every rounding, range and matrix, at `tableIndex(range, matrix, rounding)`.
    private static let allTerms: [[Int32]] = [YUVRounding.roundedSum, .truncatedTerms].flatMap { rounding in
        YUVColorMatrix.allCases.flatMap { matrix in
            YUVColorRange.allCases.map { range in makeTerms(range, matrix, rounding) }
        }
    }

    /// The position of the tables of `range`, `matrix` and `rounding` in `allTerms`.
    private static func tableIndex(_ range: YUVColorRange, _ matrix: YUVColorMatrix, _ rounding: YUVRounding) -> Int {
        let matrixIndex =
            switch matrix {
            case .bt601: 0
            case .bt709: 1
            case .bt2020: 2
            case .smpte240m: 3
            case .fcc: 4
            }
        let roundingIndex = rounding == .roundedSum ? 0 : 1
        return (roundingIndex * YUVColorMatrix.allCases.count + matrixIndex) * YUVColorRange.allCases.count
            + (range == .video ? 0 : 1)
    }

    /// The shifted sums lie in −289...550 (video range blue of BT.2020 and BT.709, Y = 0 to 255
    /// with U = 0 or 255; checked when the tables are made); the table covers −512...1023.
    private static let saturationOffset = 512
    private static let saturation: [UInt8] = (0..<1536).map { UInt8(min(max($0 - saturationOffset, 0), 255)) }

    /// Calls `body` with the conversion for `range`, `matrix` (BT.601 unless given) and
    /// `rounding` (`.roundedSum` unless given), valid during the call.
    static func withConversion<Result>(
        for range: YUVColorRange, matrix: YUVColorMatrix = .bt601, rounding: YUVRounding = .roundedSum,
        _ body: (YUVToRGB) -> Result
    ) -> Result {
        allTerms[tableIndex(range, matrix, rounding)].withUnsafeBufferPointer { terms in
            saturation.withUnsafeBufferPointer { saturated in
                body(
                    YUVToRGB(
                        terms: terms.baseAddress.unsafelyUnwrapped, saturated: saturated.baseAddress.unsafelyUnwrapped,
                        coefficients: coefficients(range, matrix), rounding: rounding))
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
        return (
            Int32(saturated[Int(red >> 13) &+ offset]), Int32(saturated[Int(green >> 13) &+ offset]),
            Int32(saturated[Int(blue >> 13) &+ offset])
        )
    }
}
