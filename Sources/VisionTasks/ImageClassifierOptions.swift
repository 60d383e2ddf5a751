/// Options for creating an `ImageClassifier`. Mirrors MediaPipe Tasks iOS `ImageClassifierOptions`.
///
/// A class, as on iOS (`let options = ImageClassifierOptions(); options.maxResults = 3`). The
/// classifier copies the values at creation.
public final class ImageClassifierOptions {
    /// The model and the hardware it runs on.
    public var baseOptions = BaseOptions()
    /// The running mode. Default `.image`.
    public var runningMode: RunningMode = .image
    /// Receives results in `.liveStream` mode (required there, and not allowed in the other
    /// modes, as in MediaPipe). Held weakly, here and by the classifier.
    public weak var imageClassifierLiveStreamDelegate: (any ImageClassifierLiveStreamDelegate)?
    /// The locale of the display names, such as "en" or "fr". Default "en", as in MediaPipe.
    ///
    /// It is matched exactly against the `locale` of the model's label files, without fallback:
    /// each category's `displayName` comes from the label file of that locale, and is nil when
    /// the model has none (its `categoryName` always comes from the model's first label file).
    public var displayNamesLocale = "en"
    /// The maximum number of categories per head, highest scores first; negative means all.
    /// Default -1. Zero is an `invalidArgumentError` at creation.
    public var maxResults: Int = -1
    /// Categories with a score below this are dropped. Default 0, so negative scores (logits)
    /// are dropped too; use `-Float.greatestFiniteMagnitude` to keep every score. The model
    /// metadata's ScoreThresholdingOptions is not used, as in MediaPipe (which always sets this).
    public var scoreThreshold: Float = 0
    /// If not empty, only categories whose `categoryName` is in the list are returned. Names
    /// match exactly. Needs labels in the model. Unlike MediaPipe, a list none of whose names is
    /// a label of the model is an `invalidArgumentError` at creation instead of no filter.
    public var categoryAllowlist: [String] = []
    /// If not empty, categories whose `categoryName` is in the list are not returned. Exclusive
    /// with `categoryAllowlist`; needs labels in the model. Unknown names are ignored.
    public var categoryDenylist: [String] = []

    /// Creates options with MediaPipe's defaults.
    public init() {}
}
