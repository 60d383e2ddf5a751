/// The TFLite Model Metadata ("M001") of a one-head image classifier, as tflite-support's
/// `image_classifier.MetadataWriter` writes it (field ids from metadata_schema.fbs): an RGB
/// image input named "image" with NormalizationOptions, a "probability" output whose labels
/// are the associated file `labelsFile` (TENSOR_AXIS_LABELS), minimum parser version 1.0.0.
/// To give a real model other normalization values with `ModelPatcher.replaceMetadata(with:)`.
public enum ClassifierMetadata {
    /// The metadata FlatBuffer.
    /// - Parameters:
    ///   - name: The model name.
    ///   - mean: NormalizationOptions means (1 value, or 3 for red, green, blue).
    ///   - std: NormalizationOptions standard deviations, as many.
    ///   - labelsFile: The label file's name in the model's associated files.
    public static func bytes(name: String, mean: [Float], std: [Float], labelsFile: String = "labels.txt") -> [UInt8] {
        // Content: the union ContentProperties (type 2 ImageProperties, ColorSpaceType RGB 1;
        // type 1 FeatureProperties); ProcessUnit: the union ProcessUnitOptions (type 1
        // NormalizationOptions with mean 0 and std 1).
        let image = FB.table([
            0: .string("image"),
            3: .table([0: .uint8(2), 1: .table([0: .uint8(1)])]),
            4: .tables([.table([0: .uint8(1), 1: .table([0: .floats(mean), 1: .floats(std)])])]),
        ])
        let probability = FB.table([
            0: .string("probability"),
            3: .table([0: .uint8(1), 1: .table([:])]),
            6: .tables([.table([0: .string(labelsFile), 2: .uint8(2)])]),
        ])
        let subgraph = FB.table([2: .tables([image]), 3: .tables([probability])])
        let model = FB.table([0: .string(name), 3: .tables([subgraph]), 7: .string("1.0.0")])
        return FB.buffer(root: model, identifier: "M001")
    }
}
