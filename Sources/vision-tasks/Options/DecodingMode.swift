/// `classify --decode exact|fast`: every pixel (MediaPipe's way), or JPEG and WebP at a reduced
/// size that still covers the model input (`ReducedDecoding`).
enum DecodingMode: String, Sendable {
    case exact
    case fast

    static let option = Option<DecodingMode>(
        name: "decode", valueName: "exact|fast",
        help: "exact decodes every pixel, as MediaPipe does. fast decodes JPEG and WebP files at 1/2, 1/4 or 1/8 of "
            + "their size, the smallest that still covers the model input across the region of interest after the "
            + "rotation: much faster on large photos, scores move slightly.",
        default: .exact, defaultDescription: "exact"
    ) { text throws(UsageError) in
        guard let mode = DecodingMode(rawValue: text) else { throw UsageError("--decode must be exact or fast, got '\(text)'") }
        return mode
    }
}
