import Foundation
import Imaging
import TestSupport
import Testing

/// Test clips and reference pictures, made with `ffmpeg` from the shared test photos.
enum Clips {
    /// The frame size of the clips, in pixels.
    static let width = 320
    static let height = 240
    /// The frame rate of the clips, in frames per second.
    static let frameRate = 10
    /// Seconds each photo is shown in `burgerThenSparrow`.
    static let secondsPerPhoto = 2

    /// Whether everything the clips need is there.
    static var canMake: Bool { FFmpegTool.isAvailable && TestData.isAvailable }

    /// Why tests that need clips are skipped.
    static var missingReason: Comment {
        FFmpegTool.isAvailable ? Comment(rawValue: TestData.missingReason) : FFmpegTool.missingReason
    }

    /// The scaling every clip and reference applies to a photo.
    private static var scale: String { "scale=\(width):\(height),setsar=1" }

    /// A clip of burger.jpg for 2 s, then sparrow.jpg for 2 s, at 10 fps: 40 frames with
    /// timestamps 0, 100, ..., 3900 ms.
    static func burgerThenSparrow(_ format: ClipFormat, in directory: URL, name: String = "clip") throws -> URL {
        let output = directory.appendingPathComponent("\(name).\(format.fileExtension)")
        let seconds = String(secondsPerPhoto)
        try FFmpegTool.run(
            [
                "-y", "-loop", "1", "-framerate", String(frameRate), "-t", seconds, "-i", TestData.image("burger.jpg").path,
                "-loop", "1", "-framerate", String(frameRate), "-t", seconds, "-i", TestData.image("sparrow.jpg").path,
                "-filter_complex", "[0:v]\(scale),format=yuv420p[a];[1:v]\(scale),format=yuv420p[b];[a][b]concat=n=2:v=1:a=0[v]",
                "-map", "[v]",
            ] + format.codecArguments + [output.path])
        return output
    }

    /// A 4 s clip of FFmpeg's moving test pattern (`testsrc2`) at 10 fps, 320x240: 40 frames
    /// whose bytes are spread over the file (unlike still photos, where the key frames hold
    /// nearly everything), for cutting and damaging.
    static func movingPattern(_ format: ClipFormat, in directory: URL) throws -> URL {
        let output = directory.appendingPathComponent("pattern.\(format.fileExtension)")
        try FFmpegTool.run(
            ["-y", "-f", "lavfi", "-i", "testsrc2=size=\(width)x\(height):rate=\(frameRate):duration=4"]
                + format.codecArguments + [output.path])
        return output
    }

    /// A photo from the test data scaled as the clips scale it, written by ffmpeg as an RGB
    /// PNG and decoded: what a perfect decoder would give for a frame of that photo.
    static func reference(_ photo: String, in directory: URL) throws -> PixelImage {
        let output = directory.appendingPathComponent("\(photo)-reference.png")
        try FFmpegTool.run([
            "-y", "-i", TestData.image(photo).path, "-vf", "\(scale),format=rgb24", "-frames:v", "1", output.path,
        ])
        return try ImageDecoder.decode(contentsOf: output).pixels
    }

    /// The mean absolute difference of two images of the same size over the red, green and blue
    /// channels, in 0...255.
    static func meanAbsoluteDifference(_ a: PixelImage, _ b: PixelImage) -> Double {
        precondition(
            a.width == b.width && a.height == b.height, "sizes differ: \(a.width)x\(a.height) and \(b.width)x\(b.height)")
        var total = 0
        for y in 0..<a.height {
            for x in 0..<a.width {
                let p = a.rgba(x: x, y: y), q = b.rgba(x: x, y: y)
                total += abs(Int(p.red) - Int(q.red)) + abs(Int(p.green) - Int(q.green)) + abs(Int(p.blue) - Int(q.blue))
            }
        }
        return Double(total) / Double(a.width * a.height * 3)
    }

    /// A fresh temporary directory, with a closure to remove it.
    static func temporaryDirectory() throws -> (url: URL, remove: () -> Void) {
        let url = try TestData.temporaryDirectory()
        return (url, { try? FileManager.default.removeItem(at: url) })
    }
}
