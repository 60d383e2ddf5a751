import CLBFGS

/// The variables of one L-BFGS run, allocated as liblbfgs asks (`lbfgs_malloc`) and freed with it.
final class LBFGSVariables {
    /// How many variables.
    let count: Int
    /// The variables; +1 from `lbfgs_malloc`, we own it and free it in `deinit`.
    let pointer: UnsafeMutablePointer<Double>

    /// `count` zeros, or nil when `lbfgs_malloc` fails. `count` must fit an `Int32`.
    init?(count: Int) {
        guard let pointer = lbfgs_malloc(Int32(count)) else { return nil }
        pointer.update(repeating: 0, count: count)
        self.count = count
        self.pointer = pointer
    }

    deinit { lbfgs_free(pointer) }
}
