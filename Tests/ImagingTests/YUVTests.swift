import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

@Suite("YUV pixel formats")
struct YUVTests {
    static let formats: [PixelFormat] = [.nv12, .nv21, .i420, .yuyv]
    /// Odd and even sizes, 1x1 and single rows and columns included.
    static let sizes: [(width: Int, height: Int)] = [(1, 1), (1, 4), (5, 1), (2, 2), (7, 5), (8, 6), (33, 17)]

    // MARK: Conversion

    /// The expected colors are FFmpeg 5.1's, for a uniform 2x2 NV12 frame of each (Y, U, V):
    ///
    ///     printf "$(printf '\\x%02x\\x%02x\\x%02x\\x%02x\\x%02x\\x%02x' Y Y Y Y U V)" |
    ///       ffmpeg -f rawvideo -pix_fmt nv12 -s 2x2 -i - -vf scale=in_range=tv \
    ///         -sws_flags accurate_rnd+full_chroma_int+bitexact -f rawvideo -pix_fmt rgb24 - | od -An -tu1
    ///
    /// (`in_range=pc` for full range). swscale's default flags take a table path that is less
    /// exact (video-range Y = 235 gives 253, not 255). The saturated colors are BT.601's
    /// R, G, B = 255, 0, 0 etc. rounded to Y'CbCr.
    @Test(
        "known colors match FFmpeg's BT.601 conversion",
        arguments: [
            ("video black", YUVColorRange.video, 16, 128, 128, [0, 0, 0]),
            ("video white", .video, 235, 128, 128, [255, 255, 255]),
            ("video mid gray", .video, 128, 128, 128, [130, 130, 130]),
            ("video red", .video, 81, 90, 240, [254, 0, 0]),
            ("video green", .video, 145, 54, 34, [0, 255, 1]),
            ("video blue", .video, 41, 240, 110, [0, 0, 255]),
            ("video out of gamut 1", .video, 255, 0, 255, [255, 225, 20]),
            ("video out of gamut 2", .video, 0, 255, 0, [0, 36, 238]),
            ("video orange", .video, 200, 30, 220, [255, 178, 17]),
            ("full black", .full, 0, 128, 128, [0, 0, 0]),
            ("full white", .full, 255, 128, 128, [255, 255, 255]),
            ("full red", .full, 76, 85, 255, [254, 0, 0]),
            ("full green", .full, 150, 44, 21, [0, 255, 1]),
            ("full blue", .full, 29, 255, 107, [0, 0, 254]),
            ("full out of gamut 1", .full, 255, 0, 255, [255, 208, 28]),
            ("full out of gamut 2", .full, 0, 255, 0, [0, 48, 225]),
            ("full orange", .full, 200, 30, 220, [255, 168, 26]),
        ] as [(String, YUVColorRange, UInt8, UInt8, UInt8, [UInt8])])
    func knownColors(name: String, range: YUVColorRange, y: UInt8, u: UInt8, v: UInt8, expected: [UInt8]) throws {
        #expect(referenceRGB(y, u, v, range) == expected, "the tests' reference formula")
        for format in Self.formats {
            // A uniform 3x3 picture: odd, so the last chroma column and row are partial.
            let picture = YUVPicture(format, width: 3, height: 3) { plane, _, column in
                switch (format, plane) {
                case (_, 0) where format != .yuyv: y
                case (.nv12, _): column % 2 == 0 ? u : v
                case (.nv21, _): column % 2 == 0 ? v : u
                case (.i420, 1): u
                case (.i420, _): v
                default: [y, u, y, v][column % 4]  // YUYV
                }
            }
            let image = try PixelImage(
                copying: picture.planes(padding: 0), width: 3, height: 3, format: format, colorRange: range)
            for (x, row) in [(0, 0), (2, 2), (1, 2)] {
                let pixel = image.rgba(x: x, y: row)
                #expect([pixel.red, pixel.green, pixel.blue, pixel.alpha] == expected + [255], "\(format) (\(x), \(row))")
            }
            #expect(
                try tensor(image, width: 2, height: 2) == Array([[UInt8]](repeating: expected, count: 4).joined()), "\(format)")
        }
    }

    /// FFmpeg 5.1's RGB of 4x4 pictures whose byte at `column` of `row` of `plane` is
    /// `(37 column + 91 row + 53 plane + 11 column row + 7) & 255`, stored as FFmpeg's rawvideo
    /// (planes unpadded, one after another), converted by
    ///
    ///     ffmpeg -f rawvideo -pix_fmt FORMAT -s 4x4 -i - -vf scale=in_range=tv|pc \
    ///       -sws_flags neighbor+accurate_rnd+full_chroma_int+bitexact -f rawvideo -pix_fmt rgb24 -
    ///
    /// with FORMAT nv12, nv21, yuv420p, yuyv422. At even sizes FFmpeg's nearest-neighbour
    /// chroma upsampling picks the covering chroma sample, as here (at odd sizes it rescales
    /// the chroma grid instead).
    @Test(
        "a varied picture matches FFmpeg's nearest-chroma conversion",
        arguments: [
            (
                PixelFormat.nv12, YUVColorRange.video,
                "002900005400902658bb51832e930066cb0effaadbffe2ffff87f8ffcbff0042ff0087ff7b0038cc18891ec6ff70ffff"
            ),
            (.nv12, .full, "003500015a008d305cb2558137900067c01afea1cdffd1fdff82e6ffbdff004aff0085ff7c0041c2238727bbff6dffff"),
            (.nv21, .video, "0039000064005536a28061ce00a3212bdb59d9bafffff1ffee9bffffe0ffe70000ff30002e0099802ceaff6e00ffc04a"),
            (.nv21, .full, "004200006700593e9d7e63c2039d2b33cd5bcaaffffadfffdd94ffffcfffda0000ff38003800967e35dcff6e06ffb44c"),
            (.i420, .video, "001c000947006f460d9a71384886007fbe0ef2ca91ffffc9ff83f8ffc7ffef00b8ff00fd830038d41489ff2cffff7dff"),
            (.i420, .full, "002900174e00704c1a95713f4d84007db41ae1bd8bffedbbff7fe6ffbaffe100b1ff00ec830041c92087ff33ffff79ff"),
            (.yuyv, .video, "001f003c750000e9ff3cffffff0084ff6cf4650000d56e28ada9ff0c08ff76aaff0009dbb20000ff636800901100ffb4"),
            (.yuyv, .full, "002b0043750000d9ff40ffffff0a82ff6ae2680e00c86e30a4a1ff1a17ff74a2ff0018d0ad0000ff6468008d1e0bffaa"),
        ])
    func ffmpegPicture(format: PixelFormat, range: YUVColorRange, expectedHex: String) throws {
        let picture = YUVPicture(format, width: 4, height: 4) { plane, row, column in
            UInt8((37 * column + 91 * row + 53 * plane + 11 * column * row + 7) & 255)
        }
        let expected = stride(from: 0, to: expectedHex.count, by: 2).map { offset -> UInt8 in
            let start = expectedHex.index(expectedHex.startIndex, offsetBy: offset)
            return UInt8(expectedHex[start..<expectedHex.index(start, offsetBy: 2)], radix: 16)!
        }
        let image = try PixelImage(
            copying: picture.contiguous(bytesPerRow: nil), width: 4, height: 4, bytesPerRow: nil,
            format: format, colorRange: range)
        #expect(rgbaBytes(image).enumerated().filter { $0.offset % 4 != 3 }.map(\.element) == expected)
        #expect(try rgbaBytes(picture.rgb8(range)).enumerated().filter { $0.offset % 4 != 3 }.map(\.element) == expected)
    }

    /// Every Y with U and V in steps of 3 (0 and 255 included) and the neutral 128: the full
    /// 2^24 grid was checked against FFmpeg during development (see `YUVColorRange`); this
    /// keeps the tables and the formula in step at a debug build's speed.
    @Test("(Y, U, V) across the cube convert as the reference formula", arguments: YUVColorRange.allCases)
    func everyTriple(range: YUVColorRange) {
        let chroma = Array(stride(from: 0, through: 255, by: 3)) + [128]
        var mismatches: [String] = []
        YUVToRGB.withConversion(for: range) { conversion in
            for y in 0...255 {
                for u in chroma {
                    for v in chroma {
                        let rgb = conversion.rgb(y: UInt8(y), u: UInt8(u), v: UInt8(v))
                        let expected = referenceChannels(UInt8(y), UInt8(u), UInt8(v), range)
                        if rgb != expected && mismatches.count < 10 {
                            mismatches.append("(\(y), \(u), \(v)): \(rgb) instead of \(expected)")
                        }
                    }
                }
            }
        }
        #expect(mismatches.isEmpty)
    }

    /// FFmpeg's default 4:2:0 path (`pmulhw` on values × 8, each term truncated, summed,
    /// saturated) with BT.601's coefficients, written out independently of the tables; video
    /// frames use it (checked against `ffmpeg -pix_fmt rgb24` by the VideoInput tests).
    @Test("truncated terms: each term floored, as swscale's default path", arguments: YUVColorRange.allCases)
    func truncatedTerms(range: YUVColorRange) {
        let (yOffset, cY, cVR, cUG, cVG, cUB): (Int32, Int32, Int32, Int32, Int32, Int32) =
            range == .video ? (16, 9539, 13075, -3209, -6660, 16525) : (0, 8192, 11485, -2819, -5850, 14516)
        func pmulhw(_ value: Int32, _ coefficient: Int32) -> Int32 { (value * 8 * coefficient) >> 16 }
        let chroma = Array(stride(from: 0, through: 255, by: 5)) + [128]
        var mismatches: [String] = [], differing = 0, total = 0, largestGap: Int32 = 0
        YUVToRGB.withConversion(for: range, rounding: .truncatedTerms) { conversion in
            for y in 0...255 {
                for u in chroma {
                    for v in chroma {
                        let luma = pmulhw(Int32(y) - yOffset, cY), (cu, cv) = (Int32(u) - 128, Int32(v) - 128)
                        let clamp = { (value: Int32) in min(max(value, 0), 255) }
                        let expected = (
                            clamp(luma + pmulhw(cv, cVR)), clamp(luma + pmulhw(cu, cUG) + pmulhw(cv, cVG)),
                            clamp(luma + pmulhw(cu, cUB))
                        )
                        let rgb = conversion.rgb(y: UInt8(y), u: UInt8(u), v: UInt8(v))
                        if rgb != expected && mismatches.count < 10 {
                            mismatches.append("(\(y), \(u), \(v)): \(rgb) instead of \(expected)")
                        }
                        let rounded = referenceChannels(UInt8(y), UInt8(u), UInt8(v), range)
                        differing += rgb == rounded ? 0 : 1
                        total += 1
                        largestGap = max(
                            largestGap, abs(rgb.red - rounded.red), abs(rgb.green - rounded.green),
                            abs(rgb.blue - rounded.blue))
                    }
                }
            }
        }
        #expect(mismatches.isEmpty)
        #expect(differing * 4 > total, "the roundings differ on \(differing) of \(total) triples")
        // Three floors lose at most 3 levels against one rounding.
        #expect(largestGap <= 3)
    }

    @Test(
        "pixels read as the covering chroma sample, for odd sizes and padded planes",
        arguments: YUVTests.formats, YUVColorRange.allCases)
    func pixelAccess(format: PixelFormat, range: YUVColorRange) throws {
        for (index, size) in Self.sizes.enumerated() {
            let picture = YUVPicture(format, width: size.width, height: size.height, seed: UInt64(index))
            let expected = try rgbaBytes(picture.rgb8(range))
            for (padding, trimmed) in [(0, false), (3, false), (16, true)] {
                let image = try PixelImage(
                    copying: picture.planes(padding: padding, trimmed: trimmed), width: size.width,
                    height: size.height, format: format, colorRange: range)
                #expect(rgbaBytes(image) == expected, "\(size) padding \(padding)")
            }
            // The smallest stride holds every plane's row (NV12's chroma row is longer at odd widths).
            let smallest = picture.rows.map { $0[0].count }.max()!
            for bytesPerRow in [nil, smallest, smallest + 5] {
                let data = picture.contiguous(bytesPerRow: bytesPerRow)
                let image = try PixelImage(
                    copying: data, width: size.width, height: size.height, bytesPerRow: bytesPerRow,
                    format: format, colorRange: range)
                #expect(rgbaBytes(image) == expected, "\(size) contiguous bytesPerRow \(String(describing: bytesPerRow))")
                #expect(image.bytes.count == data.count, "only the covered bytes are copied")
            }
        }
    }

    // MARK: Preprocessing

    /// The invariant of converting while sampling: a YUV image gives, byte for byte, the
    /// tensor of its RGB8 conversion (same formula, converted up front).
    @Test("preprocessing YUV equals preprocessing its RGB8 conversion", arguments: YUVTests.formats, YUVColorRange.allCases)
    func preprocessingMatchesRGB8(format: PixelFormat, range: YUVColorRange) throws {
        let regions = [wholeImage, CGRect(x: 0.2, y: 0.1, width: 0.55, height: 0.7)]
        let elements: [TensorElement] = [.uint8, TensorElement(mean: 127.5, std: 127.5)]
        for (index, size) in [(7, 5), (33, 17), (64, 48), (2, 3)].enumerated() {
            let picture = YUVPicture(format, width: size.0, height: size.1, seed: 1000 + UInt64(index))
            let rgb = try picture.rgb8(range)
            let variants = try [
                PixelImage(copying: picture.planes(padding: 0), width: size.0, height: size.1, format: format, colorRange: range),
                PixelImage(
                    copying: picture.planes(padding: 7, trimmed: true), width: size.0, height: size.1, format: format,
                    colorRange: range),
                PixelImage(
                    copying: picture.contiguous(bytesPerRow: picture.rows[0][0].count + 3), width: size.0, height: size.1,
                    bytesPerRow: picture.rows[0][0].count + 3, format: format, colorRange: range),
            ]
            for orientation in ImageOrientation.allCases {
                let transform = orientation.preprocessingTransform
                for region in regions {
                    for (tensorWidth, tensorHeight) in [(11, 9), (40, 30)] {
                        for element in elements {
                            let expected = try tensor(
                                rgb, width: tensorWidth, height: tensorHeight, element: element,
                                regionOfInterest: region, rotationDegrees: transform.rotationDegrees,
                                mirrored: transform.mirrored)
                            for (variant, image) in variants.enumerated() {
                                let bytes = try tensor(
                                    image, width: tensorWidth, height: tensorHeight, element: element,
                                    regionOfInterest: region, rotationDegrees: transform.rotationDegrees,
                                    mirrored: transform.mirrored)
                                #expect(
                                    bytes == expected,
                                    "\(size) variant \(variant) \(orientation) \(region) \(tensorWidth)x\(tensorHeight) \(element)"
                                )
                            }
                        }
                    }
                }
            }
        }
    }

    @Test("the color range changes the tensor; RGB formats ignore it")
    func colorRangeMatters() throws {
        let picture = YUVPicture(.nv12, width: 8, height: 6, seed: 5)
        let video = try PixelImage(copying: picture.planes(padding: 0), width: 8, height: 6, format: .nv12, colorRange: .video)
        let full = try PixelImage(copying: picture.planes(padding: 0), width: 8, height: 6, format: .nv12, colorRange: .full)
        #expect(try tensor(video, width: 8, height: 6) != tensor(full, width: 8, height: 6))
        let rgb = try picture.rgb8(.video)
        let rgbFull = try PixelImage(bytes: rgb.bytes, width: 8, height: 6, bytesPerRow: 24, format: .rgb8, colorRange: .full)
        #expect(try tensor(rgbFull, width: 5, height: 4) == tensor(rgb, width: 5, height: 4))
    }

    // MARK: Errors

    /// Planes that do not fit the format and size, with the message fragments naming them.
    struct BadPlanes: Sendable, CustomTestStringConvertible {
        let name: String
        let format: PixelFormat
        let width: Int, height: Int
        /// Turns valid planes of the picture (NV12 ones for an RGB format) into the bad ones.
        let damage: @Sendable ([PixelPlane]) -> [PixelPlane]
        let fragments: [String]

        init(
            _ name: String, _ format: PixelFormat, _ width: Int, _ height: Int,
            _ damage: @escaping @Sendable ([PixelPlane]) -> [PixelPlane], _ fragments: [String]
        ) {
            (self.name, self.format, self.width, self.height, self.damage, self.fragments) = (
                name, format, width, height, damage, fragments
            )
        }

        var testDescription: String { name }
    }

    static let badPlanes: [BadPlanes] = [
        BadPlanes(
            "NV12 with one plane", .nv12, 8, 6, { Array($0.prefix(1)) },
            ["Invalid plane count for nv12", "expected 2 (Y, UV)", "got 1"]),
        BadPlanes("I420 with two planes", .i420, 8, 6, { Array($0.prefix(2)) }, ["expected 3 (Y, U, V)", "got 2"]),
        BadPlanes("YUYV with two planes", .yuyv, 8, 6, { $0 + $0 }, ["expected 1 (YUYV)", "got 2"]),
        BadPlanes("NV21 with three planes", .nv21, 8, 6, { $0 + [$0[1]] }, ["expected 2 (Y, VU)", "got 3"]),
        BadPlanes("RGBA with no plane", .rgba8, 8, 6, { _ in [] }, ["expected 1 (RGBA)", "got 0"]),
        BadPlanes(
            "Y stride below the width", .nv12, 7, 5, { [PixelPlane(bytes: $0[0].bytes, bytesPerRow: 6), $0[1]] },
            ["Invalid bytesPerRow 6 of plane 0 (Y) of 7x5 nv12", "at least width 7 = 7"]),
        BadPlanes(
            "UV stride of an odd width", .nv12, 7, 5, { [$0[0], PixelPlane(bytes: $0[1].bytes, bytesPerRow: 7)] },
            ["Invalid bytesPerRow 7 of plane 1 (UV) of 7x5 nv12", "2 x ceil(width 7 / 2) = 8"]),
        BadPlanes(
            "VU plane one byte short", .nv21, 7, 5, { [$0[0], PixelPlane(bytes: $0[1].bytes.dropLast(1), bytesPerRow: 8)] },
            ["plane 1 (VU) of 7x5 nv21 has 23 bytes", "3 rows (ceil(height 5 / 2)) of 8 bytes with bytesPerRow 8 need 24"]),
        BadPlanes(
            "V stride below half the width", .i420, 7, 5, { [$0[0], $0[1], PixelPlane(bytes: $0[2].bytes, bytesPerRow: 3)] },
            ["Invalid bytesPerRow 3 of plane 2 (V) of 7x5 i420", "ceil(width 7 / 2) = 4"]),
        BadPlanes(
            "U plane missing its last row", .i420, 7, 5,
            { [$0[0], PixelPlane(bytes: $0[1].bytes.prefix(8), bytesPerRow: 4), $0[2]] },
            ["plane 1 (U) of 7x5 i420 has 8 bytes", "need 12"]),
        BadPlanes(
            "Y plane one byte short", .i420, 7, 5,
            { [PixelPlane(bytes: $0[0].bytes.dropLast(1), bytesPerRow: 7), $0[1], $0[2]] },
            ["plane 0 (Y) of 7x5 i420 has 34 bytes", "5 rows (height 5)", "need 35"]),
        BadPlanes(
            "YUYV stride of an odd width", .yuyv, 7, 5, { [PixelPlane(bytes: $0[0].bytes, bytesPerRow: 14)] },
            ["Invalid bytesPerRow 14 of plane 0 (YUYV) of 7x5 yuyv", "4 x ceil(width 7 / 2) = 16"]),
        BadPlanes(
            "negative stride", .nv12, 8, 6, { [PixelPlane(bytes: $0[0].bytes, bytesPerRow: -8), $0[1]] },
            ["Invalid bytesPerRow -8 of plane 0 (Y)"]),
        BadPlanes(
            "huge stride", .nv12, 8, 6, { [PixelPlane(bytes: $0[0].bytes, bytesPerRow: Int.max / 2), $0[1]] },
            ["plane 0 (Y) of 8x6 nv12 with bytesPerRow \(Int.max / 2) needs more than Int.max bytes"]),
        BadPlanes(
            "RGB stride below the width", .rgb8, 8, 6, { _ in [PixelPlane(bytes: Data(count: 200), bytesPerRow: 23)] },
            ["Invalid bytesPerRow 23 of plane 0 (RGB) of 8x6 rgb8", "width 8 x 3 bytes per pixel = 24"]),
    ]

    @Test("invalid planes are rejected, naming the plane and the values", arguments: badPlanes)
    func invalidPlanes(_ bad: BadPlanes) {
        let source: PixelFormat = bad.format.isYUV ? bad.format : .nv12
        let planes = bad.damage(YUVPicture(source, width: bad.width, height: bad.height, seed: 3).planes(padding: 0))
        expectTasksError(.invalidArgumentError, containing: bad.fragments) {
            _ = try PixelImage(copying: planes, width: bad.width, height: bad.height, format: bad.format)
        }
    }

    @Test("invalid sizes are rejected for every YUV format", arguments: YUVTests.formats)
    func invalidSizes(format: PixelFormat) {
        for (width, height) in [(0, 4), (4, 0), (-2, 4)] {
            expectTasksError(.invalidArgumentError, containing: ["Invalid image size \(width)x\(height)"]) {
                _ = try PixelImage(copying: [], width: width, height: height, format: format)
            }
            expectTasksError(.invalidArgumentError, containing: ["Invalid image size \(width)x\(height)"]) {
                _ = try PixelImage(
                    bytes: [UInt8](repeating: 0, count: 64), width: width, height: height, bytesPerRow: nil, format: format)
            }
        }
        expectTasksError(.invalidArgumentError, containing: ["Invalid image size \(Int.max)x3", "limited to 67108864 pixels"]) {
            _ = try PixelImage(
                bytes: [UInt8](repeating: 0, count: 64), width: Int.max, height: 3, bytesPerRow: nil, format: format)
        }
        expectTasksError(.invalidArgumentError, containing: ["needs more than Int.max"]) {
            _ = try PixelImage(
                bytes: [UInt8](repeating: 0, count: 64), width: 4, height: 3, bytesPerRow: Int.max / 2, format: format)
        }
    }

    /// One buffer holding every plane: the strides follow from `bytesPerRow` (nil: unpadded).
    @Test(
        "invalid single buffers are rejected, naming the plane and the values",
        arguments: [
            (
                "NV12 stride of an odd width", PixelFormat.nv12, 7, 5, 7 as Int?, 100,
                ["Invalid bytesPerRow 7 of plane 1 (UV) of 7x5 nv12 (the Y plane's bytesPerRow)", "2 x ceil(width 7 / 2) = 8"]
            ),
            (
                "NV12 one byte short", .nv12, 8, 6, 8, 71,
                [
                    "Pixel buffer too small: 71 bytes", "8x6 nv12 with bytesPerRow 8 needs 72",
                    "UV at offset 48, 3 rows with bytesPerRow 8",
                ]
            ),
            (
                "NV21 unpadded, odd size", .nv21, 7, 5, nil, 58,
                ["58 bytes", "7x5 nv21 needs 59", "VU at offset 35, 3 rows with bytesPerRow 8"]
            ),
            (
                "I420 chroma stride rounded up", .i420, 7, 5, 9, 73,
                [
                    "73 bytes", "7x5 i420 with bytesPerRow 9 needs 74", "U at offset 45, 3 rows with bytesPerRow 5",
                    "V at offset 60",
                ]
            ),
            (
                "I420 Y stride below the width", .i420, 7, 5, 6, 100,
                ["Invalid bytesPerRow 6 of plane 0 (Y) of 7x5 i420", "width 7 = 7"]
            ),
            ("YUYV odd width unpadded", .yuyv, 7, 5, nil, 79, ["79 bytes", "7x5 yuyv needs 80"]),
            (
                "YUYV stride of an odd width", .yuyv, 7, 5, 14, 100,
                ["Invalid bytesPerRow 14 of plane 0 (YUYV) of 7x5 yuyv", "= 16"]
            ),
            ("RGB keeps its message", .rgb8, 4, 5, 12, 59, ["Pixel buffer too small: 59 bytes", "needs 60"]),
        ] as [(String, PixelFormat, Int, Int, Int?, Int, [String])])
    func invalidContiguous(
        name: String, format: PixelFormat, width: Int, height: Int, bytesPerRow: Int?,
        byteCount: Int, fragments: [String]
    ) {
        let bytes = [UInt8](repeating: 0, count: byteCount)
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
        expectTasksError(.invalidArgumentError, containing: fragments) {
            _ = try PixelImage(copying: Data(bytes), width: width, height: height, bytesPerRow: bytesPerRow, format: format)
        }
    }

    @Test("plane counts and bytes per pixel of the new formats")
    func formatProperties() {
        #expect(PixelFormat.nv12.bytesPerPixel == 1 && PixelFormat.nv21.bytesPerPixel == 1)
        #expect(PixelFormat.i420.bytesPerPixel == 1 && PixelFormat.yuyv.bytesPerPixel == 2)
        #expect(Self.formats.map(\.planeNames.count) == [2, 2, 3, 1])
        #expect([PixelFormat.rgba8, .bgra8, .rgb8, .gray8].allSatisfy { !$0.isYUV && $0.planeNames.count == 1 })
    }
}
