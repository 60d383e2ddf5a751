import Foundation
import Imaging
import Testing

/// Imaging's YUV-to-RGB conversion (the one the classifier applies to video frames) against the
/// `ffmpeg` command's exact swscale path, for every colour matrix and range.
@Suite("YUV to RGB matches ffmpeg for every colour matrix", .enabled(if: FFmpegTool.isAvailable, FFmpegTool.missingReason))
struct YUVColorMatrixFFmpegTests {
    /// The `scale` filter's name of each matrix (`in_color_matrix`).
    static let ffmpegNames: [YUVColorMatrix: String] = [
        .bt601: "bt601", .bt709: "bt709", .bt2020: "bt2020", .smpte240m: "smpte240m", .fcc: "fcc",
    ]

    /// The U and V values compared: every fifth (0 and 255 included) and the neutral 128.
    static let chromaValues = Array(stride(from: 0, through: 255, by: 5)) + [128]

    /// A 4:4:4 picture of every Y (columns) with every pair of `chromaValues` (rows) is
    /// converted by
    ///
    ///     ffmpeg -f rawvideo -pix_fmt yuv444p -s 256xROWS -i in.yuv \
    ///       -vf scale=in_color_matrix=MATRIX:in_range=tv|pc \
    ///       -sws_flags accurate_rnd+full_chroma_int+bitexact -f rawvideo -pix_fmt rgb24 out.rgb
    ///
    /// and must equal the `.i444` `PixelImage`'s pixels, except where swscale's 32-bit
    /// intermediate overflows: a channel whose exact value is 512 or more (Y near 255 with U or
    /// V near 0 or 255 in video range) comes out 0 from swscale and 255 here. (Over the whole
    /// 2^24 cube, checked once with FFmpeg 5.1: identical in full range for every matrix; in
    /// video range identical but for such overflows in 33,024 triples for BT.601, 70,144 for
    /// BT.709, 83,968 for BT.2020, 55,552 for SMPTE 240M and 35,840 for FCC.)
    @Test("every Y with U and V in steps of 5", arguments: YUVColorMatrix.allCases, YUVColorRange.allCases)
    func matchesFFmpeg(matrix: YUVColorMatrix, range: YUVColorRange) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let chroma = Self.chromaValues
        let width = 256, height = chroma.count * chroma.count
        var planes = [UInt8](repeating: 0, count: 3 * width * height)
        for row in 0..<height {
            for y in 0..<width {
                planes[row * width + y] = UInt8(y)
                planes[width * height + row * width + y] = UInt8(chroma[row / chroma.count])
                planes[2 * width * height + row * width + y] = UInt8(chroma[row % chroma.count])
            }
        }
        let input = directory.appendingPathComponent("in.yuv"), output = directory.appendingPathComponent("out.rgb")
        try Data(planes).write(to: input)
        try FFmpegTool.run([
            "-y", "-f", "rawvideo", "-pix_fmt", "yuv444p", "-s", "\(width)x\(height)", "-i", input.path,
            "-vf", "scale=in_color_matrix=\(Self.ffmpegNames[matrix]!):in_range=\(range == .video ? "tv" : "pc")",
            "-sws_flags", "accurate_rnd+full_chroma_int+bitexact", "-f", "rawvideo", "-pix_fmt", "rgb24", output.path,
        ])
        let ffmpeg = [UInt8](try Data(contentsOf: output))
        try #require(ffmpeg.count == 3 * width * height)

        let image = try PixelImage(
            bytes: planes, width: width, height: height, bytesPerRow: nil, format: .i444,
            colorRange: range, colorMatrix: matrix)
        var overflows = 0
        var mismatches: [String] = []
        for row in 0..<height {
            for y in 0..<width {
                let pixel = image.rgba(x: y, y: row)
                let ours = [pixel.red, pixel.green, pixel.blue]
                let theirs = Array(ffmpeg[(row * width + y) * 3..<(row * width + y + 1) * 3])
                for channel in 0..<3 where ours[channel] != theirs[channel] {
                    if ours[channel] == 255 && theirs[channel] == 0 {
                        overflows += 1
                    } else if mismatches.count < 10 {
                        mismatches.append(
                            "(\(y), \(chroma[row / chroma.count]), \(chroma[row % chroma.count])): \(ours) vs ffmpeg \(theirs)")
                    }
                }
            }
        }
        #expect(mismatches.isEmpty, "\(matrix) \(range)")
        if range == .full {
            #expect(overflows == 0)
        }
    }
}
