// MediaPipe's guide: an MPImage from a UIImage.
// expect: error: 'UIImage' is unavailable: UIKit does not exist on Linux: load images with MPImage(contentsOf:)
// expect: error: 'init(named:)' is unavailable: UIImage does not exist on Linux: read the image file with MPImage(contentsOfFile:)
// expect: error: 'init(uiImage:)' is unavailable: UIImage does not exist on Linux: use MPImage(contentsOf:orientation:decoding:)
// expect: error: 'init(uiImage:orientation:)' is unavailable: UIImage does not exist on Linux: use MPImage(contentsOf:orientation:decoding:)
import VisionTasks

func classify(_ imageClassifier: ImageClassifier, image: UIImage) throws {
    let mpImage = try MPImage(uiImage: image)
    _ = try imageClassifier.classify(image: mpImage)
}

func classifyRotated(_ imageClassifier: ImageClassifier) throws {
    let image = UIImage(named: "burger_rotated")!
    let mpImage = try MPImage(uiImage: image, orientation: .left)
    _ = try imageClassifier.classify(image: mpImage)
}
