import Foundation
import ImageTasks
import TasksCommon

/// The warning for each hidden or metadata folder a folder walk did not search
/// (`DirectoryWalker.isMetadataFolder`), the same words in every command.
enum SkippedFolders {
    /// One warning line per folder, on stderr.
    static func warn(_ folders: [FileSystemPath]) {
        for folder in folders { StandardStreams.warn(line(folder.description)) }
    }

    /// "PATH: skipped: a hidden or metadata folder (.ipynb_checkpoints, __MACOSX, @eaDir, ...); its files are not read".
    static func line(_ folder: String) -> String {
        "\(TableText.escaped(folder)): skipped: a hidden or metadata folder "
            + "(.ipynb_checkpoints, .thumbnails, __MACOSX, @eaDir, ...); its files are not read"
    }
}
