import Foundation
import TasksCommon
import VisionTasks

/// `classify`: an `ImageClassifier` in image mode with the image-processing options of a run
/// (region of interest, orientation override, exact or fast decoding).
package struct ClassificationTask: MPImageTask {
    package let classifier: ImageClassifier
    package let processing: ImageProcessing

    /// - Throws: as `ImageClassifier.init(options:)`.
    package init(options: ImageClassifierOptions, processing: ImageProcessing) throws(TasksError) {
        do {
            classifier = try ImageClassifier(options: options)
        } catch {
            throw TasksError.wrapping(error)
        }
        self.processing = processing
    }

    package typealias Output = ClassificationOutput

    package var inputImageSize: CGSize { classifier.inputImageSize }

    package func output(for image: MPImage) throws -> ClassificationOutput {
        let result = try classifier.classify(image: image, regionOfInterest: processing.regionOfInterest)
        return ClassificationOutput(heads: result.classificationResult.classifications)
    }
}

/// One image's classifications: one `Classifications` per head.
package struct ClassificationOutput: TaskOutput {
    package var heads: [Classifications]

    package init(heads: [Classifications]) { self.heads = heads }

    package static let recordKey = "classifications"

    package var record: [HeadRecord] { heads.map(HeadRecord.init) }

    /// The first category whose score is not finite (NaN never gets here: no NaN passes the
    /// score threshold, and the pipeline refuses NaN scores).
    package var failure: TasksError? {
        for head in heads {
            guard let category = head.categories.first(where: { !$0.score.isFinite }) else { continue }
            let place = heads.count > 1 ? "head \(head.headIndex), category \(category.index)" : "category \(category.index)"
            return TasksError(
                .outOfRangeError, "\(place) has a non-finite score (\(category.score)); the model's output is not a probability.")
        }
        return nil
    }
}

/// MediaPipe's `Classifications`: headIndex, headName (null when absent), categories.
package struct HeadRecord: Codable, Equatable, Sendable {
    package let headIndex: Int
    package let headName: String?
    package let categories: [CategoryRecord]

    package init(_ head: Classifications) {
        headIndex = head.headIndex
        headName = head.headName
        categories = head.categories.map(CategoryRecord.init)
    }

    /// Writes absent names as null (the synthesized encoding would leave them out).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(headIndex, forKey: .headIndex)
        try container.encode(headName, forKey: .headName)
        try container.encode(categories, forKey: .categories)
    }
}

/// MediaPipe's `ResultCategory`: index, score, categoryName and displayName (null when absent).
package struct CategoryRecord: Codable, Equatable, Sendable {
    package let index: Int
    package let score: Float
    package let categoryName: String?
    package let displayName: String?

    package init(_ category: ResultCategory) {
        index = category.index
        score = category.score
        categoryName = category.categoryName
        displayName = category.displayName
    }

    /// Writes absent names as null (the synthesized encoding would leave them out).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(index, forKey: .index)
        try container.encode(score, forKey: .score)
        try container.encode(categoryName, forKey: .categoryName)
        try container.encode(displayName, forKey: .displayName)
    }
}
