import Foundation
import TestSupport
import Testing

@testable import Imaging

/// Fast decoding (`ReducedDecoding`): the smallest 1/2, 1/4 or 1/8 scale that still covers the
/// input after region of interest and rotation, sizes rounded as libjpeg rounds them, and scaled
/// pixels (edges included) close to the full-size decode averaged over the same blocks.
@Suite("Reduced (fast) decoding")
struct ReducedDecodingTests {
    static func decoded(_ name: String, _ reduced: ReducedDecoding?) throws -> PixelImage {
        try ImageDecoder.decode(contentsOf: TestData.image(name), reduced: reduced).pixels
    }

    @Test(
        "the scale is the smallest that covers the input on both axes after region and rotation",
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)),
        arguments: [
            // burger.jpg is 480x325: the whole pixels of 1/8 are 60x40, of 1/4 120x81, of 1/2 240x162
            // (libjpeg's last row, 41st, 82nd, 163rd, stands for part of a block: left out).
            (ReducedDecoding(width: 53, height: 37), 60, 40),
            (ReducedDecoding(width: 60, height: 40), 60, 40),
            (ReducedDecoding(width: 61, height: 40), 120, 81),
            (ReducedDecoding(width: 53, height: 41), 120, 81),
            // A quarter turn: the input's height lies along the stored width.
            (ReducedDecoding(width: 40, height: 60, orientation: .right), 60, 40),
            (ReducedDecoding(width: 53, height: 37, orientation: .left), 120, 81),
            // Half the width as region: twice the pixels needed across.
            (
                ReducedDecoding(
                    width: 53, height: 37, region: try! RegionOfInterest(CGRect(x: 0.25, y: 0, width: 0.5, height: 1))), 120, 81
            ),
            // Too large to reduce: every pixel.
            (ReducedDecoding(width: 224, height: 224), 480, 325),
        ])
    func scaleChoice(reduced: ReducedDecoding, width: Int, height: Int) throws {
        let image = try Self.decoded("burger.jpg", reduced)
        #expect(image.width == width && image.height == height, "\(image.width)x\(image.height)")
    }

    /// The mean of the full-size pixels a reduced pixel stands for (blocks clipped at the edges).
    static func blockMean(_ full: PixelImage, x: Int, y: Int, denominator: Int) -> [Double] {
        var sums = [0.0, 0, 0], count = 0.0
        for sourceY in (y * denominator)..<min((y + 1) * denominator, full.height) {
            for sourceX in (x * denominator)..<min((x + 1) * denominator, full.width) {
                let pixel = full.rgba(x: sourceX, y: sourceY)
                sums[0] += Double(pixel.red); sums[1] += Double(pixel.green); sums[2] += Double(pixel.blue)
                count += 1
            }
        }
        return sums.map { $0 / count }
    }

    @Test(
        "scaled pixels, edges included, are close to the full decode averaged over their blocks; partial blocks left out",
        .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)),
        arguments: ["burger.jpg", "cats_and_dogs.jpg", "multi_objects.jpg", "grace_hopper.jpg", "cat.jpg", "dogs.jpg"])
    func edgesMatchFullDecode(name: String) throws {
        let full = try Self.decoded(name, nil)
        // Input widths that pick 1/8, 1/4 and 1/2.
        for (denominator, target) in [(8, 1), (4, (full.width + 7) / 8 + 1), (2, (full.width + 3) / 4 + 1)] {
            let image = try Self.decoded(name, ReducedDecoding(width: target, height: 1))
            #expect(image.width == full.width / denominator, "\(name) 1/\(denominator): \(image.width)")
            #expect(image.height == full.height / denominator, "\(name) 1/\(denominator): \(image.height)")
            var totalError = 0.0, count = 0.0, lastColumnWorst = 0.0, lastRowWorst = 0.0
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let mean = Self.blockMean(full, x: x, y: y, denominator: denominator)
                    let pixel = image.rgba(x: x, y: y)
                    let difference = zip([pixel.red, pixel.green, pixel.blue].map(Double.init), mean).map { abs($0 - $1) }.max()!
                    if x == image.width - 1 { lastColumnWorst = max(lastColumnWorst, difference) }
                    if y == image.height - 1 { lastRowWorst = max(lastRowWorst, difference) }
                    totalError += difference
                    count += 1
                }
            }
            // DCT scaling is not an exact block mean, but close (mean differences below 1.2 on these
            // photos, single pixels up to 39 on sharp detail). A last row or column that blended
            // the encoder's padding beyond the edge differed by up to 122 before it was left out.
            #expect(totalError / count < 3, "\(name) 1/\(denominator): mean difference \(totalError / count)")
            #expect(
                lastColumnWorst < 24 && lastRowWorst < 24,
                "\(name) 1/\(denominator): last column \(lastColumnWorst), last row \(lastRowWorst)")
        }
    }

    @Test("WebP: lossless and lossy files are scaled to libjpeg's sizes")
    func webp() throws {
        for fixtureText in [Fixtures.webpLosslessRGB, Fixtures.webpLossyRGBA] {
            let data = fixture(fixtureText)  // 7x5
            for (target, width, height) in [((1, 1), 1, 1), ((2, 2), 2, 2), ((4, 3), 4, 3), ((5, 3), 7, 5)] {
                let image = try ImageDecoder.decode(
                    data, source: "fixture",
                    reduced: ReducedDecoding(width: target.0, height: target.1)
                ).pixels
                #expect(image.width == width && image.height == height, "\(target): \(image.width)x\(image.height)")
            }
        }
    }

    @Test("PNG is always decoded exactly")
    func pngExact() throws {
        let image = try ImageDecoder.decode(
            fixture(Fixtures.pngRGB8), source: "fixture", reduced: ReducedDecoding(width: 1, height: 1))
        #expect(image.pixels.width == 7 && image.pixels.height == 5)
    }
}
