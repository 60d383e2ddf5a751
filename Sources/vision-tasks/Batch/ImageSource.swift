import Glibc
import TasksCommon

/// The images of classify and label in order, from the arguments (folders already expanded) or
/// from a list read as it arrives, keeping those of `--shard` and leaving out those `--resume`
/// found done.
struct ImageSource {
    enum Origin {
        case arguments([ImageInput])
        case list(PathListReader)
    }

    let origin: Origin
    let shard: Shard?
    /// The `image` texts (`FileSystemPath.description`) to leave out.
    let completed: Set<String>

    /// The images, when they are known in advance (not for a list).
    var knownCount: Int? {
        guard case .arguments(let inputs) = origin else { return nil }
        return inputs.count(where: keeps)
    }

    /// Calls `body` with each image in order; for a list, each as soon as its entry arrives (a
    /// folder in the list stands for the images under it).
    /// - Returns: the error that ended the reading of a list early, or nil.
    func forEach(_ body: (ImageInput) -> Void) -> TasksError? {
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

    /// A list entry: the images under a folder (an error entry when it holds none), else the file.
    static func expand(_ path: FileSystemPath) -> [ImageInput] {
        var status = stat()
        guard path.withCString({ stat($0, &status) }) == 0, status.st_mode & S_IFMT == S_IFDIR else { return [.file(path)] }
        let found = DirectoryWalker.images(under: path)
        guard found.isEmpty else { return found }
        return [
            .unreadable(
                path,
                .invalidArgument(
                    "The folder holds no .jpg, .jpeg, .png or .webp file.",
                    subject: .file(path.description)))
        ]
    }
}
