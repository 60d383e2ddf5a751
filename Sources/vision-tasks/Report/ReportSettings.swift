import Foundation
import Imaging

// What each command's report lists as "the model and options used": every setting in effect,
// defaults included, as the help names them.

extension ClassifierOptionGroup {
    /// The model and the classifier options.
    var reportSettings: [ReportPage.Setting] {
        [
            .init(name: "model", value: model),
            .init(name: "max results", value: maxResults < 0 ? "all" : String(maxResults)),
            .init(name: "score threshold", value: String(scoreThreshold)),
            .init(name: "allowlist", value: allowlist.isEmpty ? "(none)" : allowlist.joined(separator: ", ")),
            .init(name: "denylist", value: denylist.isEmpty ? "(none)" : denylist.joined(separator: ", ")),
            .init(name: "display-names locale", value: locale),
            .init(name: "threads", value: String(threads)),
        ]
    }
}

extension ImageProcessingOptionGroup {
    /// The region of interest and rotation.
    var reportSettings: [ReportPage.Setting] {
        let region =
            regionOfInterest == .zero
            ? "whole image"
            : [regionOfInterest.origin.x, regionOfInterest.origin.y, regionOfInterest.width, regionOfInterest.height]
                .map { String(Double($0)) }.joined(separator: ", ")
        let rotation =
            orientation.map { "\($0.preprocessingTransform.rotationDegrees)°" } ?? "from the file (EXIF or display matrix)"
        return [.init(name: "region of interest", value: region), .init(name: "rotation", value: rotation)]
    }
}

extension FrameSamplingOptionGroup {
    /// Which frames are classified.
    var reportSettings: [ReportPage.Setting] {
        let frames = fps.map { "at most \($0) per second" } ?? (every == 1 ? "every frame" : "every \(every)th frame")
        return [.init(name: "frames", value: frames)]
    }
}

extension LabelCommand {
    /// The model or export and the labeler options.
    var reportSettings: [ReportPage.Setting] {
        let model: ReportPage.Setting =
            switch source {
            case .manifest(let path): .init(name: "AutoML manifest", value: path)
            case .model(let path): .init(name: "model", value: path)
            case .remote(let name): .init(name: "remote model", value: name)
            }
        let threshold =
            confidence.map { String($0) }
            ?? {
                if case .manifest = source { return "0.5 (AutoML default)" }
                if case .remote = source { return "0.5 for AutoML bundles; else from the model's metadata, else 0" }
                return "from the model's metadata, else 0"
            }()
        return [
            model, .init(name: "confidence threshold", value: threshold), .init(name: "max results", value: String(maxResults)),
        ]
    }
}

extension ClassifyVideoCommand {
    /// The video, the model and every option.
    var reportSettings: [ReportPage.Setting] {
        [.init(name: "video", value: video)] + classifier.reportSettings + imageProcessing.reportSettings
            + sampling.reportSettings
    }
}
