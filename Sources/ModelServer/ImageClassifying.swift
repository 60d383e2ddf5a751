import Foundation

/// A loaded model as the server uses it: one instance classifies one image at a time (the
/// pool gives each request an instance of its own). The command line provides it, so that the
/// records are the CLI's own JSON objects.
package protocol ImageClassifying: Sendable {
    /// Classifies one encoded image (JPEG, PNG or WebP).
    /// - Parameters:
    ///   - image: the encoded bytes.
    ///   - name: what the image is called in the record (a file name or an index).
    ///   - parameters: the request's options.
    /// - Returns: the record and the ranked categories of the first head.
    /// - Throws: `ImageFailure` naming why the image cannot be classified.
    func classify(_ image: Data, name: String, parameters: ClassificationParameters) throws(ImageFailure) -> ClassifiedImage

    /// Why these parameters cannot be served (a locale the model was not loaded with, say), or nil.
    func problem(with parameters: ClassificationParameters) -> String?
}

/// One image's outcome.
package struct ClassifiedImage: Sendable {
    /// The command line's JSON object for the image (`vision-tasks classify --format json`'s keys).
    package var record: Data
    /// The first head's categories, best first, as the classification extension reports them.
    package var ranked: [RankedCategory]

    package init(record: Data, ranked: [RankedCategory]) {
        self.record = record
        self.ranked = ranked
    }
}

/// A category as Triton's classification extension prints it: `"score:index:label"`.
package struct RankedCategory: Sendable, Equatable {
    package var score: Float
    package var index: Int
    package var label: String?

    package init(score: Float, index: Int, label: String?) {
        self.score = score
        self.index = index
        self.label = label
    }

    /// `"<score>:<index>:<label>"`, or `"<score>:<index>"` without a label.
    var tritonString: String {
        let head = "\(score):\(index)"
        return label.map { "\(head):\($0)" } ?? head
    }
}

/// Why one image failed.
package struct ImageFailure: Error, Sendable {
    package let message: String

    package init(_ message: String) { self.message = message }
}

/// A request's classification options (MediaPipe's `ImageClassifierOptions` names in
/// snake case, as OIP request parameters and v1 query arguments). nil means the model's default.
package struct ClassificationParameters: Sendable, Equatable {
    /// Top-k per head; -1 for all; never 0.
    package var maxResults: Int?
    /// Categories scoring below this are dropped.
    package var scoreThreshold: Float?
    /// Category names to keep (empty: all).
    package var categoryAllowlist: [String] = []
    /// Category names to drop.
    package var categoryDenylist: [String] = []
    /// The display-names locale.
    package var displayNamesLocale: String?

    package init() {}
}
