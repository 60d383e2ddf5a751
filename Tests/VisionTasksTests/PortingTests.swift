import Foundation
import TestSupport
import Testing
import VisionTasks  // MediaPipe: import MediaPipeTasksVision

/// The Swift code of MediaPipe's guide "Image classification guide for iOS", changed only in the
/// import and the image creation (no UIImage on Linux).
@Suite(.enabled(if: TestData.isAvailable, Comment(rawValue: TestData.missingReason)))
struct VisionTasksPortingTests {
    /// The guide's live-stream delegate, whose method is a protocol requirement here.
    @Test(.hangGuard) func liveStreamGuideCodeDeliversTheResult() async throws {
        let modelPath = TestData.model("mobilenet_v1_0.25_224_quant.tflite").path  // MediaPipe: Bundle.main.path(...)
        let image = try MPImage(contentsOf: TestData.image("burger.jpg"))  // MediaPipe: MPImage(uiImage: image)
        let (deliveries, sink) = AsyncStream<Delivery>.makeStream()

        // --- From the guide ---
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = modelPath
        options.runningMode = .liveStream
        options.maxResults = 5

        // Assign an object of the class to the `imageClassifierLiveStreamDelegate` property.
        let processor = ImageClassifierResultProcessor { sink.yield($0) }
        options.imageClassifierLiveStreamDelegate = processor

        let imageClassifier = try ImageClassifier(options: options)
        try imageClassifier.classifyAsync(image: image, timestampInMilliseconds: 40)
        // --- End of the guide's code ---

        var iterator = deliveries.makeAsyncIterator()
        let delivery = try #require(await iterator.next())
        withExtendedLifetime(processor) {}  // the classifier holds its delegate weakly
        #expect(delivery == Delivery(top: 934, timestamp: 40, error: nil))
    }

    /// `displayNamesLocale` is a `String` defaulting to "en", as in MediaPipe iOS: the model's
    /// English display names by default, Spanish ones with "es", none for a locale it lacks.
    @Test(arguments: [
        (nil, Optional("cheeseburger")), ("es", Optional("hamburguesa con queso")), ("fr", nil),
    ])
    func displayNamesLocaleIsAStringDefaultingToEnglish(locale: String?, displayName: String?) throws {
        let options = ImageClassifierOptions()
        options.baseOptions.modelAssetPath = TestData.model("generated/mobilenet_v1_0.25_224_quant_localized.tflite").path
        options.maxResults = 1
        let defaultLocale: String = options.displayNamesLocale
        #expect(defaultLocale == "en")
        if let locale { options.displayNamesLocale = locale }
        let result = try ImageClassifier(options: options).classify(image: MPImage(contentsOf: TestData.image("burger.jpg")))
        let top = try #require(result.classificationResult.classifications.first?.categories.first)
        #expect(top.index == 934)
        #expect(top.categoryName == "/m/00934")
        #expect(top.displayName == displayName)
    }
}

/// What the guide's delegate method received: the top category's index, the timestamp, the error.
struct Delivery: Sendable, Equatable {
    let top: Int?
    let timestamp: Int
    let error: TasksError?
}

/// The guide's result processor; the guide's body is "Process the image classifier result or
/// errors here", which for the test is handing them over.
final class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate, Sendable {
    private let handle: @Sendable (Delivery) -> Void

    init(handle: @escaping @Sendable (Delivery) -> Void) { self.handle = handle }

    func imageClassifier(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the image classifier result or errors here.
        let top = result?.classificationResult.classifications.first?.categories.first?.index
        handle(Delivery(top: top, timestamp: timestampInMilliseconds, error: error as? TasksError))
    }
}
