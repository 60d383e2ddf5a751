import CFFmpeg
import Foundation
import Imaging
import TasksCommon
import TestSupport
import Testing

@testable import VideoInput

/// Frames keep the decoder's pixel layout (YUV stays YUV) with the stream's range and matrix;
/// only formats Imaging does not read are repacked, YUV to YUV or RGB-like to RGB.
@Suite("Video frame pixel formats", .enabled(if: Clips.canMake, Clips.missingReason))
struct VideoFramePixelFormatTests {
    /// A raw frame format as `ffmpeg -pix_fmt` names it, with what `VideoSource` should make of it.
    struct RawCase: Sendable, CustomTestStringConvertible {
        let ffmpegName: String
        let format: PixelFormat
        let range: YUVColorRange
        /// Whether the planes are kept as they are (else libswscale repacks them).
        let kept: Bool
        /// The largest mean difference from the RGB reference picture (4:2:0 chroma costs most).
        let tolerance: Double

        var testDescription: String { "\(ffmpegName) → \(format)" }
    }

    static let rawCases: [RawCase] = [
        RawCase(ffmpegName: "yuv420p", format: .i420, range: .video, kept: true, tolerance: 6),
        RawCase(ffmpegName: "yuvj420p", format: .i420, range: .full, kept: true, tolerance: 6),
        RawCase(ffmpegName: "yuva420p", format: .i420, range: .video, kept: true, tolerance: 6),
        RawCase(ffmpegName: "nv12", format: .nv12, range: .video, kept: true, tolerance: 6),
        RawCase(ffmpegName: "nv21", format: .nv21, range: .video, kept: true, tolerance: 6),
        RawCase(ffmpegName: "yuv444p", format: .i444, range: .video, kept: true, tolerance: 1.5),
        RawCase(ffmpegName: "yuvj444p", format: .i444, range: .full, kept: true, tolerance: 1.5),
        RawCase(ffmpegName: "yuyv422", format: .yuyv, range: .video, kept: true, tolerance: 4),
        RawCase(ffmpegName: "rgb24", format: .rgb8, range: .video, kept: true, tolerance: 0.01),
        RawCase(ffmpegName: "rgba", format: .rgba8, range: .video, kept: true, tolerance: 0.01),
        RawCase(ffmpegName: "rgb0", format: .rgba8, range: .video, kept: true, tolerance: 0.01),
        RawCase(ffmpegName: "bgra", format: .bgra8, range: .video, kept: true, tolerance: 0.01),
        RawCase(ffmpegName: "bgr0", format: .bgra8, range: .video, kept: true, tolerance: 0.01),
        RawCase(ffmpegName: "gray", format: .gray8, range: .video, kept: true, tolerance: .infinity),
        // Repacked by libswscale: 4:2:2 to YUYV, 4:4:4 to I444, the other YUV to I420, RGB-like to RGB.
        RawCase(ffmpegName: "yuv422p", format: .yuyv, range: .video, kept: false, tolerance: 4),
        RawCase(ffmpegName: "yuvj422p", format: .yuyv, range: .full, kept: false, tolerance: 4),
        RawCase(ffmpegName: "uyvy422", format: .yuyv, range: .video, kept: false, tolerance: 4),
        RawCase(ffmpegName: "yuv444p10le", format: .i444, range: .video, kept: false, tolerance: 1.5),
        RawCase(ffmpegName: "yuv420p10le", format: .i420, range: .video, kept: false, tolerance: 6),
        RawCase(ffmpegName: "p010le", format: .i420, range: .video, kept: false, tolerance: 6),
        RawCase(ffmpegName: "yuv411p", format: .i420, range: .video, kept: false, tolerance: 8),
        RawCase(ffmpegName: "yuv440p", format: .i420, range: .video, kept: false, tolerance: 6),
        RawCase(ffmpegName: "bgr24", format: .rgb8, range: .video, kept: false, tolerance: 0.01),
        RawCase(ffmpegName: "argb", format: .rgb8, range: .video, kept: false, tolerance: 0.01),
        RawCase(ffmpegName: "rgb48le", format: .rgb8, range: .video, kept: false, tolerance: 0.6),
        RawCase(ffmpegName: "gray16le", format: .rgb8, range: .video, kept: false, tolerance: .infinity),
    ]

    /// Opens raw frames of `rawCase` stored in `file` (`rawvideo`, no container: no colour tags).
    static func rawSource(_ file: URL, _ rawCase: RawCase, width: Int, height: Int) throws -> VideoSource {
        try VideoSource(
            url: file.path,
            options: VideoSourceOptions(
                inputFormat: "rawvideo",
                demuxerOptions: [
                    "video_size": "\(width)x\(height)", "pixel_format": rawCase.ffmpegName, "framerate": "10",
                ]))
    }

    @Test("burger.jpg as raw frames of each decoder format arrives in the matching layout", arguments: rawCases)
    func rawFormat(_ rawCase: RawCase) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let reference = try Clips.reference("burger.jpg", in: directory)
        let raw = directory.appendingPathComponent("burger.\(rawCase.ffmpegName)")
        try FFmpegTool.run([
            "-y", "-i", TestData.image("burger.jpg").path,
            "-vf", "scale=\(Clips.width):\(Clips.height),setsar=1,format=\(rawCase.ffmpegName)",
            "-f", "rawvideo", raw.path,
        ])
        let source = try Self.rawSource(raw, rawCase, width: Clips.width, height: Clips.height)
        let frame = try #require(try source.nextFrame())
        #expect(try source.nextFrame() == nil)
        #expect(frame.pixels.format == rawCase.format)
        #expect((frame.pixels.width, frame.pixels.height) == (Clips.width, Clips.height))
        if rawCase.format.isYUV {
            #expect(frame.pixels.colorRange == rawCase.range)
            #expect(frame.pixels.colorMatrix == .bt601, "untagged frames are BT.601")
        }
        guard rawCase.tolerance.isFinite else { return }  // gray: no colour to compare
        let difference = Clips.meanAbsoluteDifference(frame.pixels, reference)
        #expect(difference < rawCase.tolerance, "mean difference from the RGB picture: \(difference)")
    }

    /// Random bytes in every copied format, at an odd size: the image holds exactly the
    /// frame's planes in FFmpeg's rawvideo layout (alpha planes dropped).
    @Test("formats kept as they are keep every byte, at odd sizes", arguments: rawCases.filter(\.kept))
    func copiedBytes(_ rawCase: RawCase) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let (width, height) = (33, 17)
        let format = av_get_pix_fmt(rawCase.ffmpegName)
        let frameSize = Int(av_image_get_buffer_size(format, Int32(width), Int32(height), 1))
        try #require(frameSize > 0)
        var random = SplitMix64(seed: UInt64(frameSize))
        let bytes = (0..<2 * frameSize).map { _ in UInt8.random(in: 0...255, using: &random) }
        let raw = directory.appendingPathComponent("random.raw")
        try Data(bytes).write(to: raw)

        let source = try Self.rawSource(raw, rawCase, width: width, height: height)
        // The alpha plane of yuva formats comes last, and is not part of the image.
        let imageSize = frameSize - (rawCase.ffmpegName.hasPrefix("yuva") ? width * height : 0)
        for index in 0..<2 {
            let frame = try #require(try source.nextFrame())
            let expected = try PixelImage(
                bytes: Array(bytes[index * frameSize..<index * frameSize + imageSize]), width: width,
                height: height, bytesPerRow: nil, format: rawCase.format)
            #expect(frame.pixels.format == rawCase.format)
            #expect(frame.pixels.bytesPerRow == expected.bytesPerRow)
            let copied = expected.bytes.prefix(frame.pixels.bytes.count)
            #expect(frame.pixels.bytes.count <= frameSize && frame.pixels.bytes[...] == copied, "frame \(index)")
        }
        #expect(try source.nextFrame() == nil)
    }

    /// 4:2:2 is repacked to YUYV without loss: the same Y, U and V bytes.
    @Test("4:2:2 planar and UYVY repack to YUYV losslessly", arguments: ["yuv422p", "uyvy422"])
    func lossless422(_ name: String) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let (width, height) = (32, 9)
        var random = SplitMix64(seed: 42)
        let y = (0..<width * height).map { _ in UInt8.random(in: 0...255, using: &random) }
        let u = (0..<width / 2 * height).map { _ in UInt8.random(in: 0...255, using: &random) }
        let v = (0..<width / 2 * height).map { _ in UInt8.random(in: 0...255, using: &random) }
        var raw: [UInt8] = []
        switch name {
        case "yuv422p": raw = y + u + v
        default:  // uyvy422: U, Y0, V, Y1 per pair
            for row in 0..<height {
                for pair in 0..<width / 2 {
                    let chroma = row * width / 2 + pair, luma = row * width + 2 * pair
                    raw += [u[chroma], y[luma], v[chroma], y[luma + 1]]
                }
            }
        }
        let file = directory.appendingPathComponent("frame.raw")
        try Data(raw).write(to: file)
        let rawCase = RawCase(ffmpegName: name, format: .yuyv, range: .video, kept: false, tolerance: 0)
        let frame = try #require(try Self.rawSource(file, rawCase, width: width, height: height).nextFrame())
        #expect(frame.pixels.format == .yuyv)
        var mismatches = 0
        for row in 0..<height {
            for pair in 0..<width / 2 {
                let offset = row * frame.pixels.bytesPerRow + 4 * pair
                let expected = [
                    y[row * width + 2 * pair], u[row * width / 2 + pair], y[row * width + 2 * pair + 1],
                    v[row * width / 2 + pair],
                ]
                if Array(frame.pixels.bytes[offset..<offset + 4]) != expected { mismatches += 1 }
            }
        }
        #expect(mismatches == 0)
    }

    // MARK: Colour tags from real decoders

    /// A clip of burger.jpg encoded in `pixelFormat` with the matrix and range it is tagged with.
    struct TaggedCase: Sendable, CustomTestStringConvertible {
        let name: String
        /// The encoder options (after `-c:v`).
        let codec: [String]
        let pixelFormat: String
        /// ffmpeg's `scale` name of the matrix the pixels are made with, and its `-colorspace` tag.
        let matrixName: String, colorspaceTag: String
        let range: YUVColorRange
        let expectedFormat: PixelFormat
        let expectedMatrix: YUVColorMatrix
        let tolerance: Double

        var testDescription: String { name }
    }

    static let taggedCases: [TaggedCase] = [
        TaggedCase(
            name: "H.264 BT.709 video range", codec: ["libx264", "-preset", "veryfast", "-qp", "0"], pixelFormat: "yuv420p",
            matrixName: "bt709", colorspaceTag: "bt709", range: .video, expectedFormat: .i420, expectedMatrix: .bt709,
            tolerance: 6),
        TaggedCase(
            name: "H.264 BT.709 full range", codec: ["libx264", "-preset", "veryfast", "-qp", "0"], pixelFormat: "yuv420p",
            matrixName: "bt709", colorspaceTag: "bt709", range: .full, expectedFormat: .i420, expectedMatrix: .bt709, tolerance: 6
        ),
        TaggedCase(
            name: "H.264 4:4:4 BT.709", codec: ["libx264", "-preset", "veryfast", "-qp", "0"], pixelFormat: "yuv444p",
            matrixName: "bt709", colorspaceTag: "bt709", range: .video, expectedFormat: .i444, expectedMatrix: .bt709,
            tolerance: 1.5),
        TaggedCase(
            name: "VP9 BT.601 (SMPTE 170M)", codec: ["libvpx-vp9", "-lossless", "1"], pixelFormat: "yuv420p",
            matrixName: "bt601", colorspaceTag: "smpte170m", range: .video, expectedFormat: .i420, expectedMatrix: .bt601,
            tolerance: 6),
        TaggedCase(
            name: "FFV1 4:4:4 BT.2020", codec: ["ffv1"], pixelFormat: "yuv444p",
            matrixName: "bt2020", colorspaceTag: "bt2020nc", range: .video, expectedFormat: .i444, expectedMatrix: .bt2020,
            tolerance: 1.5),
        TaggedCase(
            name: "HEVC 10-bit BT.2020 (repacked)",
            codec: ["libx265", "-preset", "ultrafast", "-x265-params", "lossless=1:log-level=error"],
            pixelFormat: "yuv420p10le", matrixName: "bt2020", colorspaceTag: "bt2020nc", range: .video, expectedFormat: .i420,
            expectedMatrix: .bt2020, tolerance: 6),
        TaggedCase(
            name: "FFV1 4:4:4 SMPTE 240M", codec: ["ffv1"], pixelFormat: "yuv444p",
            matrixName: "smpte240m", colorspaceTag: "smpte240m", range: .full, expectedFormat: .i444, expectedMatrix: .smpte240m,
            tolerance: 1.5),
        TaggedCase(
            name: "MJPEG 4:2:2 (repacked)", codec: ["mjpeg", "-q:v", "1"], pixelFormat: "yuvj422p",
            matrixName: "bt601", colorspaceTag: "bt470bg", range: .full, expectedFormat: .yuyv, expectedMatrix: .bt601,
            tolerance: 6),
    ]

    /// Encodes burger.jpg (320x240) with the tagged matrix and range.
    static func taggedClip(_ tagged: TaggedCase, frames: Int = 1, in directory: URL) throws -> URL {
        let clip = directory.appendingPathComponent("tagged.mkv")
        let range = tagged.range == .video ? "tv" : "pc"
        try FFmpegTool.run(
            [
                "-y", "-loop", "1", "-framerate", "10", "-i", TestData.image("burger.jpg").path,
                "-vf",
                "scale=\(Clips.width):\(Clips.height),setsar=1,format=rgb24,scale=out_color_matrix=\(tagged.matrixName):out_range=\(range),format=\(tagged.pixelFormat)",
                "-colorspace", tagged.colorspaceTag, "-color_range", range, "-frames:v", String(frames), "-c:v",
            ] + tagged.codec + [clip.path])
        return clip
    }

    @Test("decoded frames carry the stream's matrix and range, in the decoder's layout", arguments: taggedCases)
    func taggedStream(_ tagged: TaggedCase) throws {
        let encoder = tagged.codec[0]
        try #require(FFmpegTool.encoders.isEmpty || FFmpegTool.encoders.contains(encoder), "ffmpeg lacks \(encoder)")
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let reference = try Clips.reference("burger.jpg", in: directory)
        let frame = try #require(try VideoSource(url: Self.taggedClip(tagged, in: directory).path).nextFrame())
        #expect(frame.pixels.format == tagged.expectedFormat)
        #expect(frame.pixels.colorMatrix == tagged.expectedMatrix)
        #expect(frame.pixels.colorRange == tagged.range)
        let difference = Clips.meanAbsoluteDifference(frame.pixels, reference)
        #expect(difference < tagged.tolerance, "mean difference from the RGB picture: \(difference)")

        // Control: the same planes read with BT.601 are visibly further from the picture.
        guard tagged.expectedMatrix != .bt601 else { return }
        let misread = try PixelImage(
            bytes: frame.pixels.bytes, width: frame.pixels.width, height: frame.pixels.height,
            bytesPerRow: frame.pixels.bytesPerRow, format: frame.pixels.format,
            colorRange: frame.pixels.colorRange, colorMatrix: .bt601)
        let misreadDifference = Clips.meanAbsoluteDifference(misread, reference)
        #expect(misreadDifference > difference + 1, "read as BT.601: \(misreadDifference), as tagged: \(difference)")
    }

    @Test(
        "JPEG photos decode as full-range BT.601 YUV: yuvj444p as I444, yuvj420p as I420",
        arguments: [
            ("burger.jpg", PixelFormat.i444), ("sparrow.jpg", .i420),
        ])
    func jpegStill(photo: String, format: PixelFormat) throws {
        let frame = try #require(try VideoSource(url: TestData.image(photo).path).nextFrame())
        #expect(frame.pixels.format == format)
        #expect(frame.pixels.colorRange == .full)
        #expect(frame.pixels.colorMatrix == .bt601)
        // libjpeg-turbo (Imaging's decoder) and FFmpeg's MJPEG decoder agree within a few levels.
        let decoded = try ImageDecoder.decode(contentsOf: TestData.image(photo)).pixels
        let difference = Clips.meanAbsoluteDifference(frame.pixels, decoded)
        #expect(difference < 2, "mean difference from libjpeg-turbo's RGB: \(difference)")
    }

    // MARK: The mapping tables

    /// FFmpeg's names of colour spaces (`av_color_space_name`), so that the cases read as ffprobe prints them.
    @Test(
        "AVColorSpace maps to the matrix libswscale would use",
        arguments: [
            ("bt709", YUVColorMatrix.bt709), ("bt470bg", .bt601), ("smpte170m", .bt601), ("unknown", .bt601),
            ("bt2020nc", .bt2020), ("bt2020c", .bt2020), ("smpte240m", .smpte240m), ("fcc", .fcc), ("gbr", .bt601),
            ("ycgco", .bt601), ("ictcp", .bt601), ("chroma-derived-nc", .bt601), ("reserved", .bt601),
        ])
    func colorSpaces(name: String, matrix: YUVColorMatrix) throws {
        let space = av_color_space_from_name(name)
        try #require(space >= 0, "FFmpeg knows \(name)")
        #expect(FrameColor.matrix(of: AVColorSpace(rawValue: UInt32(space))) == matrix)
    }

    /// FFmpeg's names of pixel formats and ranges (`av_get_pix_fmt`, `av_color_range_from_name`).
    @Test(
        "the stated range wins; unstated, yuvj formats are full range",
        arguments: [
            ("yuv420p", "unknown", YUVColorRange.video), ("yuv420p", "pc", .full), ("yuv420p", "tv", .video),
            ("yuvj420p", "unknown", .full), ("yuvj422p", "unknown", .full), ("yuvj420p", "tv", .video),
            ("nv12", "pc", .full), ("nv12", "unknown", .video),
        ])
    func ranges(format: String, stated: String, range: YUVColorRange) throws {
        let frame = try #require(av_frame_alloc())
        defer { var pointer: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&pointer) }
        frame.pointee.format = av_get_pix_fmt(format).rawValue
        let statedRange = av_color_range_from_name(stated)
        try #require(frame.pointee.format >= 0 && statedRange >= 0)
        frame.pointee.color_range = AVColorRange(rawValue: UInt32(statedRange))
        #expect(FrameColor.range(of: frame) == range)
    }

    @Test("a hand-made AVFrame keeps its matrix and range through the converter")
    func converterUnit() throws {
        let frame = try #require(av_frame_alloc())
        defer { var pointer: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&pointer) }
        frame.pointee.format = AV_PIX_FMT_NV12.rawValue
        (frame.pointee.width, frame.pointee.height) = (7, 5)
        frame.pointee.colorspace = AVCOL_SPC_BT709
        frame.pointee.color_range = AVCOL_RANGE_JPEG
        try #require(av_frame_get_buffer(frame, 0) >= 0)
        // Y = 200, U = 30, V = 220: BT.709 full range gives (255, 175, 18) (see YUVColorMatrixTests).
        memset(frame.pointee.data.0!, 200, Int(frame.pointee.linesize.0) * 5)
        for row in 0..<3 {
            let chroma = frame.pointee.data.1! + row * Int(frame.pointee.linesize.1)
            for pair in 0..<4 { (chroma[2 * pair], chroma[2 * pair + 1]) = (30, 220) }
        }
        let pixels = try FrameConverter().pixels(of: frame, source: "test")
        #expect(pixels.format == .nv12 && pixels.colorMatrix == .bt709 && pixels.colorRange == .full)
        // Read in place: the image holds a second reference to the frame's buffers and keeps
        // the frame's stride, and the pixels outlive the frame's own reference.
        #expect((pixels.width, pixels.height, pixels.bytesPerRow) == (7, 5, Int(frame.pointee.linesize.0)))
        #expect(av_buffer_get_ref_count(frame.pointee.buf.0) == 2)
        // `bytes` copies the planes: Y with its padded rows, then the chroma rows.
        let (lumaStride, chromaStride) = (Int(frame.pointee.linesize.0), Int(frame.pointee.linesize.1))
        #expect(pixels.bytes.count == lumaStride * 5 + chromaStride * 2 + 8)
        av_frame_unref(frame)
        let pixel = pixels.rgba(x: 6, y: 4)
        #expect([pixel.red, pixel.green, pixel.blue] == [255, 175, 18])
    }

    @Test("a frame whose buffers are not reference-counted is copied, tightly packed")
    func converterCopiesUnownedFrames() throws {
        let frame = try #require(av_frame_alloc())
        defer { var pointer: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&pointer) }
        frame.pointee.format = AV_PIX_FMT_GRAY8.rawValue
        (frame.pointee.width, frame.pointee.height) = (3, 2)
        var gray: [UInt8] = [1, 2, 3, 0, 4, 5, 6, 0]
        let pixels = try gray.withUnsafeMutableBufferPointer { buffer in
            frame.pointee.data.0 = buffer.baseAddress
            frame.pointee.linesize.0 = 4
            defer { frame.pointee.data.0 = nil }
            return try FrameConverter().pixels(of: frame, source: "test")
        }
        gray.withUnsafeMutableBufferPointer { $0.update(repeating: 9) }
        #expect((pixels.width, pixels.height, pixels.bytesPerRow) == (3, 2, 3))
        #expect(pixels.bytes == [1, 2, 3, 4, 5, 6])
    }

    @Test("unsupported frames are invalidArgumentErrors naming the source")
    func unsupportedFrame() throws {
        let frame = try #require(av_frame_alloc())
        defer { var pointer: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&pointer) }
        frame.pointee.format = AV_PIX_FMT_NONE.rawValue
        (frame.pointee.width, frame.pointee.height) = (4, 4)
        let error = expectTasksError(.invalidArgumentError, containing: ["clip.mp4: Failed to convert a frame of video source: "])
        {
            () throws(TasksError) in try FrameConverter().pixels(of: frame, source: "clip.mp4")
        }
        #expect(error?.subject == .videoSource("clip.mp4"), "\(String(describing: error))")
        #expect(error?.message.hasPrefix("clip.mp4: ") == true, "\(String(describing: error))")
    }
}
