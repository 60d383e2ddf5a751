import FileSystem
import Glibc
import TasksCommon

/// The images of classify and label in order, from the arguments (folders already expanded) or
/// from a list read as it arrives, keeping those of `--shard` and leaving out those `--resume`
/// found done.
package struct ImageSource {
    package enum Origin {
        case arguments([ImageInput])
        case list(PathListReader)
    }

    package let origin: Origin
    package let shard: Shard?
    /// The `image` texts (`FileSystemPath.description`) to leave out.
    package let completed: Set<String>
    /// The hidden and metadata folders under the folder arguments that were not searched
    /// (`DirectoryWalker.isMetadataFolder`), for the caller to report. A list's folders are
    /// searched as it arrives, by the same rule, and theirs are not listed.
    package private(set) var skippedFolders: [FileSystemPath] = []
    /// The lines of the `--resume` file that are not records (`ResumeRecords.Scan.foreignLines`),
    /// for the caller to report.
    package private(set) var foreignResumeLines: [Int] = []

    package init(origin: Origin, shard: Shard? = nil, completed: Set<String> = []) {
        self.origin = origin
        self.shard = shard
        self.completed = completed
    }

    /// The images of a run: `images` (folders expanded) or, when `filesFrom` is given, the list
    /// in that file ("-": standard input), with `shard` applied and the images `resume` (an
    /// earlier run's jsonl output) has a result for left out.
    /// - Throws: `TasksError` for a list or resume file that cannot be opened, or a folder
    ///   argument without images (`emptyFolderError`: naming the folder, condition `emptyFolder`).
    /// - Parameter readingWholeList: read the list to its end first, then run its entries as
    ///   arguments (for a list file whose output is written at the end, e.g. one `.npy` array).
    package init(
        images: [FileSystemPath], filesFrom: String?, nullSeparated: Bool = false, readingWholeList: Bool = false,
        shard: Shard? = nil, resume: ResumeFile? = nil
    ) throws(TasksError) {
        var skippedFolders: [FileSystemPath] = []
        let origin: Origin =
            if let filesFrom, readingWholeList {
                .arguments(
                    try ImageFileList.expand(
                        try Self.entries(of: filesFrom, nullSeparated: nullSeparated), skippedFolders: &skippedFolders))
            } else if let filesFrom {
                .list(try PathListReader(path: filesFrom, nullSeparated: nullSeparated))
            } else {
                .arguments(try ImageFileList.expand(images, skippedFolders: &skippedFolders))
            }
        let scan = try resume.map { file throws(TasksError) in try ResumeRecords.scan(file) } ?? ResumeRecords.Scan()
        self.init(origin: origin, shard: shard, completed: scan.completedImages)
        self.skippedFolders = skippedFolders
        foreignResumeLines = scan.foreignLines
    }

    /// Every entry of the list file at `path`, in order.
    /// - Throws: `TasksError` for a list that cannot be opened or read.
    private static func entries(of path: String, nullSeparated: Bool) throws(TasksError) -> [FileSystemPath] {
        let reader = try PathListReader(path: path, nullSeparated: nullSeparated)
        var entries: [FileSystemPath] = []
        while let entry = try reader.next() { entries.append(entry) }
        return entries
    }

    /// Whether the images come from a list read as it arrives (`--files-from`).
    package var isList: Bool {
        if case .list = origin { return true }
        return false
    }

    /// The images, when they are known in advance (not for a list).
    package var knownCount: Int? {
        guard case .arguments(let inputs) = origin else { return nil }
        return inputs.count(where: keeps)
    }

    /// Calls `body` with each image in order; for a list, each as soon as its entry arrives (a
    /// folder in the list stands for the images under it).
    /// - Returns: the error that ended the reading of a list early, or nil.
    package func forEach(_ body: (ImageInput) -> Void) -> TasksError? {
        switch origin {
        case .arguments(let inputs):
            for input in inputs where keeps(input) { body(input) }
            return nil
        case .list(let reader):
            do throws(TasksError) {
                while let path = try reader.next() {
                    for input in Self.expand(path) where keeps(input) { body(input) }
                }
                return nil
            } catch {
                return error
            }
        }
    }

    private func keeps(_ input: ImageInput) -> Bool {
        (shard?.contains(input.path) ?? true) && !completed.contains(input.path.description)
    }

    /// Why a folder given as an image source is refused.
    package static let emptyFolderReason = "The folder holds no .jpg, .jpeg, .png or .webp file."

    /// The error for a folder, given as an image source, that holds no image: invalidArgument
    /// naming the folder, its condition `emptyFolder`.
    package static func emptyFolderError(_ folder: FileSystemPath) -> TasksError {
        TasksError(.invalidArgumentError, emptyFolderReason, subject: .file(folder.description), condition: .emptyFolder)
    }

    /// A list entry: the images under a folder (an error entry when it holds none), else the file.
    package static func expand(_ path: FileSystemPath) -> [ImageInput] {
        guard FileStatus.isDirectory(path) else { return [.file(path)] }
        var skippedFolders: [FileSystemPath] = []
        let found = DirectoryWalker.images(under: path, skippedFolders: &skippedFolders)
        guard found.isEmpty else { return found }
        return [
            .unreadable(
                path,
                emptyFolderError(path))
        ]
    }
}
