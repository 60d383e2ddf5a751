import Foundation
import Imaging
import TestSupport
import Testing

@testable import VisionTasks

/// HD frames: YUV made with the BT.709 matrix, given to the public `MPImage` initializers with
/// `colorMatrix: .bt709`, classify like the RGB photo they encode.
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct YUVColorMatrixInputTests {
    static let model = "mobilenet_v1_0.25_224_quant.tflite"

    /// burger.jpg's RGB pixels in 4:4:4 planes (Y, U, V), with the forward matrix of Kr, Kb in
    /// video range, rounded to bytes.
    static func planes(of photo: PixelImage, kr: Double, kb: Double) -> [PixelPlane] {
        var planes = [[UInt8]](repeating: [], count: 3)
        func byte(_ value: Double) -> UInt8 { UInt8(min(max(value.rounded(), 0), 255)) }
        for y in 0..<photo.height {
            for x in 0..<photo.width {
                let p = photo.rgba(x: x, y: y)
                let (r, g, b) = (Double(p.red) / 255, Double(p.green) / 255, Double(p.blue) / 255)
                let luma = kr * r + (1 - kr - kb) * g + kb * b
                planes[0].append(byte(16 + 219 * luma))
                planes[1].append(byte(128 + 224 * (b - luma) / (2 * (1 - kb))))
                planes[2].append(byte(128 + 224 * (r - luma) / (2 * (1 - kr))))
            }
        }
        return planes.map { PixelPlane(bytes: Data($0), bytesPerRow: photo.width) }
    }

    @Test("a BT.709 frame with colorMatrix .bt709 classifies like the RGB photo, from planes and from one buffer")
    func bt709() throws {
        let classifier = try fullClassifier(Self.model)
        let photo = try MPImage(contentsOf: TestData.image("burger.jpg"))
        let rgb = try classifier.classify(image: photo).classificationResult.classifications[0].categories
        let planes = Self.planes(of: photo.pixels, kr: 0.2126, kb: 0.0722)
        let (width, height) = (photo.pixels.width, photo.pixels.height)

        let fromPlanes = try MPImage(planes: planes, width: width, height: height, format: .i444, colorMatrix: .bt709)
        #expect(fromPlanes.pixels.colorMatrix == .bt709)
        let yuv = try classifier.classify(image: fromPlanes).classificationResult.classifications[0].categories
        #expect(yuv.first?.index == rgb.first?.index)
        let step = try tolerance(for: Self.model)
        #expect(
            abs((yuv.first?.score ?? 0) - (rgb.first?.score ?? 1)) <= 2 * step,
            "top score \(yuv.first?.score ?? 0) vs RGB \(rgb.first?.score ?? 0)")

        let fromBuffer = try MPImage(
            pixels: Data(planes.map(\.bytes).joined()), width: width, height: height, format: .i444,
            colorMatrix: .bt709, orientation: .up)
        #expect(try classifier.classify(image: fromBuffer).classificationResult.classifications[0].categories == yuv)

        // The default matrix is BT.601, which reads these pixels differently.
        let asBT601 = try MPImage(planes: planes, width: width, height: height, format: .i444)
        #expect(asBT601.pixels.colorMatrix == .bt601)
        #expect(try classifier.classify(image: asBT601).classificationResult.classifications[0].categories != yuv)
    }
}
