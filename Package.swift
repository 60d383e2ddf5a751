// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "SwiftVisionTasks",
    products: [
        .library(name: "VisionTasks", targets: ["VisionTasks"]),
        .library(name: "ImageLabeling", targets: ["ImageLabeling"]),
        .library(name: "VideoInput", targets: ["VideoInput"]),
        .library(name: "TFLiteMetadata", targets: ["TFLiteMetadata"]),
        .library(name: "ImageClassifierTraining", targets: ["ImageClassifierTraining"]),
        .executable(name: "vision-tasks", targets: ["VisionTasksCLI"]),
    ],
    targets: [
        // C declarations and system libraries.
        .systemLibrary(name: "CLiteRt", path: "Sources/CLiteRt", pkgConfig: "litert"),
        .systemLibrary(
            name: "CZip", path: "Sources/CZip", pkgConfig: "libzip",
            providers: [.apt(["libzip-dev"])]),
        .systemLibrary(
            name: "CCrypto", path: "Sources/CCrypto", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        .target(
            name: "CImageCodecs",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("webp")]
        ),

        // Internal building blocks, one job each.
        // What every target shares: `TasksError` (its subject and condition), `TasksErrorCode`,
        // byte paths (`FileSystemPath`), the seeded generator, the package version.
        .target(name: "TasksCommon"),
        // The file-system layer: every POSIX file call, errno mapped once, the durable atomic
        // write, SHA-256 of files (renameat2 from the C shim: Glibc's module does not export it).
        .target(name: "CFileSystem"),
        .target(name: "FileSystem", dependencies: ["CFileSystem", "CCrypto", "TasksCommon"]),
        // The safe LiteRT wrapper: environment, model, compiled model, scoped buffers, its log filter.
        .target(name: "LiteRT", dependencies: ["CLiteRt", "FileSystem", "TasksCommon"]),
        // Where archives live: the zip writer of associated files, the zip reader (libzip), the
        // safe unpacking of a downloaded bundle.
        .target(name: "Archives", dependencies: ["CZip", "FileSystem", "TasksCommon"]),
        // FlatBuffers, the TFLite model and its metadata, associated files; the metadata writer.
        .target(name: "TFLiteMetadata", dependencies: ["Archives", "FileSystem", "TasksCommon"]),
        .target(name: "Imaging", dependencies: ["CImageCodecs", "FileSystem", "TasksCommon"]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CHTTPDaemon", dependencies: ["CMicroHTTPD"]),
        // libcurl: model downloads, with callbacks that stop a transfer at once (see CurlHandle).
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // The model cache on disk, without a network: the package's cache folder, the `index.json`
        // a model source publishes (`ModelIndex`), the versioned store of installed models.
        .target(name: "ModelCache", dependencies: ["FileSystem", "TasksCommon"]),
        // Model downloads over libcurl into the cache: transfers, retries, verification, install.
        .target(name: "ModelDownloads", dependencies: ["Archives", "CCurl", "FileSystem", "ModelCache", "TasksCommon"]),
        // liblbfgs and OpenBLAS's CBLAS: the optimizer and the matrix products of the training solver.
        .systemLibrary(
            name: "CLBFGS", path: "Sources/CLBFGS", pkgConfig: "liblbfgs",
            providers: [.apt(["liblbfgs-dev"])]),
        .systemLibrary(
            name: "CBLAS", path: "Sources/CBLAS", pkgConfig: "openblas",
            providers: [.apt(["libopenblas-dev"])]),
        // FFmpeg's headers only: its libraries are loaded on first use (ffmpeg_loader.c).
        .target(name: "CFFmpeg", linkerSettings: [.linkedLibrary("dl")]),

        // What every task shares, and both public APIs stand on: the model asset and input spec, the
        // model runner (preprocessing and inference), the classifier and embedder engines, heads,
        // calibration, postprocessing, model inspection, the timestamp rule.
        .target(
            name: "TaskRuntime", dependencies: ["FileSystem", "TasksCommon", "LiteRT", "TFLiteMetadata", "Imaging"]),

        // Public APIs and the command-line tool.
        .target(name: "VisionTasks", dependencies: ["TasksCommon", "Imaging", "TaskRuntime"]),
        .target(
            name: "ImageLabeling",
            dependencies: [
                "FileSystem", "TasksCommon", "Imaging", "TaskRuntime", "TFLiteMetadata", "ModelCache", "ModelDownloads",
            ]),
        .target(name: "VideoInput", dependencies: ["CFFmpeg", "FileSystem", "Imaging", "TasksCommon", "VisionTasks"]),
        // The task layer between the tasks and every front end: a task (classify, embed) is one
        // conformance; batch running, records and their checks, evaluation, similarity. Neither
        // FFmpeg nor libcurl: training stands on it.
        .target(
            name: "ImageTasks", dependencies: ["FileSystem", "TasksCommon", "TFLiteMetadata", "TaskRuntime", "VisionTasks"]),
        // The `label` task: ImageLabeling's labeler as a task (above ImageTasks: it links the downloads).
        .target(name: "LabelingTasks", dependencies: ["ImageLabeling", "ImageTasks", "TasksCommon"]),
        // The one video frame loop over VideoInput's sources (`classify-video`, `live`, the server's videos).
        .target(name: "VideoTasks", dependencies: ["ImageTasks", "TasksCommon", "VideoInput", "VisionTasks"]),
        // The models a server serves: specs (file, manifest or downloaded model), the catalog of
        // pools, the served-task adapters, request parameters, video uploads classified.
        .target(
            name: "ServedModels",
            dependencies: [
                "FileSystem", "ImageLabeling", "ImageTasks", "LabelingTasks", "ModelCache", "TFLiteMetadata", "TaskRuntime",
                "TasksCommon", "VideoInput", "VideoTasks", "VisionTasks",
            ]),
        // Fitting a classifier head on frozen embeddings: the convex softmax regression, L-BFGS over
        // CBLAS products (package-only).
        .target(name: "HeadFitting", dependencies: ["CLBFGS", "CBLAS", "TasksCommon"]),
        // Graph surgery for training: a base's feature tensor, the base cut there, with a new head or
        // a replaced tail, and the tail read as layers (package-only).
        .target(name: "GraphSurgery", dependencies: ["TFLiteMetadata", "TasksCommon"]),
        // Fine-tuning: forward and backward of a base's last blocks and a new head over OpenBLAS's
        // float32 GEMM, mini-batch Adam/SGD (package-only).
        .target(name: "FineTuning", dependencies: ["CBLAS", "GraphSurgery", "TFLiteMetadata", "TasksCommon"]),
        // The training pipeline, the `train` command's engine: features from a frozen base (cached),
        // the fitted head or the fine-tuned tail, the export (package-only).
        .target(
            name: "TrainingPipeline",
            dependencies: [
                "Archives", "FileSystem", "FineTuning", "GraphSurgery", "HeadFitting", "ImageTasks", "Imaging", "ModelCache",
                "TFLiteMetadata", "TasksCommon", "VisionTasks",
            ]),
        // The public training API over it (Create ML's MLImageClassifier, Model Maker's create/evaluate/export).
        .target(
            name: "ImageClassifierTraining", dependencies: ["TrainingPipeline", "FineTuning", "ImageTasks", "TasksCommon"]),
        // The model server, over libmicrohttpd and the served models.
        .target(
            name: "ModelServer",
            dependencies: [
                "CHTTPDaemon", "CMicroHTTPD", "ImageTasks", "ServedModels", "TasksCommon", "VideoTasks", "VisionTasks",
            ]),
        .executableTarget(
            name: "VisionTasksCLI",
            dependencies: [
                "VisionTasks", "ImageLabeling", "VideoInput", "TaskRuntime", "LiteRT",
                "Imaging", "FileSystem", "TasksCommon", "ModelCache", "ModelDownloads", "TFLiteMetadata", "ImageTasks",
                "LabelingTasks", "VideoTasks", "ServedModels", "ModelServer", "TrainingPipeline", "FineTuning",
            ],
            path: "Sources/vision-tasks"),

        // Tests.
        .target(
            name: "TestSupport", dependencies: ["Imaging", "TasksCommon", "TFLiteMetadata"],
            path: "Tests/TestSupport", exclude: ["model_server.py"]),
        // The writer the kill test kills (SIGKILL at random moments), and the test.
        .executableTarget(
            name: "AtomicWriteProbe",
            dependencies: ["FileSystem", "GraphSurgery", "ModelCache", "ModelDownloads", "TFLiteMetadata", "TrainingPipeline"],
            path: "Tests/AtomicWriteProbe"),
        .testTarget(
            name: "FileSystemTests",
            dependencies: [
                "AtomicWriteProbe", "TrainingPipeline", "FileSystem", "ModelCache", "ModelDownloads", "TFLiteMetadata",
                "TasksCommon", "TestSupport",
            ]),
        .testTarget(name: "LiteRTTests", dependencies: ["LiteRT", "TestSupport"]),
        // VisionTasks: the fine-tuned models the graph edits write are run as image classifiers.
        .testTarget(
            name: "TFLiteMetadataTests",
            dependencies: ["GraphSurgery", "TFLiteMetadata", "TasksCommon", "TestSupport", "VisionTasks"]),
        .testTarget(name: "ImagingTests", dependencies: ["FileSystem", "Imaging", "TestSupport"]),
        .testTarget(name: "VideoInputTests", dependencies: ["VideoInput", "CFFmpeg", "Imaging", "VisionTasks", "TestSupport"]),
        .testTarget(name: "VideoInputPublicAPITests", dependencies: ["VideoInput", "VisionTasks"]),
        .testTarget(
            name: "VisionTasksTests",
            dependencies: [
                "VisionTasks", "TaskRuntime", "GraphSurgery", "Imaging", "LiteRT", "TFLiteMetadata",
                "TestSupport",
            ]),
        .testTarget(name: "ImageLabelingTests", dependencies: ["ImageLabeling", "TestSupport"]),
        .testTarget(
            name: "ModelDownloadTests",
            dependencies: ["FileSystem", "ImageLabeling", "ModelCache", "ModelDownloads", "TasksCommon", "TestSupport"]),
        .testTarget(name: "VisionTasksCLITests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "ModelServerTests",
            dependencies: [
                "ModelServer", "ImageTasks", "ServedModels", "VisionTasks", "ImageLabeling", "TasksCommon", "TestSupport",
            ]),
        .testTarget(name: "ImageClassifierTrainingTests", dependencies: ["ImageClassifierTraining", "TestSupport"]),
        .testTarget(
            name: "TrainingPipelineTests",
            dependencies: [
                "TrainingPipeline", "FineTuning", "GraphSurgery", "ImageTasks", "ImageLabeling", "ModelCache", "ModelDownloads",
                "Imaging", "VisionTasks", "FileSystem", "TasksCommon", "TFLiteMetadata", "TestSupport",
            ]),
        .testTarget(
            name: "ImageTasksTests",
            dependencies: [
                "ImageTasks", "LabelingTasks", "VideoTasks", "ServedModels", "VisionTasks", "ImageLabeling", "ModelCache",
                "ModelDownloads", "TasksCommon", "TestSupport",
            ]),
        .testTarget(
            name: "FineTuningTests", dependencies: ["FineTuning", "GraphSurgery", "TFLiteMetadata", "TasksCommon"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "HeadFittingTests", dependencies: ["HeadFitting", "VisionTasks", "TasksCommon", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
