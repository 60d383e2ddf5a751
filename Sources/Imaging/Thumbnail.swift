import TasksCommon

/// A small upright picture of an image, encoded as WebP, for the `vision-tasks` report.
///
/// The image is turned upright by its orientation and scaled to fit in `maximumSide` pixels
/// (never enlarged): the preprocessing's bilinear warp samples it at up to 4 times the
/// thumbnail's size (any `PixelFormat`, YUV included, alpha dropped), then a box filter
/// averages each block of samples into one pixel, so large photos do not alias. The WebP
/// quality is lowered step by step until the file fits in `targetByteCount` bytes (or the
/// lowest step is reached).
package struct Thumbnail: Sendable, Equatable {
    /// The thumbnail's width and height in pixels.
    package let width: Int
    package let height: Int
    /// The WebP file.
    package let webp: [UInt8]

    /// The largest side, in pixels, by default.
    package static let defaultMaximumSide = 256
    /// The size a thumbnail should stay under, in bytes, by default.
    package static let defaultTargetByteCount = 20_000
    /// The WebP qualities tried, best first.
    static let qualities: [Float] = [80, 65, 50, 35, 20]
    /// The most samples a thumbnail pixel averages in each direction.
    static let maximumBoxSide = 4

    /// Makes the thumbnail of `image` seen through `orientation`.
    ///
    /// - Parameters:
    ///   - image: The stored pixels.
    ///   - orientation: How the stored pixels are turned upright (EXIF, or a rotation given).
    ///   - maximumSide: The largest width or height of the thumbnail, in pixels, > 0.
    ///   - targetByteCount: The size in bytes the WebP file should stay under.
    /// - Throws: `TasksError` `internalError` when libwebp cannot encode it.
    package init(
        _ image: PixelImage, orientation: ImageOrientation, maximumSide: Int = defaultMaximumSide,
        targetByteCount: Int = defaultTargetByteCount
    ) throws(TasksError) {
        precondition(maximumSide > 0, "maximumSide must be positive")
        let turned = orientation.preprocessingTransform.rotationDegrees % 180 != 0
        let (uprightWidth, uprightHeight) = turned ? (image.height, image.width) : (image.width, image.height)
        let scale = min(1, Double(maximumSide) / Double(max(uprightWidth, uprightHeight)))
        let width = max(1, Int((Double(uprightWidth) * scale).rounded()))
        let height = max(1, Int((Double(uprightHeight) * scale).rounded()))
        let box = min(Self.maximumBoxSide, max(1, Int((Double(uprightWidth) / Double(width)).rounded(.up))))

        var samples = [UInt8](
            repeating: 0,
            count: ImagePreprocessor.tensorByteCount(
                width: width * box, height: height * box,
                element: .uint8))
        var failure: TasksError?
        samples.withUnsafeMutableBytes { buffer in
            do throws(TasksError) {
                try ImagePreprocessor.preprocess(
                    image, orientation: orientation, into: buffer, width: width * box,
                    height: height * box, element: .uint8)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        let rgb = Self.boxFiltered(samples, width: width, height: height, box: box)
        var encoded: [UInt8] = []
        for quality in Self.qualities {
            encoded = try WebPEncoder.encodeRGB(rgb, width: width, height: height, quality: quality)
            if encoded.count <= targetByteCount { break }
        }
        self.width = width
        self.height = height
        webp = encoded
    }

    /// The average of each `box` x `box` block of RGB samples (`width * box` by `height * box`).
    static func boxFiltered(_ samples: [UInt8], width: Int, height: Int, box: Int) -> [UInt8] {
        guard box > 1 else { return samples }
        let sampleRowBytes = width * box * 3
        let area = box * box
        var rgb = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                var sums = (0, 0, 0)
                for dy in 0..<box {
                    var offset = (y * box + dy) * sampleRowBytes + x * box * 3
                    for _ in 0..<box {
                        sums.0 += Int(samples[offset])
                        sums.1 += Int(samples[offset + 1])
                        sums.2 += Int(samples[offset + 2])
                        offset += 3
                    }
                }
                let out = (y * width + x) * 3
                rgb[out] = UInt8((sums.0 + area / 2) / area)
                rgb[out + 1] = UInt8((sums.1 + area / 2) / area)
                rgb[out + 2] = UInt8((sums.2 + area / 2) / area)
            }
        }
        return rgb
    }
}
