/// `DEPTHWISE_CONV_2D` on NHWC batches with direct loops: output channel c·M + m reads input
/// channel c with filter `[1, kh, kw, C·M]`. The inner loops run over contiguous channels so
/// that they vectorize; the work is small next to the pointwise GEMMs around it.
struct DepthwiseConvolution {
    let window: Window
    let inputChannels: Int
    let multiplier: Int

    var outputChannels: Int { inputChannels * multiplier }

    /// Y = depthwise(X) + b, for `images` images.
    func forward(
        _ x: UnsafePointer<Float>, images: Int, filter: UnsafePointer<Float>, bias: UnsafePointer<Float>,
        into y: UnsafeMutablePointer<Float>
    ) {
        let channels = outputChannels
        forEachTap(images: images) { outputOffset, inputOffset, tap in
            let out = y + outputOffset
            if tap == nil { out.update(from: bias, count: channels) }
            guard let tap else { return }
            multiplyAdd(x + inputOffset, filter + tap * channels, into: out)
        }
    }

    /// out[c·M + m] += input[c] · f[c·M + m].
    @inline(__always)
    private func multiplyAdd(_ input: UnsafePointer<Float>, _ f: UnsafePointer<Float>, into out: UnsafeMutablePointer<Float>) {
        if multiplier == 1 {
            for c in 0..<inputChannels { out[c] += input[c] * f[c] }
        } else {
            for c in 0..<inputChannels {
                for m in 0..<multiplier { out[c * multiplier + m] += input[c] * f[c * multiplier + m] }
            }
        }
    }

    /// The filter's and bias's gradients (overwritten) and, when `dx` is given, dX += the input's.
    func backward(
        _ dy: UnsafePointer<Float>, x: UnsafePointer<Float>, images: Int, filter: UnsafePointer<Float>,
        filterGradient: UnsafeMutablePointer<Float>, biasGradient: UnsafeMutablePointer<Float>,
        dx: UnsafeMutablePointer<Float>?
    ) {
        let channels = outputChannels
        filterGradient.update(repeating: 0, count: window.kernelHeight * window.kernelWidth * channels)
        DenseRows.sumRows(dy, rows: images * window.outputPositions, columns: channels, into: biasGradient)
        forEachTap(images: images) { outputOffset, inputOffset, tap in
            guard let tap else { return }
            let gradient = dy + outputOffset
            accumulateFilter(gradient, x + inputOffset, into: filterGradient + tap * channels)
            if let dx { accumulateInput(gradient, filter + tap * channels, into: dx + inputOffset) }
        }
    }

    /// dF[c·M + m] += dY[c·M + m] · input[c].
    @inline(__always)
    private func accumulateFilter(_ dy: UnsafePointer<Float>, _ input: UnsafePointer<Float>, into df: UnsafeMutablePointer<Float>)
    {
        if multiplier == 1 {
            for c in 0..<inputChannels { df[c] += dy[c] * input[c] }
        } else {
            for c in 0..<inputChannels {
                for m in 0..<multiplier { df[c * multiplier + m] += dy[c * multiplier + m] * input[c] }
            }
        }
    }

    /// dX[c] += Σ_m dY[c·M + m] · f[c·M + m].
    @inline(__always)
    private func accumulateInput(_ dy: UnsafePointer<Float>, _ f: UnsafePointer<Float>, into dx: UnsafeMutablePointer<Float>) {
        if multiplier == 1 {
            for c in 0..<inputChannels { dx[c] += dy[c] * f[c] }
        } else {
            for c in 0..<inputChannels {
                var sum: Float = 0
                for m in 0..<multiplier { sum += dy[c * multiplier + m] * f[c * multiplier + m] }
                dx[c] += sum
            }
        }
    }

    /// Calls `body` once per output position with tap nil (before its taps), then once per
    /// in-bounds kernel tap with the offsets of the output pixel and of the input pixel it reads
    /// and the tap's index ky·kw + kx.
    @inline(__always)
    private func forEachTap(images: Int, _ body: (_ output: Int, _ input: Int, _ tap: Int?) -> Void) {
        let w = window
        for image in 0..<images {
            let imageInput = image * w.inputHeight * w.inputWidth
            for oy in 0..<w.outputHeight {
                for ox in 0..<w.outputWidth {
                    let output = ((image * w.outputHeight + oy) * w.outputWidth + ox) * outputChannels
                    body(output, 0, nil)
                    let top = oy * w.strideHeight - w.padTop
                    let left = ox * w.strideWidth - w.padLeft
                    for ky in w.kernelRows(oy) {
                        for kx in w.kernelColumns(ox) {
                            let input = (imageInput + (top + ky) * w.inputWidth + left + kx) * inputChannels
                            body(output, input, ky * w.kernelWidth + kx)
                        }
                    }
                }
            }
        }
    }
}
