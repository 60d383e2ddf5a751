import Imaging
import LiteRT
import TasksCommon

/// The part of the pipeline every image task shares: the compiled model, preprocessing straight
/// into its input tensor, inference, and access to the output tensors.
///
/// Not `Sendable` and not reentrant (it owns LiteRT buffers and the preprocessing's scratch
/// memory); the engines that own one serialize their calls.
final class ImageModelRunner {
    private let compiled: CompiledModel
    /// The model's image input.
    let input: ImageInputSpec
    /// The preprocessing's tables and rows, kept from one image to the next.
    private let preprocessing = PreprocessingBuffers()
    /// The model file, the subject of inference errors; nil for a model given in memory.
    private let subject: TasksError.Subject?

    /// Compiles a loaded model.
    /// - Throws: `TasksError` invalidArgument for a thread count outside 1...64; internal when
    ///   LiteRT cannot compile the model.
    init(_ loaded: LoadedImageModel, threadCount: Int, subject: TasksError.Subject?) throws(TasksError) {
        compiled = try CompiledModel(model: loaded.model, threadCount: threadCount)
        input = loaded.input
        self.subject = subject
    }

    /// Preprocesses `image` into the input tensor and runs the model. Once an image of the same
    /// size and geometry was run, nothing is allocated.
    /// - Parameters:
    ///   - image: the pixels.
    ///   - orientation: how the pixels must be turned to be upright.
    ///   - regionOfInterest: the region of the stored pixels to use.
    /// - Throws: `TasksError` when LiteRT fails to run the model (naming the model file).
    func run(_ image: PixelImage, orientation: ImageOrientation, regionOfInterest: RegionOfInterest) throws(TasksError) {
        try compiled.inputBuffers[0].withBytes(forWriting: true) { buffer throws(TasksError) in
            try ImagePreprocessor.preprocess(
                image, regionOfInterest: regionOfInterest, orientation: orientation,
                into: buffer, width: input.width, height: input.height,
                element: input.element, buffers: preprocessing)
        }
        do throws(TasksError) {
            try compiled.run()
        } catch {
            let failure = TasksError(error.code, "Running the model failed: \(error.reason)")
            throw subject.map { failure.naming($0) } ?? failure
        }
    }

    /// Runs the model on the input as the last `run` left it, and nothing else: LiteRT's own time.
    /// - Throws: `TasksError` when LiteRT fails to run the model.
    func runModelOnly() throws(TasksError) {
        try compiled.run()
    }

    /// Lends the bytes of output tensor `index` as the last run left them.
    /// - Throws: `TasksError` when LiteRT cannot lock the buffer, or what `body` throws.
    func withOutput<R>(_ index: Int, _ body: (UnsafeRawBufferPointer) throws(TasksError) -> R) throws(TasksError) -> R {
        try compiled.outputBuffers[index].withBytes(forWriting: false) { bytes throws(TasksError) in
            try body(UnsafeRawBufferPointer(bytes))
        }
    }
}
