import Foundation
import HeadFitting
import TasksCommon

/// `train --l2 auto`: the frozen head's L2 penalty chosen on the validation photos. Each λ of a
/// grid is fitted to its optimum on the training features and measured on the validation ones;
/// the one of best validation accuracy is kept (ties: the lowest validation loss), and its fit
/// is the model. (Each fit starts from zero: started from the optimum of the next stronger
/// penalty, L-BFGS took 2.5 times the iterations on scikit-learn's reference problem.)
enum PenaltySearch {
    /// scikit-learn's C of each λ tried (λ = 1/(C·N)): from weak to strong penalties around its default C = 1.
    static let inverseStrengths: [Double] = [10, 3, 1, 0.3, 0.1, 0.03, 0.01]

    /// - Returns: the chosen λ, its fit (the model to keep), and the grid with each λ's
    ///   validation accuracy and loss.
    /// - Throws: `TasksError` invalidArgument when there are no validation photos; the fit's errors.
    static func choose(
        _ training: TrainingSet, validation: FeatureSet, options: SoftmaxRegressionOptions
    ) throws(TasksError) -> (l2: Double, fit: SoftmaxRegressionFit, grid: [TrainingReport.PenaltyTrial]) {
        guard !validation.rows.isEmpty else {
            throw .invalidArgument(
                "--l2 auto chooses the penalty on validation photos, and there is none that could be read: give "
                    + "--validation DIR or --validation-split F with readable photos.")
        }
        let features = try Matrix(rows: validation.rows)
        var grid: [TrainingReport.PenaltyTrial] = []
        var fits: [SoftmaxRegressionFit] = []
        for c in inverseStrengths {
            var trial = options
            trial.l2Strength = 1 / (c * Double(training.count))
            let fit = try SoftmaxRegression.fit(training, options: trial)
            fits.append(fit)
            let probabilities = try fit.model.probabilities(for: features)
            var right = 0
            var loss = 0.0
            for (row, label) in validation.labels.enumerated() {
                let scores = Array(probabilities.row(row))
                if scores.indices.max(by: { scores[$0] < scores[$1] }) == label { right += 1 }
                loss -= log(max(scores[label], 1e-300))
            }
            grid.append(
                .init(
                    l2: trial.l2Strength, validationAccuracy: Double(right) / Double(validation.rows.count),
                    validationLoss: loss / Double(validation.rows.count)))
        }
        let best = grid.indices.max { a, b in
            grid[a].validationAccuracy != grid[b].validationAccuracy
                ? grid[a].validationAccuracy < grid[b].validationAccuracy : grid[a].validationLoss > grid[b].validationLoss
        }!
        return (grid[best].l2, fits[best], grid)
    }
}
