// The live-stream delegate method with a misspelt name or a wrong parameter type: it must not compile.
// expect: error: type 'MisspeltName' does not conform to protocol 'ImageClassifierLiveStreamDelegate'
// expect: error: type 'WrongTimestampType' does not conform to protocol 'ImageClassifierLiveStreamDelegate'
import Foundation
import VisionTasks

class MisspeltName: NSObject, ImageClassifierLiveStreamDelegate {
    func imageClassifer(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int,
        error: Error?
    ) {}
}

class WrongTimestampType: NSObject, ImageClassifierLiveStreamDelegate {
    func imageClassifier(
        _ imageClassifier: ImageClassifier,
        didFinishClassification result: ImageClassifierResult?,
        timestampInMilliseconds: Int64,
        error: Error?
    ) {}
}
