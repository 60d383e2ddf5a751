import TasksCommon

/// One image to classify or label: a file, or a path the folder walk could not read (reported
/// as that path's error, like an unreadable image).
package enum ImageInput: Equatable, Sendable {
    case file(FileSystemPath)
    case unreadable(FileSystemPath, TasksError)

    package var path: FileSystemPath {
        switch self {
        case .file(let path), .unreadable(let path, _): path
        }
    }
}
