// ML Kit's guide: a VisionImage from a UIImage.
// expect: error: 'UIImage' is unavailable: UIKit does not exist on Linux: load images with MPImage(contentsOf:) or VisionImage(contentsOf:)
// expect: error: 'init(image:)' is unavailable: UIImage does not exist on Linux: use VisionImage(contentsOf:) or VisionImage(contentsOfFile:) for a file, or VisionImage(data:) for encoded bytes
// expect: error: 'init(contentsOfFile:)' is unavailable: UIImage does not exist on Linux: use MPImage(contentsOfFile:) or VisionImage(contentsOfFile:)
// expect: error: 'init(data:)' is unavailable: UIImage does not exist on Linux: use MPImage(data:) or VisionImage(data:)
import Foundation
import ImageLabeling

func label(_ labeler: ImageLabeler, uiImage: UIImage) throws -> [ImageLabel] {
    let image = VisionImage(image: uiImage)
    image.orientation = .up
    return try labeler.results(in: image)
}

func load(path: String, data: Data) {
    _ = UIImage(contentsOfFile: path)
    _ = UIImage(data: data)
}
