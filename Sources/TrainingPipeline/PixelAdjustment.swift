import Foundation
import Imaging
import TasksCommon

/// The pixels of a training view whose exposure or angle `Augmentation` changed: what the base
/// sees for it, computed from the decoded photo before the model's own preprocessing.
enum PixelAdjustment {
    /// `image` with `variant`'s exposure (each color value times 2^exposure, rounded and
    /// clamped; alpha kept) and rotation (about the center, counterclockwise as shown, bilinear,
    /// the corners filled with the nearest edge pixels), the same size and format.
    /// - Throws: `TasksError` invalidArgument for pixels that are not RGB or gray bytes (a
    ///   decoded photo always is).
    static func apply(_ variant: FeatureVariant, to image: PixelImage) throws(TasksError) -> PixelImage {
        let channels = image.format.bytesPerPixel
        let colors: Int
        switch image.format {
        case .rgb8, .rgba8, .bgra8: colors = 3
        case .gray8: colors = 1
        default:
            throw .invalidArgument(
                "Exposure and rotation augmentation need RGB or gray pixels; this photo holds \(image.format).")
        }
        let source = image.bytes
        var output = [UInt8](repeating: 0, count: image.width * image.height * channels)
        let gain = Float(pow(2, variant.exposure))
        let sampler = Sampler(width: image.width, height: image.height, degrees: variant.rotation)
        source.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { result in
                var target = 0
                for y in 0..<image.height {
                    for x in 0..<image.width {
                        let point = sampler.source(x: x, y: y)
                        for channel in 0..<channels {
                            let value = sampler.value(
                                input, at: point, channel: channel, stride: channels, rowBytes: image.bytesPerRow)
                            let adjusted = channel < colors ? value * gain : value
                            result[target] = UInt8(min(max(adjusted.rounded(), 0), 255))
                            target += 1
                        }
                    }
                }
            }
        }
        return try PixelImage(bytes: output, width: image.width, height: image.height, bytesPerRow: nil, format: image.format)
    }

    /// Where each output pixel is read from, and the bilinear read.
    private struct Sampler {
        let width: Int
        let height: Int
        let cosine: Float
        let sine: Float
        let centerX: Float
        let centerY: Float

        init(width: Int, height: Int, degrees: Double) {
            self.width = width
            self.height = height
            cosine = Float(cos(degrees * .pi / 180))
            sine = Float(sin(degrees * .pi / 180))
            centerX = Float(width - 1) / 2
            centerY = Float(height - 1) / 2
        }

        /// The source position of output pixel (x, y): the inverse of turning the content by
        /// the angle counterclockwise with rows going down, clamped to the image.
        func source(x: Int, y: Int) -> (x: Float, y: Float) {
            let dx = Float(x) - centerX
            let dy = Float(y) - centerY
            let sourceX = centerX + dx * cosine - dy * sine
            let sourceY = centerY + dx * sine + dy * cosine
            return (min(max(sourceX, 0), Float(width - 1)), min(max(sourceY, 0), Float(height - 1)))
        }

        func value(
            _ pixels: UnsafeBufferPointer<UInt8>, at point: (x: Float, y: Float), channel: Int, stride: Int, rowBytes: Int
        ) -> Float {
            let x0 = Int(point.x)
            let y0 = Int(point.y)
            let x1 = min(x0 + 1, width - 1)
            let y1 = min(y0 + 1, height - 1)
            let fx = point.x - Float(x0)
            let fy = point.y - Float(y0)
            func at(_ x: Int, _ y: Int) -> Float { Float(pixels[y * rowBytes + x * stride + channel]) }
            let top = at(x0, y0) + (at(x1, y0) - at(x0, y0)) * fx
            let bottom = at(x0, y1) + (at(x1, y1) - at(x0, y1)) * fx
            return top + (bottom - top) * fy
        }
    }
}
