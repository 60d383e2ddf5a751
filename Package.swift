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
        .target(name: "TasksCommon"),
        // The file-system layer: every POSIX file call, errno mapped once, the durable atomic
        // write, SHA-256 of files (renameat2 from the C shim: Glibc's module does not export it).
        .target(name: "CFileSystem"),
        .target(name: "FileSystem", dependencies: ["CFileSystem", "CCrypto", "TasksCommon"]),
        .target(name: "LiteRT", dependencies: ["CLiteRt", "FileSystem", "TasksCommon"]),
        .target(name: "TFLiteMetadata", dependencies: ["CZip", "FileSystem", "TasksCommon"]),
        .target(name: "Imaging", dependencies: ["CImageCodecs", "FileSystem", "TasksCommon"]),
        .systemLibrary(
            name: "CMicroHTTPD", path: "Sources/CMicroHTTPD", pkgConfig: "libmicrohttpd",
            providers: [.apt(["libmicrohttpd-dev"])]),
        .target(name: "CHTTPDaemon", dependencies: ["CMicroHTTPD"]),
        // libcurl: model downloads, with callbacks that stop a transfer at once (see CurlHandle).
        .systemLibrary(
            name: "CCurl", path: "Sources/CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        .target(name: "ModelDownloads", dependencies: ["CZip", "CCurl", "FileSystem", "TasksCommon"]),
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
            dependencies: ["FileSystem", "TasksCommon", "Imaging", "TaskRuntime", "TFLiteMetadata", "ModelDownloads"]),
        .target(name: "VideoInput", dependencies: ["CFFmpeg", "FileSystem", "Imaging", "TasksCommon", "VisionTasks"]),
        // The task layer between the tasks and every front end: batch running, records, checks,
        // served-model adapters. A task (classify, label, embed) is one conformance.
        .target(
            name: "ImageTasks",
            dependencies: [
                "FileSystem", "TasksCommon", "TFLiteMetadata", "TaskRuntime", "VisionTasks", "ImageLabeling",
                "VideoInput", "ModelDownloads",
            ]),
        // Fitting a classifier head on frozen embeddings: the convex softmax regression, L-BFGS over
        // CBLAS products (package-only).
        .target(name: "HeadFitting", dependencies: ["CLBFGS", "CBLAS", "TasksCommon"]),
        // Fine-tuning: forward and backward of a base's last blocks and a new head over OpenBLAS's
        // float32 GEMM, mini-batch Adam/SGD (package-only).
        .target(name: "FineTuning", dependencies: ["CBLAS", "TFLiteMetadata", "TasksCommon"]),
        // The training pipeline, the `train` command's engine: features from a frozen base (cached),
        // the fitted head or the fine-tuned tail, the export (package-only).
        .target(
            name: "TrainingPipeline",
            dependencies: [
                "FileSystem", "ImageTasks", "TFLiteMetadata", "HeadFitting", "FineTuning", "VisionTasks", "ModelDownloads",
                "TasksCommon",
            ]),
        // The public training API over it (Create ML's MLImageClassifier, Model Maker's create/evaluate/export).
        .target(
            name: "ImageClassifierTraining", dependencies: ["TrainingPipeline", "FineTuning", "ImageTasks", "TasksCommon"]),
        // The model server, over libmicrohttpd and the task layer.
        .target(name: "ModelServer", dependencies: ["CHTTPDaemon", "CMicroHTTPD", "ImageTasks", "TasksCommon"]),
        .executableTarget(
            name: "VisionTasksCLI",
            dependencies: [
                "VisionTasks", "ImageLabeling", "VideoInput", "TaskRuntime", "LiteRT",
                "Imaging", "FileSystem", "TasksCommon", "ModelDownloads", "TFLiteMetadata", "ImageTasks", "ModelServer",
                "TrainingPipeline", "FineTuning",
            ],
            path: "Sources/vision-tasks"),

        // Tests.
        .target(
            name: "TestSupport", dependencies: ["Imaging", "TasksCommon", "TFLiteMetadata"],
            path: "Tests/TestSupport", exclude: ["model_server.py"]),
        // The writer the kill test kills (SIGKILL at random moments), and the test.
        .executableTarget(
            name: "AtomicWriteProbe", dependencies: ["TrainingPipeline", "FileSystem", "ModelDownloads", "TFLiteMetadata"],
            path: "Tests/AtomicWriteProbe"),
        .testTarget(
            name: "FileSystemTests",
            dependencies: [
                "AtomicWriteProbe", "TrainingPipeline", "FileSystem", "ModelDownloads", "TasksCommon", "TestSupport",
            ]),
        .testTarget(name: "LiteRTTests", dependencies: ["LiteRT", "TestSupport"]),
        // VisionTasks: the fine-tuned models the graph edits write are run as image classifiers.
        .testTarget(name: "TFLiteMetadataTests", dependencies: ["TFLiteMetadata", "TestSupport", "VisionTasks"]),
        .testTarget(name: "ImagingTests", dependencies: ["FileSystem", "Imaging", "TestSupport"]),
        .testTarget(name: "VideoInputTests", dependencies: ["VideoInput", "CFFmpeg", "Imaging", "VisionTasks", "TestSupport"]),
        .testTarget(name: "VideoInputPublicAPITests", dependencies: ["VideoInput", "VisionTasks"]),
        .testTarget(
            name: "VisionTasksTests",
            dependencies: [
                "VisionTasks", "TaskRuntime", "Imaging", "LiteRT", "TFLiteMetadata",
                "TestSupport",
            ]),
        .testTarget(name: "ImageLabelingTests", dependencies: ["ImageLabeling", "TestSupport"]),
        .testTarget(
            name: "ModelDownloadTests", dependencies: ["FileSystem", "ImageLabeling", "ModelDownloads", "TestSupport"]),
        .testTarget(name: "VisionTasksCLITests", dependencies: ["TestSupport"]),
        .testTarget(
            name: "ModelServerTests",
            dependencies: ["ModelServer", "ImageTasks", "VisionTasks", "ImageLabeling", "TasksCommon", "TestSupport"]),
        .testTarget(name: "ImageClassifierTrainingTests", dependencies: ["ImageClassifierTraining", "TestSupport"]),
        .testTarget(
            name: "TrainingPipelineTests",
            dependencies: [
                "TrainingPipeline", "FineTuning", "ImageTasks", "ImageLabeling", "ModelDownloads", "Imaging", "VisionTasks",
                "FileSystem", "TasksCommon", "TFLiteMetadata", "TestSupport",
            ]),
        .testTarget(
            name: "ImageTasksTests",
            dependencies: ["ImageTasks", "VisionTasks", "ImageLabeling", "ModelDownloads", "TasksCommon", "TestSupport"]),
        .testTarget(
            name: "FineTuningTests", dependencies: ["FineTuning", "TFLiteMetadata", "TasksCommon"],
            resources: [.copy("Fixtures")]),
        .testTarget(name: "HeadFittingTests", dependencies: ["HeadFitting", "VisionTasks", "TasksCommon", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
