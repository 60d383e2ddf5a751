// The guides' code, ported by changing only the imports and the image creation: no diagnostics.
// expect: no diagnostics
import ImageLabeling  // ML Kit: import MLKit
import VisionTasks  // MediaPipe: import MediaPipeTasksVision

// MediaPipe: the live-stream delegate, spelt right.
class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate {
    func imageClassifier(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the image classifier result or errors here.
    }
}

func makeClassifier(modelPath: String, processor: ImageClassifierResultProcessor) throws -> ImageClassifier {
    let options = ImageClassifierOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.maxResults = 5
    options.displayNamesLocale = "en"  // a String, "en" by default, as on iOS
    options.imageClassifierLiveStreamDelegate = processor
    return try ImageClassifier(options: options)
}

// MediaPipe's image embedder guide: the live-stream delegate, options and cosine similarity.
class ImageEmbedderResultProcessor: NSObject, ImageEmbedderLiveStreamDelegate {
    func imageEmbedder(
        _ imageEmbedder: ImageEmbedder,
        didFinishEmbedding result: ImageEmbedderResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {
        // Process the image embedder result or errors here.
    }
}

func makeEmbedder(modelPath: String, processor: ImageEmbedderResultProcessor) throws -> ImageEmbedder {
    let options = ImageEmbedderOptions()
    options.baseOptions.modelAssetPath = modelPath
    options.runningMode = .liveStream
    options.l2Normalize = true
    options.quantize = true
    options.imageEmbedderLiveStreamDelegate = processor
    return try ImageEmbedder(options: options)
}

func similarity(of first: ImageEmbedderResult, and second: ImageEmbedderResult) throws -> Double {
    try ImageEmbedder.cosineSimilarity(
        embedding1: first.embeddingResult.embeddings[0],
        embedding2: second.embeddingResult.embeddings[0])
}

// ML Kit: a view controller (main-actor state) updated from process(_:completion:).
@MainActor
final class ViewController {
    var resultsText = ""

    func label(_ image: VisionImage, with labeler: ImageLabeler) {
        labeler.process(image) { labels, error in
            guard error == nil, let labels = labels else { return }
            // Task succeeded.
            self.resultsText = labels.map { "\($0.text) \($0.confidence) \($0.index)" }.joined(separator: "\n")
        }
    }
}
