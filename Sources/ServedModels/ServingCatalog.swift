import Foundation
import ImageTasks
import ModelCache
import TasksCommon

/// The models a server serves, loaded from their specs: one `ModelPool` each, in the order
/// given. Every front end that serves models (`vision-tasks serve`, a test) builds one; the
/// task each model runs comes from its `ServedTask` conformance, so a new task needs nothing here
/// but its case.
package struct ServingCatalog: Sendable {
    /// How every model's instances are made (`serve --threads`, `--locale`, `--l2-normalize`,
    /// `--quantize`, `--cache`).
    package struct Options: Sendable {
        /// CPU threads per instance.
        package var threads = 1
        /// A classifier's display-names locale.
        package var locale = "en"
        /// An embedder's options (MediaPipe's `ImageEmbedderOptions`), fixed when it is served.
        package var l2Normalize = false
        package var quantize = false
        /// Where `.remote` models are installed (`models download`'s cache).
        package var store: ModelStore?

        package init() {}
    }

    /// The pools, in the order of the specs.
    package let pools: [ModelPool]

    /// Loads every model's instances.
    /// - Throws: `TasksError` for the first model that fails: its loading error (the file named),
    ///   failedPrecondition for a remote model not downloaded, invalidArgument for a name given twice.
    package init(_ specs: [ServedModelSpec], options: Options) throws(TasksError) {
        var pools: [ModelPool] = []
        for spec in specs {
            guard !pools.contains(where: { $0.name == spec.name }) else {
                throw .invalidArgument("The model name '\(spec.name)' is given twice.")
            }
            pools.append(try Self.load(spec, options: options))
        }
        self.pools = pools
    }

    /// A catalog of pools already made.
    package init(pools: [ModelPool]) { self.pools = pools }

    /// The pool served as `name`, or nil.
    package func pool(named name: String) -> ModelPool? { pools.first { $0.name == name } }

    /// The served names, in order.
    package var names: [String] { pools.map(\.name) }

    private static func load(_ spec: ServedModelSpec, options: Options) throws(TasksError) -> ModelPool {
        switch spec.source {
        case .model(let path):
            return try pool(spec, version: "1", make: try maker(modelAt: path, task: spec.task, options: options))
        case .manifest(let path):
            return try pool(spec, version: "1", make: labeler(manifest: path))
        case .remote(let name):
            guard let store = options.store, let installed = store.installed(name) else {
                let cache = options.store.map { " in \($0.root.path)" } ?? ""
                throw .failedPrecondition(
                    "the remote model is not downloaded\(cache): run `vision-tasks models download \(name)`.",
                    subject: .remoteModel(name))
            }
            let make =
                installed.kind == .automlZip
                ? labeler(manifest: installed.manifestURL.path)
                : try maker(modelAt: installed.modelURL.path, task: spec.task, options: options)
            return try pool(spec, version: String(installed.version), make: make)
        }
    }

    /// How to make an instance of a `.tflite` model: an embedder or a classifier, as `task`
    /// resolves for it (once for all instances).
    private static func maker(
        modelAt path: String, task: ServedModelSpec.Task, options: Options
    ) throws(TasksError) -> () throws(TasksError) -> any ServedTask {
        guard try task.resolved(forModelAt: path) == .embedder else {
            return { () throws(TasksError) in try ServedClassifier(path: path, threads: options.threads, locale: options.locale) }
        }
        return { () throws(TasksError) in
            try ServedEmbedder(path: path, threads: options.threads, l2Normalize: options.l2Normalize, quantize: options.quantize)
        }
    }

    private static func labeler(manifest: String) -> () throws(TasksError) -> any ServedTask {
        { () throws(TasksError) in try ServedLabeler(manifest: manifest) }
    }

    /// `spec.workers` instances made by `make`.
    private static func pool(
        _ spec: ServedModelSpec, version: String, make: () throws(TasksError) -> any ServedTask
    ) throws(TasksError) -> ModelPool {
        var instances: [any ServedTask] = []
        for _ in 0..<max(1, spec.workers) { instances.append(try make()) }
        return ModelPool(name: spec.name, instances: instances, version: version)
    }
}
