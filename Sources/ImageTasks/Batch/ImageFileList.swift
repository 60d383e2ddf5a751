import FileSystem
import Glibc
import TasksCommon

/// Expands the image arguments of classify and label: files as given, folders into the image
/// files under them (`DirectoryWalker`).
package enum ImageFileList {
    /// Each argument as a file, or the images under it when it is a folder (a symbolic link to
    /// a folder is followed). A path that does not exist is kept, so that it is reported like
    /// any unreadable file.
    /// The hidden and metadata folders not searched are added to `skippedFolders`.
    /// - Throws: `TasksError` invalidArgument naming a folder that holds no image file and
    ///   nothing unreadable (`ImageSource.emptyFolderError`).
    package static func expand(
        _ arguments: [FileSystemPath], skippedFolders: inout [FileSystemPath]
    ) throws(TasksError) -> [ImageInput] {
        var inputs: [ImageInput] = []
        for path in arguments {
            guard isFolder(path) else {
                inputs.append(.file(path))
                continue
            }
            let found = DirectoryWalker.images(under: path, skippedFolders: &skippedFolders)
            guard !found.isEmpty else {
                throw ImageSource.emptyFolderError(path)
            }
            inputs += found
        }
        return inputs
    }

    /// Whether `path` is a folder, following symbolic links (a link to a photo is a photo).
    /// The corresponding C function is `stat`.
    private static func isFolder(_ path: FileSystemPath) -> Bool {
        FileStatus.isDirectory(path)
    }
}
