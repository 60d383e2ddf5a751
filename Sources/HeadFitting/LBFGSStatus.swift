import CLBFGS

/// A status code `lbfgs()` returns, with its meaning in words.
///
/// A struct over the C value rather than an enum, as swift-system's `Errno` is: every code
/// liblbfgs 1.10 defines has a static member, and an unknown code still prints.
/// The corresponding C type is liblbfgs's anonymous status `enum` (`LBFGS_SUCCESS`,
/// `LBFGSERR_ROUNDING_ERROR`, ...).
package struct LBFGSStatus: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The value `lbfgs()` returned.
    package let rawValue: Int32

    /// The status with this C value.
    package init(rawValue: Int32) { self.rawValue = rawValue }

    /// The status of a liblbfgs constant (Swift imports its anonymous enum's values as `Int`).
    private init(_ value: Int) { rawValue = Int32(value) }

    /// The gradient test passed: ‖g‖ ≤ epsilon · max(1, ‖x‖) (`LBFGS_SUCCESS`, `LBFGS_CONVERGENCE`).
    package static let success = LBFGSStatus(LBFGS_SUCCESS)
    /// The objective-decrease test passed: over `past` iterations the objective fell by less than
    /// `delta`, relatively (`LBFGS_STOP`).
    package static let stop = LBFGSStatus(LBFGS_STOP)
    /// The starting point already passed the gradient test (`LBFGS_ALREADY_MINIMIZED`).
    package static let alreadyMinimized = LBFGSStatus(LBFGS_ALREADY_MINIMIZED)
    /// `LBFGSERR_UNKNOWNERROR`.
    package static let unknownError = LBFGSStatus(LBFGSERR_UNKNOWNERROR)
    /// `LBFGSERR_LOGICERROR`.
    package static let logicError = LBFGSStatus(LBFGSERR_LOGICERROR)
    /// `LBFGSERR_OUTOFMEMORY`.
    package static let outOfMemory = LBFGSStatus(LBFGSERR_OUTOFMEMORY)
    /// The progress callback asked to stop (`LBFGSERR_CANCELED`).
    package static let canceled = LBFGSStatus(LBFGSERR_CANCELED)
    /// `LBFGSERR_INVALID_N`.
    package static let invalidN = LBFGSStatus(LBFGSERR_INVALID_N)
    /// `LBFGSERR_INVALID_N_SSE`.
    package static let invalidNSSE = LBFGSStatus(LBFGSERR_INVALID_N_SSE)
    /// `LBFGSERR_INVALID_X_SSE`.
    package static let invalidXSSE = LBFGSStatus(LBFGSERR_INVALID_X_SSE)
    /// `LBFGSERR_INVALID_EPSILON`.
    package static let invalidEpsilon = LBFGSStatus(LBFGSERR_INVALID_EPSILON)
    /// `LBFGSERR_INVALID_TESTPERIOD`.
    package static let invalidTestPeriod = LBFGSStatus(LBFGSERR_INVALID_TESTPERIOD)
    /// `LBFGSERR_INVALID_DELTA`.
    package static let invalidDelta = LBFGSStatus(LBFGSERR_INVALID_DELTA)
    /// `LBFGSERR_INVALID_LINESEARCH`.
    package static let invalidLineSearch = LBFGSStatus(LBFGSERR_INVALID_LINESEARCH)
    /// `LBFGSERR_INVALID_MINSTEP`.
    package static let invalidMinimumStep = LBFGSStatus(LBFGSERR_INVALID_MINSTEP)
    /// `LBFGSERR_INVALID_MAXSTEP`.
    package static let invalidMaximumStep = LBFGSStatus(LBFGSERR_INVALID_MAXSTEP)
    /// `LBFGSERR_INVALID_FTOL`.
    package static let invalidFtol = LBFGSStatus(LBFGSERR_INVALID_FTOL)
    /// `LBFGSERR_INVALID_WOLFE`.
    package static let invalidWolfe = LBFGSStatus(LBFGSERR_INVALID_WOLFE)
    /// `LBFGSERR_INVALID_GTOL`.
    package static let invalidGtol = LBFGSStatus(LBFGSERR_INVALID_GTOL)
    /// `LBFGSERR_INVALID_XTOL`.
    package static let invalidXtol = LBFGSStatus(LBFGSERR_INVALID_XTOL)
    /// `LBFGSERR_INVALID_MAXLINESEARCH`.
    package static let invalidMaximumLineSearch = LBFGSStatus(LBFGSERR_INVALID_MAXLINESEARCH)
    /// `LBFGSERR_INVALID_ORTHANTWISE`.
    package static let invalidOrthantwise = LBFGSStatus(LBFGSERR_INVALID_ORTHANTWISE)
    /// `LBFGSERR_INVALID_ORTHANTWISE_START`.
    package static let invalidOrthantwiseStart = LBFGSStatus(LBFGSERR_INVALID_ORTHANTWISE_START)
    /// `LBFGSERR_INVALID_ORTHANTWISE_END`.
    package static let invalidOrthantwiseEnd = LBFGSStatus(LBFGSERR_INVALID_ORTHANTWISE_END)
    /// A line-search failure: the step left the interval of uncertainty (`LBFGSERR_OUTOFINTERVAL`).
    package static let outOfInterval = LBFGSStatus(LBFGSERR_OUTOFINTERVAL)
    /// A line-search failure: the interval of uncertainty became too small, or a logic error
    /// (`LBFGSERR_INCORRECT_TMINMAX`).
    package static let incorrectInterval = LBFGSStatus(LBFGSERR_INCORRECT_TMINMAX)
    /// A line-search failure: rounding errors leave no step with sufficient decrease and
    /// curvature (`LBFGSERR_ROUNDING_ERROR`); near an optimum, the objective cannot fall further
    /// in double precision.
    package static let roundingError = LBFGSStatus(LBFGSERR_ROUNDING_ERROR)
    /// A line-search failure: the step fell below `min_step` (`LBFGSERR_MINIMUMSTEP`).
    package static let minimumStep = LBFGSStatus(LBFGSERR_MINIMUMSTEP)
    /// A line-search failure: the step grew beyond `max_step` (`LBFGSERR_MAXIMUMSTEP`).
    package static let maximumStep = LBFGSStatus(LBFGSERR_MAXIMUMSTEP)
    /// A line-search failure: `max_linesearch` evaluations without an acceptable step
    /// (`LBFGSERR_MAXIMUMLINESEARCH`).
    package static let maximumLineSearch = LBFGSStatus(LBFGSERR_MAXIMUMLINESEARCH)
    /// `max_iterations` iterations done (`LBFGSERR_MAXIMUMITERATION`).
    package static let maximumIteration = LBFGSStatus(LBFGSERR_MAXIMUMITERATION)
    /// A line-search failure: the interval of uncertainty is narrower than `xtol`, relatively
    /// (`LBFGSERR_WIDTHTOOSMALL`).
    package static let widthTooSmall = LBFGSStatus(LBFGSERR_WIDTHTOOSMALL)
    /// A line-search failure: a negative step, a logic error (`LBFGSERR_INVALIDPARAMETERS`).
    package static let negativeStep = LBFGSStatus(LBFGSERR_INVALIDPARAMETERS)
    /// A line-search failure: the search direction is not a descent direction
    /// (`LBFGSERR_INCREASEGRADIENT`).
    package static let increaseGradient = LBFGSStatus(LBFGSERR_INCREASEGRADIENT)

    /// The C name and our words for each status, in one table.
    private static let meanings: [LBFGSStatus: (name: String, text: String)] = [
        .success: ("LBFGS_SUCCESS", "converged: the gradient norm is within epsilon · max(1, ‖x‖)"),
        .stop: ("LBFGS_STOP", "stopped: the objective fell by less than delta over the last `past` iterations"),
        .alreadyMinimized: ("LBFGS_ALREADY_MINIMIZED", "the starting point already meets the gradient test"),
        .unknownError: ("LBFGSERR_UNKNOWNERROR", "unknown error"),
        .logicError: ("LBFGSERR_LOGICERROR", "logic error"),
        .outOfMemory: ("LBFGSERR_OUTOFMEMORY", "out of memory"),
        .canceled: ("LBFGSERR_CANCELED", "cancelled by the progress callback"),
        .invalidN: ("LBFGSERR_INVALID_N", "invalid number of variables"),
        .invalidNSSE: ("LBFGSERR_INVALID_N_SSE", "invalid number of variables for the SSE routines"),
        .invalidXSSE: ("LBFGSERR_INVALID_X_SSE", "the variables are not 16-byte aligned for the SSE routines"),
        .invalidEpsilon: ("LBFGSERR_INVALID_EPSILON", "invalid epsilon (gradient tolerance)"),
        .invalidTestPeriod: ("LBFGSERR_INVALID_TESTPERIOD", "invalid past (objective-decrease window)"),
        .invalidDelta: ("LBFGSERR_INVALID_DELTA", "invalid delta (objective-decrease tolerance)"),
        .invalidLineSearch: ("LBFGSERR_INVALID_LINESEARCH", "invalid line-search algorithm"),
        .invalidMinimumStep: ("LBFGSERR_INVALID_MINSTEP", "invalid min_step"),
        .invalidMaximumStep: ("LBFGSERR_INVALID_MAXSTEP", "invalid max_step"),
        .invalidFtol: ("LBFGSERR_INVALID_FTOL", "invalid ftol"),
        .invalidWolfe: ("LBFGSERR_INVALID_WOLFE", "invalid wolfe"),
        .invalidGtol: ("LBFGSERR_INVALID_GTOL", "invalid gtol"),
        .invalidXtol: ("LBFGSERR_INVALID_XTOL", "invalid xtol"),
        .invalidMaximumLineSearch: ("LBFGSERR_INVALID_MAXLINESEARCH", "invalid max_linesearch"),
        .invalidOrthantwise: ("LBFGSERR_INVALID_ORTHANTWISE", "invalid orthantwise_c"),
        .invalidOrthantwiseStart: ("LBFGSERR_INVALID_ORTHANTWISE_START", "invalid orthantwise_start"),
        .invalidOrthantwiseEnd: ("LBFGSERR_INVALID_ORTHANTWISE_END", "invalid orthantwise_end"),
        .outOfInterval: ("LBFGSERR_OUTOFINTERVAL", "the line-search step left the interval of uncertainty"),
        .incorrectInterval: (
            "LBFGSERR_INCORRECT_TMINMAX", "the line search's interval of uncertainty became too small (or a logic error)"
        ),
        .roundingError: (
            "LBFGSERR_ROUNDING_ERROR",
            "rounding errors: no line-search step gives sufficient decrease and curvature (the objective cannot fall further in double precision)"
        ),
        .minimumStep: ("LBFGSERR_MINIMUMSTEP", "the line-search step became smaller than min_step"),
        .maximumStep: ("LBFGSERR_MAXIMUMSTEP", "the line-search step became larger than max_step"),
        .maximumLineSearch: (
            "LBFGSERR_MAXIMUMLINESEARCH", "the line search used max_linesearch evaluations without an acceptable step"
        ),
        .maximumIteration: ("LBFGSERR_MAXIMUMITERATION", "the maximum number of iterations was reached"),
        .widthTooSmall: ("LBFGSERR_WIDTHTOOSMALL", "the interval of uncertainty became narrower than xtol"),
        .negativeStep: ("LBFGSERR_INVALIDPARAMETERS", "the line-search step became negative (a logic error)"),
        .increaseGradient: (
            "LBFGSERR_INCREASEGRADIENT", "the search direction does not descend: the objective increases along it"
        ),
    ]

    /// The C constant's name (`"LBFGSERR_ROUNDING_ERROR"`), or `"status <value>"` for a code
    /// liblbfgs 1.10 does not define.
    package var name: String { Self.meanings[self]?.name ?? "status \(rawValue)" }

    /// What the status means, in words (`"the maximum number of iterations was reached"`).
    package var text: String { Self.meanings[self]?.text ?? "unknown liblbfgs status" }

    /// `"<text> (<name>, <value>)"`.
    package var description: String { "\(text) (\(name), \(rawValue))" }

    /// Whether the status reports a line search that found no acceptable step; liblbfgs then
    /// leaves the variables at the last accepted iterate.
    package var isLineSearchFailure: Bool {
        [
            .outOfInterval, .incorrectInterval, .roundingError, .minimumStep, .maximumStep, .maximumLineSearch,
            .widthTooSmall, .negativeStep, .increaseGradient,
        ].contains(self)
    }
}
