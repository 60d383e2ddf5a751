import TrainingPipeline

/// `train`'s options for training on views of each photo (`--augment`): how many, and Create
/// ML's exposure and rotation augmentations. Any of them turns augmentation on.
enum AugmentationOptionGroup {
    static let augment = Flag(
        name: "augment",
        help: "Train on views of each photo: as it is, flipped left to right, then random crops (70-100% of each side, "
            + "drawn from the photo and --seed), each as it is and flipped; one view per photo and epoch with trained "
            + "layers, all of them for the frozen head (their features computed once and cached).")
    static let views = Option<Int?>(
        name: "augment-views", valueName: "N", help: "Views per photo, the photo as it is included (turns --augment on).",
        default: nil, defaultDescription: "4: the photo, its flip, a crop and the crop flipped"
    ) { text throws(UsageError) in
        try ValueParser.integer("augment-views", in: Augmentation.viewRange)(text)
    }
    static let exposure = Option<Double>(
        name: "augment-exposure", valueName: "STOPS",
        help: "Change each view's exposure (but the photo as it is) by a random amount up to this many stops, either way "
            + "(Create ML's exposure augmentation; turns --augment on).", default: 0, defaultDescription: "0, none",
        transform: ValueParser.decimal("augment-exposure", in: Augmentation.exposureRange))
    static let rotation = Option<Double>(
        name: "augment-rotation", valueName: "DEG",
        help: "Turn each view (but the photo as it is) by a random angle up to this many degrees, either way, the "
            + "corners filled with the nearest edge (Create ML's rotation augmentation; turns --augment on).", default: 0,
        defaultDescription: "0, none", transform: ValueParser.decimal("augment-rotation", in: Augmentation.rotationRange))

    static let optionTable = [augment.definition, views.definition, exposure.definition, rotation.definition]

    /// The augmentation asked for; nil when none of the options is given.
    static func augmentation(_ parsed: ParsedArguments) throws(UsageError) -> Augmentation? {
        let views = try parsed.value(Self.views)
        let exposure = try parsed.value(Self.exposure)
        let rotation = try parsed.value(Self.rotation)
        guard parsed.isSet(augment) || views != nil || exposure > 0 || rotation > 0 else { return nil }
        return Augmentation(views: views ?? 4, exposure: exposure, rotation: rotation)
    }
}
