import Testing

@testable import Imaging

@Suite("ImageOrientation")
struct ImageOrientationTests {
    @Test("raw values are UIImage.Orientation's")
    func rawValues() {
        let expected: [(ImageOrientation, Int)] = [
            (.up, 0), (.down, 1), (.left, 2), (.right, 3),
            (.upMirrored, 4), (.downMirrored, 5), (.leftMirrored, 6), (.rightMirrored, 7),
        ]
        for (orientation, rawValue) in expected {
            #expect(orientation.rawValue == rawValue)
        }
        #expect(ImageOrientation.allCases.count == 8)
    }

    @Test(
        "EXIF values 1...8",
        arguments: [
            (1, ImageOrientation.up), (2, .upMirrored), (3, .down), (4, .downMirrored),
            (5, .leftMirrored), (6, .right), (7, .rightMirrored), (8, .left),
        ])
    func exifValues(exif: Int, orientation: ImageOrientation) {
        #expect(ImageOrientation(exifOrientation: exif) == orientation)
        #expect(orientation.exifOrientation == exif)
    }

    @Test("other EXIF values are rejected", arguments: [0, 9, -1, 255, 65535])
    func invalidExifValues(exif: Int) {
        #expect(ImageOrientation(exifOrientation: exif) == nil)
    }

    @Test(
        "preprocessing transform: clockwise degrees after an optional flip",
        arguments: [
            (ImageOrientation.up, 0, false), (.right, 90, false), (.down, 180, false), (.left, 270, false),
            (.upMirrored, 0, true), (.rightMirrored, 90, true), (.downMirrored, 180, true), (.leftMirrored, 270, true),
        ])
    func preprocessingTransform(orientation: ImageOrientation, degrees: Int, mirrored: Bool) {
        #expect(orientation.preprocessingTransform.rotationDegrees == degrees)
        #expect(orientation.preprocessingTransform.mirrored == mirrored)
    }
}
