import Foundation
import TestSupport
import Testing

@testable import Imaging

/// MediaPipe's own input tensors, byte for byte.
///
/// Printed by `python3 make_golden.py ../shared/testdata/images` (Tests/Reference/imaging/make_golden.py) with
/// mediapipe 1.2.3. It classifies Pillow-decoded pixels (which `ImageDecoder` matches
/// exactly) with probe models whose only operation reshapes the input tensor into the
/// output, so MediaPipe's scores are its tensor elements, and prints an FNV-1a 64 of the
/// whole tensor and four elements.
@Suite(
    "ImagePreprocessor: MediaPipe golden tensors", .enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct ImagePreprocessorGoldenTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var image: String
        var height: Int, width: Int
        var rotationDegrees: Int
        /// left, top, right, bottom, as the script takes them.
        var region: (Float, Float, Float, Float)?
        var mirrored = false
        var element: TensorElement = .uint8
        var fnv: UInt64
        var samples: [(index: Int, value: Double)]

        var testDescription: String { name }

        var regionOfInterest: CGRect {
            guard let (left, top, right, bottom) = region else { return wholeImage }
            return CGRect(
                x: Double(left), y: Double(top), width: Double(right) - Double(left), height: Double(bottom) - Double(top))
        }
    }

    static let cases: [Case] = [
        Case(
            name: "burgerWhole", image: "burger.jpg", height: 224, width: 224, rotationDegrees: 0,
            fnv: 0x4063_06e3_6d95_f41b, samples: [(0, 231), (50176, 95), (100352, 29), (150527, 68)]),
        Case(
            name: "burgerRotation90", image: "burger.jpg", height: 224, width: 224, rotationDegrees: 90,
            fnv: 0xf262_0ebb_fbf0_92ab, samples: [(0, 255), (50176, 239), (100352, 24), (150527, 38)]),
        Case(
            name: "burgerRotationMinus90", image: "burger.jpg", height: 224, width: 224, rotationDegrees: -90,
            fnv: 0xc605_eeca_3e89_8b96, samples: [(0, 156), (50176, 31), (100352, 222), (150527, 155)]),
        Case(
            name: "burgerRotation270", image: "burger.jpg", height: 224, width: 224, rotationDegrees: 270,
            fnv: 0xc605_eeca_3e89_8b96, samples: [(0, 156), (50176, 31), (100352, 222), (150527, 155)]),
        Case(
            name: "burgerRotation180", image: "burger.jpg", height: 224, width: 224, rotationDegrees: 180,
            fnv: 0x1bd1_b26a_985c_d432, samples: [(0, 107), (50176, 112), (100352, 44), (150527, 163)]),
        Case(
            name: "multiObjectsRegion", image: "multi_objects.jpg", height: 224, width: 224, rotationDegrees: 0,
            region: (0.45, 0.3075, 0.614, 0.7345),
            fnv: 0xeeb2_1c3d_2335_32a1, samples: [(0, 53), (50176, 37), (100352, 249), (150527, 46)]),
        Case(
            name: "multiObjectsRegionMinus90", image: "multi_objects.jpg", height: 224, width: 224, rotationDegrees: -90,
            region: (0.2655, 0.45, 0.6925, 0.614),
            fnv: 0x7dd6_4573_bc1f_343e, samples: [(0, 150), (50176, 208), (100352, 105), (150527, 106)]),
        Case(
            name: "sparrowRGBARegion180", image: "sparrow.png", height: 224, width: 224, rotationDegrees: 180,
            region: (0.1, 0.2, 0.9, 0.8),
            fnv: 0x36de_b082_72d4_026a, samples: [(0, 0), (50176, 0), (100352, 0), (150527, 0)]),
        Case(
            name: "graceHopperSmallTensor", image: "grace_hopper.jpg", height: 37, width: 53, rotationDegrees: 90,
            region: (0.25, 0.125, 0.75, 0.625),
            fnv: 0x47ef_c42a_2d6f_68fc, samples: [(0, 16), (1961, 109), (3922, 72), (5882, 170)]),
        // MediaPipe cannot mirror: the script flips the pixels and mirrors the region instead.
        Case(
            name: "catMirroredRegion90", image: "cat.jpg", height: 224, width: 224, rotationDegrees: 90,
            region: (0.125, 0.25, 0.75, 1.0), mirrored: true,
            fnv: 0xae0c_e97a_9f47_2742, samples: [(0, 23), (50176, 88), (100352, 33), (150527, 51)]),
        // Every fourth row is an exact 1/32-pixel tie, decided by OpenCV's rounding noise.
        Case(
            name: "graceHopperTieRows", image: "grace_hopper.jpg", height: 128, width: 96, rotationDegrees: -270,
            region: (0, 0, 1, 0.41),
            fnv: 0x0fd0_35a7_36ef_a084, samples: [(0, 21), (12288, 21), (24576, 210), (36863, 185)]),
        Case(
            name: "multiObjectsTieRows", image: "multi_objects.jpg", height: 128, width: 96, rotationDegrees: 180,
            fnv: 0x8b77_0db9_2245_ffe8, samples: [(0, 255), (12288, 7), (24576, 78), (36863, 185)]),
        Case(
            name: "burgerFloat", image: "burger.jpg", height: 224, width: 224, rotationDegrees: 0,
            element: TensorElement(mean: 127.5, std: 127.5), fnv: 0x18bd_bbe5_bfe1_a3d2,
            samples: [
                (0, 0.8117648363113403), (50176, -0.2549019455909729), (100352, -0.772549033164978),
                (150527, -0.46666663885116577),
            ]),
        Case(
            name: "dogsFloatImageNet", image: "dogs.jpg", height: 37, width: 53, rotationDegrees: 0,
            element: TensorElement(mean: 123.675, std: 58.395), fnv: 0xb38a_77ae_cf9e_1e49,
            samples: [(0, 1.033050775527954), (1961, 1.957787275314331), (3922, -0.542426586151123), (5882, -0.5766761302947998)]),
    ]

    @Test("bit-identical to MediaPipe", arguments: cases)
    func matchesMediaPipe(_ testCase: Case) throws {
        let image = try ImageDecoder.decode(contentsOf: TestData.image(testCase.image)).pixels
        let bytes = try tensor(
            image, width: testCase.width, height: testCase.height, element: testCase.element,
            regionOfInterest: testCase.regionOfInterest, rotationDegrees: testCase.rotationDegrees,
            mirrored: testCase.mirrored)
        for sample in testCase.samples {
            switch testCase.element {
            case .uint8, .int8:
                #expect(Double(bytes[sample.index]) == sample.value, "\(testCase.name)[\(sample.index)]")
            case .float32, .float32PerChannel:
                let value = bytes.withUnsafeBytes { $0.load(fromByteOffset: sample.index * 4, as: Float.self) }
                #expect(value == Float(sample.value), "\(testCase.name)[\(sample.index)]")
            }
        }
        #expect(fnv1a64(bytes) == testCase.fnv, "\(testCase.name): tensor differs from MediaPipe's")
    }
}
