import Foundation
import TasksCommon

/// A folder of labelled photos: one sub-folder per class, named after it, holding its photos
/// (searched recursively, as `classify` searches folders). Create ML's
/// `MLImageClassifier.DataSource.labeledDirectories(at:)` and Model Maker's
/// `Dataset.from_folder` read the same layout. Classes are sorted by their names' bytes. A class
/// folder may be a symbolic link to a folder (a data set assembled from others); links to
/// folders inside a class folder are not followed, as in `classify`.
///
/// Nothing is skipped silently: files that are not images (by extension) and entries of the top
/// folder that are not class folders are listed in `ignored`; hidden and metadata folders at any
/// depth (".git", ".ipynb_checkpoints", "__MACOSX", "@eaDir": `DirectoryWalker.isMetadataFolder`)
/// are no classes and are not searched, listed in `skippedFolders`; folders that cannot be read
/// are examples whose input is `.unreadable`, reported like a photo that cannot be decoded.
package struct LabeledImageFolder: Sendable {
    /// One photo and the index of its class in `classes`.
    package struct Example: Sendable, Equatable {
        package let input: ImageInput
        package let label: Int

        package init(input: ImageInput, label: Int) {
            self.input = input
            self.label = label
        }
    }

    /// The folder given.
    package let root: FileSystemPath
    /// The class names: the sub-folders' names, sorted.
    package let classes: [String]
    /// Every photo, class by class, each class's in path order.
    package let examples: [Example]
    /// Files that are not photos, and top-level entries that are not class folders.
    package let ignored: [FileSystemPath]
    /// The hidden and metadata folders not searched, at any depth, sorted.
    package let skippedFolders: [FileSystemPath]
    /// The classes whose folder holds no photo (kept only when `keepingEmptyClasses`).
    package let emptyClasses: [String]

    /// Reads the layout of `root`.
    /// - Parameter keepingEmptyClasses: keep a class folder without photos as a class (listed
    ///   in `emptyClasses`: `evaluate` counts it with support 0) instead of refusing it (`train`:
    ///   a class needs photos to be learnt).
    /// - Throws: `TasksError` naming the folder: it cannot be read; it has no sub-folder; a
    ///   class folder has no photo (unless `keepingEmptyClasses`; then when no class has one);
    ///   two class names differ only by case (they would be one class on a file system that
    ///   ignores case, and are easily confused).
    package init(_ root: FileSystemPath, keepingEmptyClasses: Bool = false) throws(TasksError) {
        let (all, topLevel) = try DirectoryWalker.contents(of: root)
        // Hidden folders (.git) and the resource folders macOS zips carry are no classes.
        let folders = all.filter { !Self.isHiddenOrSystem($0) }
        var skippedFolders = all.filter(Self.isHiddenOrSystem)
        guard !folders.isEmpty else {
            throw .invalidArgument(
                "The folder has no class folders: put each class's photos in a sub-folder named after the class.",
                subject: .file(root.description))
        }
        var classes: [String] = []
        var examples: [Example] = []
        var ignored = topLevel
        var seen: [String: String] = [:]
        var emptyClasses: [String] = []
        for folder in folders {
            let name = String(decoding: folder.bytes.split(separator: UInt8(ascii: "/")).last ?? [], as: UTF8.self)
            if let other = seen[name.lowercased()] {
                throw .invalidArgument(
                    "The class folders '\(other)' and '\(name)' differ only by case; rename or merge them.",
                    subject: .file(root.description))
            }
            seen[name.lowercased()] = name
            let photos = DirectoryWalker.images(under: folder, ignored: &ignored, skippedFolders: &skippedFolders)
            if photos.isEmpty { emptyClasses.append(name) }
            guard !photos.isEmpty || keepingEmptyClasses else {
                throw .invalidArgument(
                    "The class folder '\(name)' has no .jpg, .jpeg, .png or .webp photo.", subject: .file(root.description))
            }
            examples += photos.map { Example(input: $0, label: classes.count) }
            classes.append(name)
        }
        guard !examples.isEmpty else {
            throw .invalidArgument(
                "No class folder has a .jpg, .jpeg, .png or .webp photo.", subject: .file(root.description))
        }
        self.root = root
        self.emptyClasses = emptyClasses
        self.classes = classes
        self.examples = examples
        self.ignored = ignored
        self.skippedFolders = skippedFolders.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
    }

    /// Whether a top-level folder is hidden or a metadata folder (`DirectoryWalker.isMetadataFolder`).
    private static func isHiddenOrSystem(_ folder: FileSystemPath) -> Bool {
        DirectoryWalker.isMetadataFolder(folder.bytes.split(separator: UInt8(ascii: "/")).last.map(Array.init) ?? [])
    }

    /// The number of photos of each class, by class index.
    package var countsByClass: [Int] {
        var counts = Array(repeating: 0, count: classes.count)
        for example in examples { counts[example.label] += 1 }
        return counts
    }
}
