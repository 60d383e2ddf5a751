/// `AVERAGE_POOL_2D` (and `MEAN` over height and width, a VALID pool over the whole image) on
/// NHWC batches. Each window divides by its count of in-bounds positions, as TFLite does with
/// SAME padding (padding does not count as zeros).
struct AveragePool {
    let window: Window
    let channels: Int

    /// Y = the window means of X, for `images` images.
    func forward(_ x: UnsafePointer<Float>, images: Int, into y: UnsafeMutablePointer<Float>) {
        forEachWindow(images: images) { output, inputs, scale in
            let out = y + output
            out.update(repeating: 0, count: channels)
            for input in inputs {
                let pixel = x + input
                for c in 0..<channels { out[c] += pixel[c] }
            }
            for c in 0..<channels { out[c] *= scale }
        }
    }

    /// dX += each window's dY / count over its in-bounds positions.
    func backward(_ dy: UnsafePointer<Float>, images: Int, into dx: UnsafeMutablePointer<Float>) {
        forEachWindow(images: images) { output, inputs, scale in
            let gradient = dy + output
            for input in inputs {
                let pixel = dx + input
                for c in 0..<channels { pixel[c] += gradient[c] * scale }
            }
        }
    }

    /// Calls `body` per output pixel with its offset, the offsets of its in-bounds input pixels
    /// and 1 / their count. The offsets go through a reused array: no allocation per window.
    @inline(__always)
    private func forEachWindow(images: Int, _ body: (_ output: Int, _ inputs: ArraySlice<Int>, _ scale: Float) -> Void) {
        let w = window
        var inputs = [Int](repeating: 0, count: w.kernelHeight * w.kernelWidth)
        for image in 0..<images {
            let imageInput = image * w.inputHeight * w.inputWidth
            for oy in 0..<w.outputHeight {
                for ox in 0..<w.outputWidth {
                    let top = oy * w.strideHeight - w.padTop
                    let left = ox * w.strideWidth - w.padLeft
                    var count = 0
                    for ky in w.kernelRows(oy) {
                        for kx in w.kernelColumns(ox) {
                            inputs[count] = (imageInput + (top + ky) * w.inputWidth + left + kx) * channels
                            count += 1
                        }
                    }
                    let output = ((image * w.outputHeight + oy) * w.outputWidth + ox) * channels
                    body(output, inputs[0..<count], 1 / Float(count))
                }
            }
        }
    }
}
