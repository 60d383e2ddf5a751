import Foundation
import Imaging
import TasksCommon
import TestSupport
import Testing

@testable import VideoInput

/// Decoding real clips made by ffmpeg: frame counts, container timestamps, pixels, metadata.
@Suite("VideoSource decoding", .enabled(if: Clips.canMake, Clips.missingReason))
struct VideoSourceDecodingTests {
    @Test("burger 2 s then sparrow 2 s at 10 fps: 40 frames, 0...3900 ms, the right pictures", arguments: ClipFormat.all)
    func burgerThenSparrow(format: ClipFormat) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let clip = try Clips.burgerThenSparrow(format, in: directory)
        let burger = try Clips.reference("burger.jpg", in: directory)
        let sparrow = try Clips.reference("sparrow.jpg", in: directory)

        let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
        #expect(source.width == Clips.width)
        #expect(source.height == Clips.height)
        #expect(source.codecName == format.codecName)
        #expect(abs((source.frameRate ?? 0) - 10) < 0.01, "frameRate \(String(describing: source.frameRate))")
        let duration = try #require(source.durationInMilliseconds)
        #expect(abs(duration - 4000) <= 100, "duration \(duration) ms")

        let frames = try readAllFrames(source)
        #expect(frames.count == 40)
        let timestamps = frames.map(\.timestampInMilliseconds)
        #expect(timestamps.first == 0)
        #expect(timestamps.last.map { abs($0 - 3900) <= 1 } == true, "last timestamp \(String(describing: timestamps.last))")
        expectIncreasing(timestamps)
        for (index, timestamp) in timestamps.enumerated() {
            #expect(abs(timestamp - index * 100) <= 1, "frame \(index) at \(timestamp) ms")
        }
        // The decoders' yuv420p arrives as it is, as I420 (no RGB copy), in BT.601 video range.
        #expect(frames.allSatisfy { $0.orientation == .up && $0.pixels.format == .i420 })
        #expect(frames.allSatisfy { $0.pixels.colorRange == .video && $0.pixels.colorMatrix == .bt601 })
        #expect(try source.nextFrame() == nil, "nil again after the end")

        guard frames.count == 40 else { return }
        let firstToBurger = Clips.meanAbsoluteDifference(frames[0].pixels, burger)
        let firstToSparrow = Clips.meanAbsoluteDifference(frames[0].pixels, sparrow)
        #expect(firstToBurger < 6, "first frame vs burger: \(firstToBurger)")
        #expect(firstToSparrow > 4 * firstToBurger, "first frame vs sparrow: \(firstToSparrow)")
        // The switch happens at 2 s: frame 19 (1900 ms) is burger, frame 20 (2000 ms) sparrow.
        #expect(Clips.meanAbsoluteDifference(frames[19].pixels, burger) < 6)
        #expect(Clips.meanAbsoluteDifference(frames[20].pixels, sparrow) < 6)
        #expect(Clips.meanAbsoluteDifference(frames[39].pixels, sparrow) < 6)
    }

    /// A variable-frame-rate clip: 10 frames 100 ms apart, then 10 frames 250 ms apart.
    /// Counting frames at the average rate would give even gaps; the container's
    /// timestamps give these.
    static let variableRateTimestamps = (0..<10).map { $0 * 100 } + (0..<10).map { 1000 + $0 * 250 }

    @Test(
        "timestamps come from the container: a variable-frame-rate clip keeps its real gaps",
        arguments: [ClipFormat.mkv, ClipFormat.mp4])
    func variableFrameRate(format: ClipFormat) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let clip = directory.appendingPathComponent("vfr.\(format.fileExtension)")
        // setpts gives frame N the time N*0.1 s for N < 10, then 1 + (N-10)*0.25 s.
        try FFmpegTool.run(
            [
                "-y", "-f", "lavfi", "-i", "testsrc=size=160x120:rate=10:duration=2",
                "-vf", "settb=1/1000,setpts='if(lt(N,10),N*0.1,1+(N-10)*0.25)/TB'", "-fps_mode", "passthrough",
                "-enc_time_base", "1/1000", "-video_track_timescale", "1000",
            ] + format.codecArguments + [clip.path])

        let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
        let timestamps = try readAllFrames(source).map(\.timestampInMilliseconds)
        #expect(timestamps.count == Self.variableRateTimestamps.count)
        for (actual, expected) in zip(timestamps, Self.variableRateTimestamps) {
            #expect(abs(actual - expected) <= 1, "\(timestamps)")
        }
    }

    /// Colour matrices and ranges, each encoded losslessly (FFV1, 4:4:4) and tagged.
    static let colourCases: [(matrix: String, range: String)] = [
        ("bt601", "tv"), ("bt601", "pc"), ("bt709", "tv"), ("bt709", "pc"),
    ]

    @Test("the stream's colour matrix and range are honoured", arguments: colourCases)
    func colourSpaceAndRange(matrix: String, range: String) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let burger = try Clips.reference("burger.jpg", in: directory)
        let clip = directory.appendingPathComponent("colour.mkv")
        let tag = matrix == "bt709" ? "bt709" : "smpte170m"
        try FFmpegTool.run([
            "-y", "-i", TestData.image("burger.jpg").path,
            "-vf",
            "scale=\(Clips.width):\(Clips.height),setsar=1,format=rgb24,scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv444p",
            "-colorspace", tag, "-color_range", range, "-c:v", "ffv1", "-frames:v", "1", clip.path,
        ])
        let source = try VideoSource(url: clip.path, options: VideoSourceOptions())
        let frame = try #require(try source.nextFrame())
        let difference = Clips.meanAbsoluteDifference(frame.pixels, burger)
        #expect(difference < 1.5, "\(matrix) \(range): mean difference \(difference)")

        // Control: the same pixels without the tags are read with libswscale's defaults
        // (BT.601, limited range), which visibly differ unless those are the right ones.
        guard matrix != "bt601" || range != "tv" else { return }
        let untagged = directory.appendingPathComponent("untagged.mkv")
        try FFmpegTool.run([
            "-y", "-i", TestData.image("burger.jpg").path,
            "-vf",
            "scale=\(Clips.width):\(Clips.height),setsar=1,format=rgb24,scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv444p,setrange=unknown",
            "-c:v", "ffv1", "-frames:v", "1", untagged.path,
        ])
        let untaggedFrame = try #require(try VideoSource(url: untagged.path, options: VideoSourceOptions()).nextFrame())
        let untaggedDifference = Clips.meanAbsoluteDifference(untaggedFrame.pixels, burger)
        #expect(untaggedDifference > 3, "without tags: mean difference \(untaggedDifference)")
    }

    @Test("the display matrix of a rotated clip becomes the orientation", arguments: [90, 180, 270])
    func rotation(degrees: Int) throws {
        let (directory, remove) = try Clips.temporaryDirectory()
        defer { remove() }
        let plain = try Clips.burgerThenSparrow(.mkv, in: directory)
        let rotated = directory.appendingPathComponent("rotated.mp4")
        try FFmpegTool.run(["-y", "-i", plain.path, "-c", "copy", "-metadata:s:v", "rotate=\(degrees)", rotated.path])
        // ffmpeg applies the display matrix itself when it decodes (autorotate): the reference.
        // (Its RGB conversion does not interpolate chroma, so a few levels of difference remain;
        // a wrong orientation differs by tens.)
        let upright = directory.appendingPathComponent("upright.png")
        try FFmpegTool.run(["-y", "-i", rotated.path, "-frames:v", "1", "-pix_fmt", "rgb24", upright.path])
        let reference = try ImageDecoder.decode(contentsOf: upright).pixels

        let source = try VideoSource(url: rotated.path, options: VideoSourceOptions())
        let frame = try #require(try source.nextFrame())
        #expect(frame.pixels.width == Clips.width && frame.pixels.height == Clips.height, "stored pixels are not rotated")
        let displayed = OrientedPixels.displayedImage(frame.pixels, orientation: frame.orientation)
        #expect(
            displayed.width == reference.width && displayed.height == reference.height,
            "\(frame.orientation): \(displayed.width)x\(displayed.height), ffmpeg shows \(reference.width)x\(reference.height)")
        guard displayed.width == reference.width, displayed.height == reference.height else { return }
        let difference = Clips.meanAbsoluteDifference(displayed, reference)
        #expect(difference < 5, "\(frame.orientation) for rotate=\(degrees): mean difference \(difference)")
    }

    @Test("a lavfi test source opens without a file")
    func lavfiTestSource() throws {
        let source = try VideoSource(
            url: "testsrc=size=64x48:rate=10:duration=1",
            options: VideoSourceOptions(inputFormat: "lavfi"))
        #expect(source.width == 64 && source.height == 48)
        #expect(source.codecName == "rawvideo")
        let timestamps = try readAllFrames(source).map(\.timestampInMilliseconds)
        #expect(timestamps == (0..<10).map { $0 * 100 })
    }

    @Test("a still image is a one-frame video")
    func stillImage() throws {
        let source = try VideoSource(url: TestData.image("burger.jpg").path, options: VideoSourceOptions())
        #expect(source.codecName == "mjpeg")
        let frames = try readAllFrames(source)
        #expect(frames.count == 1)
        #expect(frames.first?.timestampInMilliseconds == 0)
        #expect(frames.first.map { ($0.pixels.width, $0.pixels.height) == (480, 325) } == true)
    }
}

extension OrientedPixels {
    /// `image` (RGB) turned upright as `orientation` says, using `displayed(_:_:...)`.
    static func displayedImage(_ image: PixelImage, orientation: ImageOrientation) -> PixelImage {
        let quarterTurn = [.left, .right, .leftMirrored, .rightMirrored].contains(orientation)
        let (width, height) = quarterTurn ? (image.height, image.width) : (image.width, image.height)
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<image.height {
            for x in 0..<image.width {
                let (u, v) = displayed(x, y, orientation: orientation, width: image.width, height: image.height)
                let pixel = image.rgba(x: x, y: y)
                bytes.replaceSubrange((v * width + u) * 3..<(v * width + u + 1) * 3, with: [pixel.red, pixel.green, pixel.blue])
            }
        }
        return try! PixelImage(bytes: bytes, width: width, height: height, bytesPerRow: width * 3, format: .rgb8)
    }
}
