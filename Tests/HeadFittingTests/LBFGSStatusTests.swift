import Foundation
import HeadFitting
import Testing

/// liblbfgs's status codes in words, and how a fit reports them.
struct LBFGSStatusTests {
    @Test(arguments: [
        (LBFGSStatus.success, 0, "LBFGS_SUCCESS"),
        (.stop, 1, "LBFGS_STOP"),
        (.alreadyMinimized, 2, "LBFGS_ALREADY_MINIMIZED"),
        (.unknownError, -1024, "LBFGSERR_UNKNOWNERROR"),
        (.canceled, -1021, "LBFGSERR_CANCELED"),
        (.invalidEpsilon, -1017, "LBFGSERR_INVALID_EPSILON"),
        (.roundingError, -1001, "LBFGSERR_ROUNDING_ERROR"),
        (.maximumIteration, -997, "LBFGSERR_MAXIMUMITERATION"),
        (.increaseGradient, -994, "LBFGSERR_INCREASEGRADIENT"),
    ])
    func codesHaveTheirCNames(status: LBFGSStatus, value: Int32, name: String) {
        #expect(status.rawValue == value)
        #expect(status.name == name)
        #expect(status.description == "\(status.text) (\(name), \(value))")
    }

    @Test func everyCodeHasWords() {
        for value in Int32(-1024)...Int32(-994) {
            #expect(LBFGSStatus(rawValue: value).text != "unknown liblbfgs status", "\(value)")
        }
        #expect(LBFGSStatus(rawValue: 7).description == "unknown liblbfgs status (status 7, 7)")
    }

    @Test func lineSearchFailuresAreTold() {
        #expect(LBFGSStatus.roundingError.isLineSearchFailure)
        #expect(LBFGSStatus.maximumLineSearch.isLineSearchFailure)
        #expect(!LBFGSStatus.maximumIteration.isLineSearchFailure)
        #expect(!LBFGSStatus.success.isLineSearchFailure)
        #expect(
            StopReason.lineSearchFailed(.roundingError).description
                == "line search failed: rounding errors: no line-search step gives sufficient decrease and curvature (the objective cannot fall further in double precision) (LBFGSERR_ROUNDING_ERROR, -1001)"
        )
        #expect(!StopReason.lineSearchFailed(.roundingError).isConvergence)
    }

    /// A gradient tolerance of 0 cannot be met: the fit ends where double precision does, in a
    /// line search that finds no lower point, and still returns the model it reached.
    @Test func unreachableToleranceEndsInTheLineSearch() throws {
        let data = try SoftmaxRegressionTests.randomSet(rows: 30, columns: 4, classes: 3, seed: 9)
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0.05, gradientTolerance: 0))
        guard case .lineSearchFailed(let status) = fit.stopReason else {
            Issue.record("stopped for \(fit.stopReason)")
            return
        }
        #expect(status.isLineSearchFailure)
        let converged = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0.05))
        #expect(abs(fit.objective - converged.objective) <= 1e-12 * converged.objective)
        #expect(fit.gradientNorm <= 1e-8, "\(fit.gradientNorm)")
    }

    /// A start that is already the optimum (identical rows, balanced classes, λ = 0: W = 0,
    /// b = 0 and ‖∇L‖ of rounding's size) is convergence, although liblbfgs's first line search
    /// finds no lower point.
    @Test func aStartAtTheOptimumHasConverged() throws {
        let row: [Float] = [0.25, -1.5, 3, 0.125]
        let data = try TrainingSet(
            features: Matrix(rows: Array(repeating: row, count: 6)), labels: [0, 1, 0, 1, 0, 1], classCount: 2)
        let fit = try SoftmaxRegression.fit(data, options: SoftmaxRegressionOptions(l2Strength: 0))
        #expect(fit.stopReason == .converged, "\(fit.stopReason)")
        #expect(fit.iterations == 0 && fit.gradientNorm < 1e-12, "\(fit)")
        #expect(abs(fit.objective - log(2)) < 1e-12)
    }
}
