import FileSystem
import Glibc
import TasksCommon

/// Finds the image files under a folder with `opendir`/`readdir` on byte paths, so that names
/// that are not UTF-8 are found as they are (Foundation's `FileManager` goes through `String`).
///
/// Rules: recursive; an entry is an image when its extension is .jpg, .jpeg, .png or .webp in
/// any case and it is not a folder (a symbolic link to a photo is a photo; a link to a folder
/// is not followed, so links cannot make a cycle); a folder named like an image is searched.
/// A folder that cannot be read (no permission, a path longer than PATH_MAX, ...) is an
/// `ImageInput.unreadable` entry: reported, never skipped. Hidden folders (".ipynb_checkpoints"
/// from Jupyter, ".thumbnails", ".git") and the metadata folders tools leave ("__MACOSX" in zips
/// made on macOS, "@eaDir" on Synology) are not searched, at any depth: their files are copies
/// or thumbnails of the photos, not photos; they are listed for the caller to report. Entries
/// are sorted by their path's bytes.
package enum DirectoryWalker {
    /// The extensions searched for, lower-cased.
    package static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// The metadata folders that do not start with "." and are not searched.
    private static let metadataFolders: Set<[UInt8]> = [Array("__MACOSX".utf8), Array("@eaDir".utf8)]

    /// Whether the folder `name` is hidden (it starts with ".") or a known metadata folder.
    package static func isMetadataFolder(_ name: [UInt8]) -> Bool {
        name.first == UInt8(ascii: ".") || metadataFolders.contains(name)
    }

    /// How messages call what the walk reads (`FileReader`'s messages for a failed call).
    private static let folderKind = FileKind(noun: "folder", maximumByteCount: .max)

    /// The images under `root`, and the folders under it that could not be read; the hidden and
    /// metadata folders not searched are added to `skippedFolders`, sorted.
    package static func images(under root: FileSystemPath, skippedFolders: inout [FileSystemPath]) -> [ImageInput] {
        var ignored: [FileSystemPath] = []
        return images(under: root, ignored: &ignored, skippedFolders: &skippedFolders)
    }

    /// The images under `root` and the folders under it that could not be read; the files that
    /// are not images (by their extension) are added to `ignored` and the hidden and metadata
    /// folders not searched to `skippedFolders`, each sorted, for a caller that reports them
    /// (training data: nothing is skipped silently).
    package static func images(
        under root: FileSystemPath, ignored: inout [FileSystemPath], skippedFolders: inout [FileSystemPath]
    ) -> [ImageInput] {
        var walk = Walk()
        walk.search(root)
        ignored += walk.others.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        skippedFolders += walk.skippedFolders.sorted { $0.bytes.lexicographicallyPrecedes($1.bytes) }
        return walk.found.sorted { $0.path.bytes.lexicographicallyPrecedes($1.path.bytes) }
    }

    /// The sub-folders of `folder`, links to folders included (a data set's class folder may be
    /// one, as a folder argument may), and its other entries, each sorted by their bytes.
    /// - Throws: `TasksError` naming the folder when it cannot be read.
    package static func contents(
        of folder: FileSystemPath
    ) throws(TasksError) -> (folders: [FileSystemPath], others: [FileSystemPath]) {
        let entries = try read(folder).sorted { $0.name.lexicographicallyPrecedes($1.name) }
        let isFolder = { (entry: (name: [UInt8], kind: EntryKind)) in entry.kind == .folder || entry.kind == .linkedFolder }
        let folders = entries.filter(isFolder).map { folder.appending($0.name) }
        let others = entries.filter { !isFolder($0) }.map { folder.appending($0.name) }
        return (folders, others)
    }

    /// What a directory entry is, as far as the walk cares.
    private enum EntryKind {
        /// A folder to search (not a link to one).
        case folder
        /// A link to a folder: not followed.
        case linkedFolder
        /// Anything else: an image when its extension says so.
        case file
    }

    /// What one walk finds.
    private struct Walk {
        var found: [ImageInput] = []
        var others: [FileSystemPath] = []
        var skippedFolders: [FileSystemPath] = []

        mutating func search(_ folder: FileSystemPath) {
            // Each folder is read whole and closed before its sub-folders are walked, so a deep
            // tree holds one descriptor at a time.
            let entries: [(name: [UInt8], kind: EntryKind)]
            do throws(TasksError) {
                entries = try read(folder)
            } catch {
                found.append(.unreadable(folder, error))
                return
            }
            for entry in entries {
                let path = folder.appending(entry.name)
                switch entry.kind {
                case .folder where isMetadataFolder(entry.name): skippedFolders.append(path)
                case .folder: search(path)
                case .linkedFolder: continue
                case .file:
                    if extensions.contains(path.lowercasedExtension) { found.append(.file(path)) } else { others.append(path) }
                }
            }
        }
    }

    /// The names and kinds of a folder's entries, without "." and "..".
    private static func read(_ folder: FileSystemPath) throws(TasksError) -> [(name: [UInt8], kind: EntryKind)] {
        do throws(Errno) {
            let directory = try Directory(opening: folder)
            return try directory.entries().map { ($0.name, kind(of: $0, in: directory)) }
        } catch {
            throw self.error(error, folder: folder)
        }
    }

    /// The entry's kind from `readdir`'s type, asking `fstatat` (relative to the open folder,
    /// so the path's length does not matter) for links and file systems that leave it unknown.
    private static func kind(of entry: Directory.Entry, in directory: Directory) -> EntryKind {
        func type(following: Bool) -> FileStatus.FileType? { directory.status(of: entry.name, followingLinks: following)?.type }
        switch entry.type ?? type(following: false) {
        case .directory: return .folder
        case .symbolicLink: return type(following: true) == .directory ? .linkedFolder : .file
        default: return .file
        }
    }

    /// The error for a folder that could not be read: `FileReader`'s wording, and for a path
    /// over PATH_MAX its length.
    private static func error(_ code: Errno, folder: FileSystemPath) -> TasksError {
        guard code == .nameTooLong else { return code.tasksError(path: folder, kind: folderKind) }
        return .invalidArgument(
            "The folder cannot be opened: its path is \(folder.bytes.count) bytes, longer than "
                + "the system accepts (PATH_MAX, \(PATH_MAX) bytes with the final NUL); its images were not searched.",
            subject: .file(folder.description))
    }
}
