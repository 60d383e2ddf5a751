// The live-stream delegate method with a misspelt argument label: it must not compile.
// expect: error: instance method 'imageClassifier(_:didFinishClassification:timestampInMiliseconds:error:)' has different argument labels from those required by protocol 'ImageClassifierLiveStreamDelegate' ('imageClassifier(_:didFinishClassification:timestampInMilliseconds:error:)')
import Foundation
import VisionTasks

class ImageClassifierResultProcessor: NSObject, ImageClassifierLiveStreamDelegate {
    func imageClassifier(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMiliseconds: Int,
        error: Error?
    ) {}
}
