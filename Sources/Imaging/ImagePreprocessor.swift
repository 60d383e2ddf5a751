import Foundation
import TasksCommon

/// Turns a `PixelImage` into the RGB input tensor of an image model, exactly as MediaPipe's
/// CPU preprocessing does (`ImageToTensorCalculator` with OpenCV): the region of interest is
/// cropped, rotated and stretched to the tensor size in one bilinear warp with replicated
/// borders, then written as bytes or floats.
///
/// Sampling follows OpenCV's fixed-point `warpPerspective(INTER_LINEAR, BORDER_REPLICATE)`:
/// each tensor pixel's source position is rounded to 1/32 pixel, the four neighbours are
/// weighted in 15-bit fixed point, and the result is rounded to a byte before any float
/// conversion. Only red, green and blue are sampled: alpha is dropped without compositing,
/// BGRA is swizzled, gray is repeated in the three channels. YUV pixels are converted to RGB
/// bytes as they are read (BT.601, `YUVColorRange`; the chroma sample covering each pixel, not
/// interpolated), so a YUV image gives exactly the tensor of its RGB8 conversion. With no
/// region and no rotation tensor column `u` samples source x = `u * imageWidth / tensorWidth`
/// (no half-pixel offset).
///
/// The tensor is written in place (HWC, row-major, channels R, G, B) without full-size
/// temporaries (no RGB copy of a YUV image either). Maps where source x follows one tensor axis
/// and y the other (every rotation by a multiple of 90°, mirrored or not, whenever the matrix has
/// no cross terms) take `SeparableSampler`'s tabulated row-wise path, the others the general
/// position-by-position path: both give the same bytes. With `PreprocessingBuffers` reused from
/// call to call, nothing is allocated once an image of the same size and geometry was seen.
package enum ImagePreprocessor {
    /// The size in bytes of a `[1, height, width, 3]` tensor of `element`.
    package static func tensorByteCount(width: Int, height: Int, element: TensorElement) -> Int {
        width * height * 3 * element.byteCount
    }

    /// Writes the tensor for an image seen through an orientation (see
    /// `ImageOrientation.preprocessingTransform`).
    ///
    /// - Parameters:
    ///   - image: The stored pixels.
    ///   - regionOfInterest: As in `preprocess(_:regionOfInterest:rotationDegrees:mirrored:into:width:height:element:buffers:)`.
    ///   - orientation: How the stored pixels must be transformed to display upright.
    ///   - tensor: Exactly `tensorByteCount(width:height:element:)` bytes.
    ///   - width: Tensor width in pixels, > 0.
    ///   - height: Tensor height in pixels, > 0.
    ///   - element: The element type and float conversion.
    ///   - buffers: Memory to reuse from earlier calls (see `PreprocessingBuffers`); nil to
    ///     allocate it for this call.
    /// - Throws: as `preprocess(_:regionOfInterest:rotationDegrees:mirrored:into:width:height:element:buffers:)`.
    package static func preprocess(
        _ image: PixelImage, regionOfInterest: RegionOfInterest = .wholeImage,
        orientation: ImageOrientation, into tensor: UnsafeMutableRawBufferPointer,
        width: Int, height: Int, element: TensorElement,
        buffers: PreprocessingBuffers? = nil
    ) throws(TasksError) {
        let transform = orientation.preprocessingTransform
        try preprocess(
            image, regionOfInterest: regionOfInterest, rotationDegrees: transform.rotationDegrees,
            mirrored: transform.mirrored, into: tensor, width: width, height: height, element: element,
            buffers: buffers)
    }

    /// Writes the tensor for a region of an image, flipped and rotated.
    ///
    /// - Parameters:
    ///   - image: The stored pixels (any `PixelFormat`, padded rows allowed, YUV included).
    ///   - regionOfInterest: The region in stored-image coordinates, before the flip and
    ///     rotation; the whole image by default.
    ///   - rotationDegrees: Clockwise rotation of the content, MediaPipe's `rotation_degrees`:
    ///     any multiple of 90, negative or beyond 360 included. 90 puts the source's left
    ///     column (read bottom to top) in the tensor's top row.
    ///   - mirrored: Flip the stored image horizontally first (the mirrored orientations);
    ///     a flipped copy with `mirrored: true` gives the same bytes as the original without.
    ///   - tensor: Exactly `tensorByteCount(width:height:element:)` bytes, written as
    ///     `[height][width][3]` of `UInt8`, `Int8` or native-endian `Float`.
    ///   - width: Tensor width in pixels, > 0.
    ///   - height: Tensor height in pixels, > 0.
    ///   - element: The element type and float conversion.
    ///   - buffers: Memory to reuse from earlier calls (see `PreprocessingBuffers`); nil to
    ///     allocate it for this call.
    /// - Throws: `TasksError` `invalidArgumentError`: "Expected rotation to be a multiple of
    ///   90°." (MediaPipe's message, followed by the value), a tensor size that is not
    ///   positive, or a buffer size mismatch naming both sizes.
    package static func preprocess(
        _ image: PixelImage, regionOfInterest: RegionOfInterest = .wholeImage,
        rotationDegrees: Int = 0, mirrored: Bool = false,
        into tensor: UnsafeMutableRawBufferPointer,
        width: Int, height: Int, element: TensorElement,
        buffers: PreprocessingBuffers? = nil
    ) throws(TasksError) {
        guard rotationDegrees % 90 == 0 else {
            throw .invalidArgument("Expected rotation to be a multiple of 90°. Got \(rotationDegrees)°.")
        }
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw .invalidArgument("Invalid tensor size \(width)x\(height): width and height must be > 0.")
        }
        let byteCount = tensorByteCount(width: width, height: height, element: element)
        guard tensor.count == byteCount, tensor.baseAddress != nil else {
            throw .invalidArgument(
                "Tensor buffer has \(tensor.count) bytes, expected \(byteCount) (\(height)x\(width)x3 elements of \(element.byteCount) bytes)."
            )
        }
        let buffers = buffers ?? PreprocessingBuffers()
        let plan = Self.plan(
            image, regionOfInterest: regionOfInterest, rotationDegrees: rotationDegrees, mirrored: mirrored,
            tensorWidth: width, tensorHeight: height, buffers: buffers)
        switch element {
        case .uint8:
            sample(image, plan: plan, width: width, height: height, buffers: buffers, writer: ByteWriter(tensor: tensor))
        case let .float32(scale, offset):
            sample(
                image, plan: plan, width: width, height: height, buffers: buffers,
                writer: FloatWriter(tensor: tensor, scale: scale, offset: offset))
        case let .float32PerChannel(scale, offset):
            sample(
                image, plan: plan, width: width, height: height, buffers: buffers,
                writer: PerChannelFloatWriter(tensor: tensor, scale: scale, offset: offset))
        case .int8(let table):
            table.values.withUnsafeBufferPointer { values in
                sample(
                    image, plan: plan, width: width, height: height, buffers: buffers,
                    writer: Int8Writer(tensor: tensor, table: values.baseAddress.unsafelyUnwrapped))
            }
        }
    }

    /// The sampling plan for this image size and geometry: the one in `buffers` when it was made
    /// for the same, else a new one (tables written into `buffers`).
    private static func plan(
        _ image: PixelImage, regionOfInterest: RegionOfInterest, rotationDegrees: Int, mirrored: Bool,
        tensorWidth: Int, tensorHeight: Int, buffers: PreprocessingBuffers
    ) -> PreprocessingBuffers.Plan {
        let key = PreprocessingBuffers.Key(
            imageWidth: image.width, imageHeight: image.height, tensorWidth: tensorWidth,
            tensorHeight: tensorHeight, region: regionOfInterest,
            rotationDegrees: rotationDegrees, mirrored: mirrored)
        if let current = buffers.current, current.key == key { return current.plan }
        buffers.current = nil  // the tables are about to change
        let geometry = SamplingGeometry(
            imageWidth: image.width, imageHeight: image.height,
            tensorWidth: tensorWidth, tensorHeight: tensorHeight, region: regionOfInterest,
            rotationDegrees: rotationDegrees, mirrored: mirrored)
        let plan =
            SeparableSampler.prepare(
                geometry, imageWidth: image.width, imageHeight: image.height,
                tensorWidth: tensorWidth, tensorHeight: tensorHeight, buffers: buffers)
            ?? .general(geometry)
        buffers.current = (key, plan)
        return plan
    }

    private static func sample<Writer: TensorPixelWriter>(
        _ image: PixelImage, plan: PreprocessingBuffers.Plan, width: Int,
        height: Int, buffers: PreprocessingBuffers, writer: Writer
    ) {
        switch plan {
        case let .separable(transposed, columns):
            SeparableSampler.sample(
                image, transposed: transposed, columns: columns, tensorWidth: width, tensorHeight: height,
                buffers: buffers, writer: writer)
        case .general(let geometry):
            BilinearSampler.sample(
                image, geometry: geometry, tensorWidth: width, tensorHeight: height,
                buffers: buffers, writer: writer)
        }
    }
}
