import Foundation
import TaskRuntime

/// The hardware a task's model runs on. Mirrors MediaPipe Tasks iOS `Delegate`.
public enum Delegate: Sendable, Equatable {
    // MediaPipe's case names (not lowerCamelCase), so that iOS code compiles unchanged.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The CPU, through LiteRT's XNNPACK kernels. The default and the only one on Linux.
    case CPU
    // swift-format-ignore: AlwaysUseLowerCamelCase
    /// The GPU. Not available on Linux: creating a task with it throws `invalidArgumentError`.
    case GPU
}

/// Options shared by every task: which model to load and where to run it.
///
/// Mirrors MediaPipe Tasks iOS `BaseOptions`. A class, as on iOS, so that
/// `options.baseOptions.modelAssetPath = path` works on a `let` options object; tasks copy
/// the values when they are created, so later changes do not affect them.
public final class BaseOptions {
    /// The path of the .tflite model file. Default `""` (none).
    public var modelAssetPath: String = ""
    /// The model file's bytes; used when `modelAssetPath` is empty. Not in MediaPipe iOS
    /// (its C++ API has it as `model_asset_buffer`).
    public var modelAssetBuffer: Data?
    /// Where inference runs. Default `.CPU`.
    public var delegate: Delegate = .CPU
    /// The number of CPU threads inference uses, 1...64. Not in MediaPipe iOS, which picks
    /// half the cores clamped to 1...4; that is also the default here.
    public var threadCount: Int = BaseOptions.defaultThreadCount

    /// MediaPipe's mobile default: half the active cores, at least 1 and at most 4.
    public static var defaultThreadCount: Int { ClassifierConfiguration.defaultThreadCount }

    /// Creates options with no model set.
    public init() {}
}
