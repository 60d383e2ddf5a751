/// im2col and its adjoint for NHWC images: one row per output position, holding the window's
/// `[kh, kw, channels]` values (zeros outside the image) — the order of a TFLite filter's row
/// `[kh, kw, in]`, so that a convolution becomes one GEMM with the filter.
enum Im2Col {
    /// Writes `images × outputPositions` rows of `kh·kw·channels` floats into `columns`.
    static func gather(
        _ x: UnsafePointer<Float>, images: Int, channels: Int, window: Window, into columns: UnsafeMutablePointer<Float>
    ) {
        let rowLength = window.kernelHeight * window.kernelWidth * channels
        var row = columns
        for image in 0..<images {
            let source = x + image * window.inputHeight * window.inputWidth * channels
            for oy in 0..<window.outputHeight {
                for ox in 0..<window.outputWidth {
                    gatherRow(source, channels: channels, window: window, oy: oy, ox: ox, into: row)
                    row += rowLength
                }
            }
        }
    }

    /// One output position's window, with zeros for the padding.
    private static func gatherRow(
        _ source: UnsafePointer<Float>, channels: Int, window: Window, oy: Int, ox: Int, into row: UnsafeMutablePointer<Float>
    ) {
        let top = oy * window.strideHeight - window.padTop
        let left = ox * window.strideWidth - window.padLeft
        for ky in 0..<window.kernelHeight {
            let iy = top + ky
            let rowPart = row + ky * window.kernelWidth * channels
            guard iy >= 0, iy < window.inputHeight else {
                rowPart.update(repeating: 0, count: window.kernelWidth * channels)
                continue
            }
            for kx in 0..<window.kernelWidth {
                let ix = left + kx
                let target = rowPart + kx * channels
                if ix >= 0, ix < window.inputWidth {
                    target.update(from: source + (iy * window.inputWidth + ix) * channels, count: channels)
                } else {
                    target.update(repeating: 0, count: channels)
                }
            }
        }
    }

    /// The adjoint of `gather`: adds each row's values back onto the input positions they came from.
    static func scatter(
        _ columns: UnsafePointer<Float>, images: Int, channels: Int, window: Window, into dx: UnsafeMutablePointer<Float>
    ) {
        var row = columns
        let rowLength = window.kernelHeight * window.kernelWidth * channels
        for image in 0..<images {
            let target = dx + image * window.inputHeight * window.inputWidth * channels
            for oy in 0..<window.outputHeight {
                for ox in 0..<window.outputWidth {
                    scatterRow(row, channels: channels, window: window, oy: oy, ox: ox, into: target)
                    row += rowLength
                }
            }
        }
    }

    /// Adds one row onto its window's in-bounds positions.
    private static func scatterRow(
        _ row: UnsafePointer<Float>, channels: Int, window: Window, oy: Int, ox: Int, into target: UnsafeMutablePointer<Float>
    ) {
        let top = oy * window.strideHeight - window.padTop
        let left = ox * window.strideWidth - window.padLeft
        for ky in window.kernelRows(oy) {
            for kx in window.kernelColumns(ox) {
                let source = row + (ky * window.kernelWidth + kx) * channels
                let pixel = target + ((top + ky) * window.inputWidth + left + kx) * channels
                for c in 0..<channels { pixel[c] += source[c] }
            }
        }
    }
}
