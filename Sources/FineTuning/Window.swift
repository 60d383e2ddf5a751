import GraphSurgery
import TFLiteMetadata

/// The geometry of a convolution or pool window over one NHWC image: kernel, strides,
/// TFLite padding and the resulting output size.
struct Window: Sendable, Equatable {
    let inputHeight: Int
    let inputWidth: Int
    let kernelHeight: Int
    let kernelWidth: Int
    let strideHeight: Int
    let strideWidth: Int
    /// Rows of implicit zeros (or, for pools, of excluded positions) above the image.
    let padTop: Int
    /// Columns of implicit padding left of the image.
    let padLeft: Int
    let outputHeight: Int
    let outputWidth: Int

    /// TFLite's rule: SAME gives ceil(in / stride) outputs with the padding split floor-first
    /// (the extra row or column goes after); VALID gives (in − k) / stride + 1.
    /// Nil when the window does not fit (VALID with a kernel larger than the input, or a size < 1).
    init?(
        height: Int, width: Int, kernelHeight: Int, kernelWidth: Int, strideHeight: Int, strideWidth: Int, padding: LayerPadding
    ) {
        guard height > 0, width > 0, kernelHeight > 0, kernelWidth > 0, strideHeight > 0, strideWidth > 0 else { return nil }
        let (outH, top) = Self.extent(height, kernelHeight, strideHeight, padding)
        let (outW, left) = Self.extent(width, kernelWidth, strideWidth, padding)
        guard outH > 0, outW > 0 else { return nil }
        inputHeight = height
        inputWidth = width
        self.kernelHeight = kernelHeight
        self.kernelWidth = kernelWidth
        self.strideHeight = strideHeight
        self.strideWidth = strideWidth
        padTop = top
        padLeft = left
        outputHeight = outH
        outputWidth = outW
    }

    /// The output size and the padding before, along one axis.
    private static func extent(_ size: Int, _ kernel: Int, _ stride: Int, _ padding: LayerPadding) -> (Int, Int) {
        switch padding {
        case .valid:
            return size < kernel ? (0, 0) : ((size - kernel) / stride + 1, 0)
        case .same:
            let output = (size + stride - 1) / stride
            let total = max((output - 1) * stride + kernel - size, 0)
            return (output, total / 2)
        }
    }

    /// Output positions per image.
    var outputPositions: Int { outputHeight * outputWidth }

    /// The in-bounds kernel rows for output row `y`: input row = y·stride − padTop + ky.
    @inline(__always)
    func kernelRows(_ y: Int) -> Range<Int> {
        let start = y * strideHeight - padTop
        return max(0, -start)..<min(kernelHeight, inputHeight - start)
    }

    /// The in-bounds kernel columns for output column `x`.
    @inline(__always)
    func kernelColumns(_ x: Int) -> Range<Int> {
        let start = x * strideWidth - padLeft
        return max(0, -start)..<min(kernelWidth, inputWidth - start)
    }

    /// Whether the window is a plain per-pixel product (1 × 1, stride 1): convolutions then skip im2col.
    var isPointwise: Bool { kernelHeight == 1 && kernelWidth == 1 && strideHeight == 1 && strideWidth == 1 }
}
