import TasksCommon

/// Inverted dropout on the head's input: while training each value is kept with probability
/// 1 − rate and scaled by 1 / (1 − rate), so evaluation needs no scaling; otherwise a copy.
struct Dropout {
    let rate: Float

    /// Y = X ⊙ mask (training with rate > 0; the mask is drawn from `random` and kept in `mask`) or Y = X.
    func forward(
        _ x: UnsafePointer<Float>, count: Int, into y: UnsafeMutablePointer<Float>, mask: UnsafeMutablePointer<Float>,
        random: inout SplitMix64?
    ) {
        guard rate > 0, random != nil else {
            y.update(from: x, count: count)
            mask.update(repeating: 1, count: count)
            return
        }
        let scale = 1 / (1 - rate)
        for i in 0..<count {
            mask[i] = random!.nextUnitFloat() < rate ? 0 : scale
            y[i] = x[i] * mask[i]
        }
    }

    /// dX += dY ⊙ mask.
    func backward(_ dy: UnsafePointer<Float>, count: Int, mask: UnsafePointer<Float>, into dx: UnsafeMutablePointer<Float>) {
        for i in 0..<count { dx[i] += dy[i] * mask[i] }
    }
}
