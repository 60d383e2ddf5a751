import Foundation
import TasksCommon
import TestSupport
import Testing

@testable import Imaging

@Suite("YUV colour matrices and I444")
struct YUVColorMatrixTests {
    // MARK: Coefficients

    /// Printed by `Tests/Reference/imaging/yuv_coefficients.py`, which derives them from
    /// swscale's `ff_yuv2rgb_coeffs` rows independently of the Swift code: range, matrix,
    /// yOffset, cY, cVR, cUG, cVG, cUB. BT.601's rows are the constants used before matrices
    /// existed (and by `referenceChannels`).
    @Test(
        "coefficients are swscale's, derived from ff_yuv2rgb_coeffs",
        arguments: [
            (.video, .bt601, 16, 9539, 13075, -3209, -6660, 16525),
            (.full, .bt601, 0, 8192, 11485, -2819, -5850, 14516),
            (.video, .bt709, 16, 9539, 14686, -1747, -4366, 17305),
            (.full, .bt709, 0, 8192, 12901, -1534, -3835, 15201),
            (.video, .bt2020, 16, 9539, 13752, -1535, -5328, 17545),
            (.full, .bt2020, 0, 8192, 12080, -1348, -4680, 15412),
            (.video, .smpte240m, 16, 9539, 14697, -2113, -4445, 17029),
            (.full, .smpte240m, 0, 8192, 12911, -1856, -3904, 14959),
            (.video, .fcc, 16, 9539, 13056, -3095, -6639, 16600),
            (.full, .fcc, 0, 8192, 11469, -2719, -5831, 14582),
        ] as [(YUVColorRange, YUVColorMatrix, Int32, Int32, Int32, Int32, Int32, Int32)])
    func coefficients(
        range: YUVColorRange, matrix: YUVColorMatrix, yOffset: Int32, y: Int32, vToRed: Int32,
        uToGreen: Int32, vToGreen: Int32, uToBlue: Int32
    ) {
        let expected = YUVToRGB.Coefficients(
            yOffset: yOffset, y: y, vToRed: vToRed, uToGreen: uToGreen,
            vToGreen: vToGreen, uToBlue: uToBlue)
        #expect(YUVToRGB.coefficients(range, matrix) == expected)
    }

    /// FFmpeg 5.1's colours for single pixels, by
    ///
    ///     printf "$(printf '\\x%02x\\x%02x\\x%02x' Y U V)" | ffmpeg -f rawvideo -pix_fmt yuv444p -s 1x1 -i - \
    ///       -vf scale=in_color_matrix=bt709:in_range=tv -sws_flags accurate_rnd+full_chroma_int+bitexact \
    ///       -f rawvideo -pix_fmt rgb24 - | od -An -tu1
    ///
    /// (`in_range=pc` for full range, `in_color_matrix=bt2020` for BT.2020). The saturated
    /// colours are BT.709's R, G, B = 255, 0, 0 etc. rounded to Y'CbCr in video range. The whole
    /// cube is compared with the `ffmpeg` command at test time by the VideoInput tests.
    @Test(
        "known colours match FFmpeg's BT.709 and BT.2020 conversions",
        arguments: [
            ("709 video black", YUVColorRange.video, YUVColorMatrix.bt709, 16, 128, 128, [0, 0, 0]),
            ("709 video white", .video, .bt709, 235, 128, 128, [255, 255, 255]),
            ("709 video mid gray", .video, .bt709, 128, 128, 128, [130, 130, 130]),
            ("709 video red", .video, .bt709, 63, 102, 240, [255, 1, 0]),
            ("709 video green", .video, .bt709, 173, 42, 26, [0, 255, 1]),
            ("709 video blue", .video, .bt709, 32, 240, 118, [1, 0, 255]),
            ("709 video orange", .video, .bt709, 200, 30, 220, [255, 186, 7]),
            ("709 video out of gamut 1", .video, .bt709, 255, 0, 255, [255, 238, 8]),
            ("709 video out of gamut 2", .video, .bt709, 0, 255, 0, [0, 23, 250]),
            ("709 full red", .full, .bt709, 63, 102, 240, [239, 15, 15]),
            ("709 full green", .full, .bt709, 173, 42, 26, [12, 237, 13]),
            ("709 full orange", .full, .bt709, 200, 30, 220, [255, 175, 18]),
            ("709 full out of gamut 2", .full, .bt709, 0, 255, 0, [0, 36, 236]),
            ("2020 video red", .video, .bt2020, 63, 102, 240, [243, 0, 0]),
            ("2020 video orange", .video, .bt2020, 200, 30, 220, [255, 173, 4]),
            ("2020 full green", .full, .bt2020, 173, 42, 26, [23, 245, 11]),
            ("2020 full out of gamut 2", .full, .bt2020, 0, 255, 0, [0, 52, 239]),
        ] as [(String, YUVColorRange, YUVColorMatrix, UInt8, UInt8, UInt8, [UInt8])])
    func knownColors(
        name: String, range: YUVColorRange, matrix: YUVColorMatrix, y: UInt8, u: UInt8, v: UInt8,
        expected: [UInt8]
    ) throws {
        for format in [PixelFormat.i444, .i420, .nv12] {
            let picture = YUVPicture(format, width: 3, height: 3) { plane, _, column in
                switch (format, plane) {
                case (_, 0): y
                case (.nv12, _): column % 2 == 0 ? u : v
                case (_, 1): u
                default: v
                }
            }
            let image = try PixelImage(
                copying: picture.planes(padding: 0), width: 3, height: 3, format: format,
                colorRange: range, colorMatrix: matrix)
            let pixel = image.rgba(x: 2, y: 1)
            #expect([pixel.red, pixel.green, pixel.blue] == expected, "\(format)")
            #expect(
                try tensor(image, width: 2, height: 2) == Array([[UInt8]](repeating: expected, count: 4).joined()), "\(format)")
        }
    }

    /// Every shifted sum of every matrix and range lies in the saturation table (the tables
    /// check it when they are made; this reads the extreme triples).
    @Test("extreme triples saturate for every matrix", arguments: YUVColorMatrix.allCases, YUVColorRange.allCases)
    func extremes(matrix: YUVColorMatrix, range: YUVColorRange) {
        YUVToRGB.withConversion(for: range, matrix: matrix) { conversion in
            for (y, u, v) in [(0, 0, 0), (0, 255, 255), (255, 0, 0), (255, 255, 255), (0, 0, 255), (255, 255, 0)]
                as [(UInt8, UInt8, UInt8)]
            {
                let rgb = conversion.rgb(y: y, u: u, v: v)
                #expect([rgb.red, rgb.green, rgb.blue].allSatisfy { (0...255).contains($0) }, "(\(y), \(u), \(v))")
            }
        }
    }

    // MARK: The matrix travels with the pixels

    @Test("the matrix changes a YUV image's colours and tensor; RGB formats ignore it")
    func matrixMatters() throws {
        let picture = YUVPicture(.i420, width: 8, height: 6, seed: 7)
        let images = try YUVColorMatrix.allCases.map { matrix in
            try PixelImage(copying: picture.planes(padding: 0), width: 8, height: 6, format: .i420, colorMatrix: matrix)
        }
        #expect(images.map(\.colorMatrix) == YUVColorMatrix.allCases)
        let tensors = try images.map { try tensor($0, width: 8, height: 6) }
        #expect(Set(tensors).count == YUVColorMatrix.allCases.count, "every matrix gives its own tensor")
        let defaultImage = try PixelImage(copying: picture.planes(padding: 0), width: 8, height: 6, format: .i420)
        #expect(defaultImage.colorMatrix == .bt601)
        #expect(try tensor(defaultImage, width: 8, height: 6) == tensors[0])

        let rgb = try picture.rgb8(.video)
        let rgb709 = try PixelImage(bytes: rgb.bytes, width: 8, height: 6, bytesPerRow: 24, format: .rgb8, colorMatrix: .bt709)
        #expect(try tensor(rgb709, width: 5, height: 4) == tensor(rgb, width: 5, height: 4))
    }

    /// The invariant of converting while sampling, for every matrix: a YUV image gives the
    /// tensor of its RGB8 conversion (read pixel by pixel with the same matrix).
    @Test(
        "preprocessing YUV equals preprocessing its RGB8 conversion, for every matrix",
        arguments: YUVColorMatrix.allCases, [PixelFormat.i444, .nv21])
    func preprocessingMatchesRGB8(matrix: YUVColorMatrix, format: PixelFormat) throws {
        let picture = YUVPicture(format, width: 33, height: 17, seed: 2024)
        for range in YUVColorRange.allCases {
            let image = try PixelImage(
                copying: picture.planes(padding: 5), width: 33, height: 17, format: format,
                colorRange: range, colorMatrix: matrix)
            let rgb = try PixelImage(
                bytes: rgbaBytes(image).enumerated().filter { $0.offset % 4 != 3 }.map(\.element),
                width: 33, height: 17, bytesPerRow: 99, format: .rgb8)
            for (rotation, mirrored) in [(0, false), (90, true), (270, false)] {
                let region = CGRect(x: 0.1, y: 0.2, width: 0.7, height: 0.6)
                #expect(
                    try tensor(
                        image, width: 11, height: 9, regionOfInterest: region, rotationDegrees: rotation, mirrored: mirrored)
                        == tensor(
                            rgb, width: 11, height: 9, regionOfInterest: region, rotationDegrees: rotation, mirrored: mirrored),
                    "\(range) rotation \(rotation) mirrored \(mirrored)")
            }
        }
    }

    // MARK: I444

    @Test(
        "I444 pixels read their own chroma, for odd sizes, padded planes and single buffers",
        arguments: YUVColorRange.allCases)
    func i444PixelAccess(range: YUVColorRange) throws {
        for (index, size) in YUVTests.sizes.enumerated() {
            let picture = YUVPicture(.i444, width: size.width, height: size.height, seed: 500 + UInt64(index))
            let expected = try rgbaBytes(picture.rgb8(range))
            for (padding, trimmed) in [(0, false), (3, false), (16, true)] {
                let image = try PixelImage(
                    copying: picture.planes(padding: padding, trimmed: trimmed), width: size.width,
                    height: size.height, format: .i444, colorRange: range)
                #expect(rgbaBytes(image) == expected, "\(size) padding \(padding)")
            }
            for bytesPerRow in [nil, size.width, size.width + 5] {
                let data = picture.contiguous(bytesPerRow: bytesPerRow)
                let image = try PixelImage(
                    copying: data, width: size.width, height: size.height, bytesPerRow: bytesPerRow,
                    format: .i444, colorRange: range)
                #expect(rgbaBytes(image) == expected, "\(size) contiguous bytesPerRow \(String(describing: bytesPerRow))")
                #expect(image.bytes.count == data.count, "only the covered bytes are copied")
            }
        }
    }

    /// A 4x4 picture whose byte at `column` of `row` of `plane` is
    /// `(37 column + 91 row + 53 plane + 11 column row + 7) & 255`, converted by
    ///
    ///     ffmpeg -f rawvideo -pix_fmt yuv444p -s 4x4 -i - -vf scale=in_range=tv|pc \
    ///       -sws_flags accurate_rnd+full_chroma_int+bitexact -f rawvideo -pix_fmt rgb24 -
    @Test(
        "a varied I444 picture matches FFmpeg's conversion",
        arguments: [
            (
                YUVColorRange.video,
                "001c00441b00aa1958ff18ced9198eff17ff49e5ffceff543be5ffdeff67571b00fa18b40d1c00ce198100e6ffb8ff3a"
            ),
            (.full, "0029004b2700a4255cfd23c2cd248bff21ff4cd5ffc0ff5440d5ffceff655c2708e923ac1b2800c3248004d7ffacff3e"),
        ])
    func i444FFmpegPicture(range: YUVColorRange, expectedHex: String) throws {
        let picture = YUVPicture(.i444, width: 4, height: 4) { plane, row, column in
            UInt8((37 * column + 91 * row + 53 * plane + 11 * column * row + 7) & 255)
        }
        let expected = stride(from: 0, to: expectedHex.count, by: 2).map { offset -> UInt8 in
            let start = expectedHex.index(expectedHex.startIndex, offsetBy: offset)
            return UInt8(expectedHex[start..<expectedHex.index(start, offsetBy: 2)], radix: 16)!
        }
        let image = try PixelImage(
            copying: picture.contiguous(bytesPerRow: nil), width: 4, height: 4, bytesPerRow: nil,
            format: .i444, colorRange: range)
        #expect(rgbaBytes(image).enumerated().filter { $0.offset % 4 != 3 }.map(\.element) == expected)
    }

    @Test("invalid I444 planes and buffers are rejected, naming the plane")
    func i444Errors() {
        let planes = YUVPicture(.i444, width: 7, height: 5, seed: 3).planes(padding: 0)
        expectTasksError(.invalidArgumentError, containing: ["Invalid plane count for i444", "expected 3 (Y, U, V)", "got 2"]) {
            _ = try PixelImage(copying: Array(planes.prefix(2)), width: 7, height: 5, format: .i444)
        }
        expectTasksError(
            .invalidArgumentError, containing: ["Invalid bytesPerRow 6 of plane 2 (V) of 7x5 i444", "at least width 7 = 7"]
        ) {
            _ = try PixelImage(
                copying: [planes[0], planes[1], PixelPlane(bytes: planes[2].bytes, bytesPerRow: 6)],
                width: 7, height: 5, format: .i444)
        }
        expectTasksError(
            .invalidArgumentError, containing: ["plane 1 (U) of 7x5 i444 has 34 bytes", "5 rows (height 5)", "need 35"]
        ) {
            _ = try PixelImage(
                copying: [planes[0], PixelPlane(bytes: planes[1].bytes.dropLast(1), bytesPerRow: 7), planes[2]],
                width: 7, height: 5, format: .i444)
        }
        expectTasksError(
            .invalidArgumentError,
            containing: [
                "Pixel buffer too small: 104 bytes", "7x5 i444 needs 105",
                "U at offset 35, 5 rows with bytesPerRow 7", "V at offset 70",
            ]
        ) {
            _ = try PixelImage(bytes: [UInt8](repeating: 0, count: 104), width: 7, height: 5, bytesPerRow: nil, format: .i444)
        }
        #expect(PixelFormat.i444.bytesPerPixel == 1 && PixelFormat.i444.isYUV && PixelFormat.i444.planeNames == ["Y", "U", "V"])
    }
}
