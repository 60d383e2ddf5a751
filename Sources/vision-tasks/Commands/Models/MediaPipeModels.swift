import Foundation

/// MediaPipe's published image classifiers, downloaded without an index.
enum MediaPipeModels {
    /// The models `models download` knows by name.
    static let names = ["efficientnet_lite0", "efficientnet_lite2"]
    /// Their precisions.
    static let precisions = ["float32", "int8"]
    /// The environment variable that replaces the base URL (a mirror, or a test server).
    static let baseVariable = "VISION_TASKS_MEDIAPIPE_MODELS"
    /// Where MediaPipe publishes them.
    static let defaultBase = "https://storage.googleapis.com/mediapipe-models/image_classifier/"

    /// `<base><name>/<precision>/latest/<name>.tflite`, the layout of MediaPipe's bucket.
    static func url(name: String, precision: String, base: String?) -> URL? {
        var base = base ?? ProcessInfo.processInfo.environment[baseVariable].flatMap { $0.isEmpty ? nil : $0 } ?? defaultBase
        if !base.hasSuffix("/") { base += "/" }
        return URL(string: "\(base)\(name)/\(precision)/latest/\(name).tflite")
    }

    /// The name the model is cached under: `efficientnet_lite0_float32`.
    static func cacheName(name: String, precision: String) -> String { "\(name)_\(precision)" }
}
