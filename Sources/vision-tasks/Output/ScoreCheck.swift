import ImageLabeling
import TasksCommon
import VisionTasks

/// Refuses results whose scores are not finite numbers. Scores are probabilities (or, for
/// models without softmax, logits); ±inf means the model's output overflowed or is not what
/// the classifier assumes, and JSON cannot even write it. Such a result is an error for its
/// image or frame, never a blank or a silent success. (NaN never gets here: no NaN passes the
/// score threshold.)
enum ScoreCheck {
    /// The error naming the first category whose score is not finite, or nil when all are.
    static func error(in heads: [Classifications]) -> TasksError? {
        for head in heads {
            guard let category = head.categories.first(where: { !$0.score.isFinite }) else { continue }
            let place = heads.count > 1 ? "head \(head.headIndex), category \(category.index)" : "category \(category.index)"
            return failure("\(place) has a non-finite score (\(category.score))")
        }
        return nil
    }

    /// The error naming the first label whose confidence is not finite, or nil when all are.
    static func error(in labels: [ImageLabel]) -> TasksError? {
        guard let label = labels.first(where: { !$0.confidence.isFinite }) else { return nil }
        return failure("label \(label.index) (\(label.text)) has a non-finite confidence (\(label.confidence))")
    }

    private static func failure(_ what: String) -> TasksError {
        TasksError(.outOfRangeError, "\(what); the model's output is not a probability.")
    }
}
