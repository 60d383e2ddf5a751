import Foundation
import TasksCommon
import VisionTasks

/// A task on a MediaPipe vision API (classifier, embedder): it decodes each image into an
/// `MPImage` with the run's `ImageProcessing` and hands it to the API with the region of
/// interest. A conformance gives the API's input size and the call; this extension does the rest.
package protocol MPImageTask: ImageTask {
    /// The run's region of interest, orientation override and decoding.
    var processing: ImageProcessing { get }
    /// The model input's size in pixels: what fast decoding must cover.
    var inputImageSize: CGSize { get }
    /// Runs the API on a decoded image (with `processing.regionOfInterest`).
    /// - Throws: the API's error.
    func output(for image: MPImage) throws -> Output
}

extension MPImageTask {
    package func process(file path: FileSystemPath) throws(TasksError) -> Output {
        try run(try processing.image(file: path, covering: inputImageSize))
    }

    package func process(encoded data: Data) throws(TasksError) -> Output {
        try run(try processing.image(encoded: data, covering: inputImageSize))
    }

    private func run(_ image: MPImage) throws(TasksError) -> Output {
        do {
            return try output(for: image)
        } catch {
            throw TasksError.wrapping(error)
        }
    }
}
