import Foundation
import ImageTasks
import TasksCommon
import VisionTasks

/// `train --quantize` with trained layers: `model.tflite` and `model_quantized.tflite` run by
/// LiteRT, as `classify` runs them, on the same photos (the validation photos, or the training
/// photos without validation), so that their accuracies stand side by side and a quantized
/// model that lost accuracy is reported, never written as if it were as good.
package struct QuantizedModelCheck: Codable, Sendable, Equatable {
    /// Which photos were classified: "validation" or "training".
    package var photos: String
    /// How many were (those that could not be read are left out).
    package var count: Int
    package var floatAccuracy: Double
    package var quantizedAccuracy: Double
    /// The classes the quantized model gives as the first category of at least one photo.
    package var quantizedPredictedClasses: Int
    /// The same for the float model.
    package var floatPredictedClasses: Int

    /// The quantized model loses more than 1 point of accuracy, or gives one class for every
    /// photo where the float model gives several (a float model that gives one class already
    /// is no better to ship).
    package var isDegraded: Bool {
        count > 0 && (floatAccuracy - quantizedAccuracy > 0.01 || (quantizedPredictedClasses <= 1 && floatPredictedClasses > 1))
    }

    /// Classifies `examples` with both models.
    /// - Throws: `TasksError` when a model cannot be loaded.
    static func measure(
        float: Data, quantized: Data, examples: [LabeledImageFolder.Example], photos: String, classes: [String],
        workers: Int, threads: Int
    ) throws(TasksError) -> QuantizedModelCheck {
        let floatPredictions = try predictions(float, examples, classes, workers: workers, threads: threads)
        let quantizedPredictions = try predictions(quantized, examples, classes, workers: workers, threads: threads)
        // Only the photos both models classified count (a photo that cannot be read fails for both).
        let paired = examples.indices.compactMap { index -> (Int, Int, Int)? in
            guard let a = floatPredictions[index], let b = quantizedPredictions[index] else { return nil }
            return (examples[index].label, a, b)
        }
        let share = { (right: Int) in paired.isEmpty ? 0 : Double(right) / Double(paired.count) }
        return QuantizedModelCheck(
            photos: photos, count: paired.count, floatAccuracy: share(paired.filter { $0.0 == $0.1 }.count),
            quantizedAccuracy: share(paired.filter { $0.0 == $0.2 }.count),
            quantizedPredictedClasses: Set(paired.map(\.2)).count, floatPredictedClasses: Set(paired.map(\.1)).count)
    }

    /// Each example's first category as a class index (nil when it could not be classified;
    /// -1 for a category that is not a class).
    private static func predictions(
        _ model: Data, _ examples: [LabeledImageFolder.Example], _ classes: [String], workers: Int, threads: Int
    ) throws(TasksError) -> [Int?] {
        let tasks = try (0..<max(1, min(workers, examples.count))).map { _ throws(TasksError) in
            let options = ImageClassifierOptions()
            options.baseOptions.modelAssetBuffer = model
            options.baseOptions.threadCount = threads
            options.maxResults = 1
            return try ClassificationTask(options: options, processing: ImageProcessing())
        }
        let classIndex = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })
        let positions = Dictionary(examples.enumerated().map { ($1.input.path.description, $0) }) { first, _ in first }
        var result = [Int?](repeating: nil, count: examples.count)
        let source = ImageSource(origin: .arguments(examples.map(\.input)))
        _ = BatchRunner.run(source: source, tasks: tasks) { outcome in
            guard case .success(let output) = outcome.result, let position = positions[outcome.path.description] else { return }
            let name = output.heads.first?.categories.first?.categoryName
            result[position] = name.flatMap { classIndex[$0] } ?? -1
        }
        return result
    }
}
