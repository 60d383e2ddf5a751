/// `CONV_2D` on NHWC batches: 1 × 1 stride-1 filters straight on the pixel rows, others through
/// im2col; both one GEMM with the `[out, kh, kw, in]` filter for the whole batch.
struct Convolution {
    let window: Window
    let inputChannels: Int
    let outputChannels: Int

    /// Floats of im2col scratch per image (0 when the convolution is pointwise).
    var scratchPerImage: Int {
        window.isPointwise ? 0 : window.outputPositions * window.kernelHeight * window.kernelWidth * inputChannels
    }

    private var rowLength: Int { window.kernelHeight * window.kernelWidth * inputChannels }

    /// Y = conv(X) + b, for `images` images; `scratch` holds `images · scratchPerImage` floats.
    func forward(
        _ x: UnsafePointer<Float>, images: Int, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        into y: UnsafeMutablePointer<Float>, scratch: UnsafeMutablePointer<Float>
    ) {
        let rows = images * window.outputPositions
        let source = leftOperand(x, images: images, scratch: scratch)
        DenseRows.forward(source, rows: rows, inputs: rowLength, outputs: outputChannels, weights: filter, bias: bias, into: y)
    }

    /// The filter's and bias's gradients (overwritten) and, when `dx` is given, dX += the input's.
    /// `scratch` must still hold the forward pass's im2col rows; it is overwritten.
    func backward(
        _ dy: UnsafePointer<Float>, x: UnsafePointer<Float>, images: Int, filter: UnsafePointer<Float>,
        filterGradient: UnsafeMutablePointer<Float>, biasGradient: UnsafeMutablePointer<Float>,
        dx: UnsafeMutablePointer<Float>?, scratch: UnsafeMutablePointer<Float>
    ) {
        let rows = images * window.outputPositions
        let pointwise = window.isPointwise
        let source = pointwise ? x : UnsafePointer(scratch)
        // dW before dX: the im2col rows are needed for dW, then their buffer takes d(columns).
        DenseRows.backward(
            dy, x: source, rows: rows, inputs: rowLength, outputs: outputChannels, weights: filter,
            weightGradient: filterGradient, biasGradient: biasGradient, inputGradient: pointwise ? dx : nil)
        guard let dx, !pointwise else { return }
        GEMM.multiply(dy, filter, into: scratch, m: rows, n: rowLength, k: outputChannels, accumulate: false)
        Im2Col.scatter(scratch, images: images, channels: inputChannels, window: window, into: dx)
    }

    /// The GEMM's left operand: the pixels themselves, or their im2col rows in `scratch`.
    private func leftOperand(_ x: UnsafePointer<Float>, images: Int, scratch: UnsafeMutablePointer<Float>) -> UnsafePointer<Float>
    {
        guard !window.isPointwise else { return x }
        Im2Col.gather(x, images: images, channels: inputChannels, window: window, into: scratch)
        return UnsafePointer(scratch)
    }

    /// Multiply-adds per image in the forward pass.
    var multiplyAddsPerImage: Int { window.outputPositions * rowLength * outputChannels }
}
