import Foundation

/// Expands the command's image arguments: files as given, folders into the image files they
/// contain (recursively, by extension, sorted by path).
enum ImageFiles {
    /// The extensions a folder is searched for (lower-cased).
    static let extensions: Set<String> = ["jpg", "jpeg", "png", "webp"]

    /// Each argument as a file path, or the image files inside it when it is a folder
    /// (a symbolic link to a folder is followed). A path that does not exist is kept, so that
    /// it is reported like any unreadable file.
    /// - Throws: `UsageError` for a folder that holds no image file.
    static func expand(_ arguments: [String]) throws(UsageError) -> [String] {
        var paths: [String] = []
        for path in arguments {
            guard isFolder(path) else {
                paths.append(path)
                continue
            }
            let images = imagesInFolder(path)
            guard !images.isEmpty else {
                throw UsageError("no .jpg, .jpeg, .png or .webp file in the folder \(path)")
            }
            paths += images
        }
        return paths
    }

    /// Whether `path` is a folder, following symbolic links (a link to a photo is a photo).
    private static func isFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    private static func imagesInFolder(_ folder: String) -> [String] {
        let root = URL(fileURLWithPath: folder).resolvingSymlinksInPath()
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey]) else {
            return []
        }
        var found: [String] = []
        for case let url as URL in walker where extensions.contains(url.pathExtension.lowercased()) && !isFolder(url.path) {
            let relative = url.path.dropFirst(root.path.count).drop { $0 == "/" }
            found.append((folder as NSString).appendingPathComponent(String(relative)))
        }
        return found.sorted()
    }
}
