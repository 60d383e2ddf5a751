import CFFmpeg
import FileSystem
import Glibc
import TasksCommon

/// Where a source's bytes come from, decided from its URL before FFmpeg opens it.
enum InputLocation: Equatable {
    /// A path on this machine (`file:` prefix removed).
    case path(String)
    /// A file descriptor the caller owns, from `pipe:N` (`pipe:` alone is standard input).
    case fileDescriptor(Int32)
    /// Anything else FFmpeg opens itself: a network URL, a device or a filter graph.
    case other

    /// Classifies `url` as FFmpeg's `url_find_protocol` does: a name of letters, digits, `+`,
    /// `-` and `.` followed by `:` is a protocol; otherwise it is a file path. Demuxers that
    /// open their input themselves (`AVFMT_NOFILE`: devices, lavfi) take the URL as it is,
    /// except that an absolute path (a device) is still checked for existence.
    init(url: String, format: UnsafePointer<AVInputFormat>?) {
        if let format, format.pointee.flags & AVFMT_NOFILE != 0 {
            self = url.hasPrefix("/") ? .path(url) : .other
            return
        }
        let schemeCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")
        let scheme = url.prefix { schemeCharacters.contains($0) }
        guard !scheme.isEmpty, url.dropFirst(scheme.count).first == ":" else {
            self = .path(url)
            return
        }
        let rest = String(url.dropFirst(scheme.count + 1))
        switch scheme {
        case "file":
            self = .path(rest)
        case "pipe":
            if rest.isEmpty || rest == "-" {
                self = .fileDescriptor(0)
            } else if let descriptor = Int32(rest), descriptor >= 0 {
                self = .fileDescriptor(descriptor)
            } else {
                self = .other
            }
        default:
            self = .other
        }
    }

    /// Checks the location and, for a FIFO, character device or `pipe:N`,
    /// opens the custom input that reads it within the deadline.
    ///
    /// - Parameters:
    ///   - url: The URL as the caller gave it, the subject of errors.
    ///   - opensItself: Whether the demuxer opens its input (`AVFMT_NOFILE`), in which case
    ///     only existence is checked.
    ///   - deadline: The budget of each read of the custom input.
    /// - Returns: The custom input, or nil when FFmpeg opens the source itself.
    /// - Throws: `TasksError` with `url` as its subject: `notFoundError` for a missing path
    ///   ("Video source not found (<strerror text>)."), `invalidArgumentError` for a
    ///   directory or a bad descriptor, `permissionDeniedError` when a FIFO cannot be opened
    ///   for reading, and as `FileDescriptorInput.init`.
    func openCustomInput(url: String, opensItself: Bool, deadline: InterruptDeadline) throws(TasksError) -> FileDescriptorInput? {
        switch self {
        case .other:
            return nil
        case .fileDescriptor(let descriptor):
            // A private duplicate, so that closing ours leaves the caller's open.
            let duplicate: FileDescriptor
            do throws(Errno) {
                duplicate = try FileDescriptor.duplicate(descriptor)
            } catch {
                throw TasksError.invalidArgument(
                    "Failed to open video source: file descriptor \(descriptor) is not open (\(error)).",
                    subject: .videoSource(url))
            }
            return try FileDescriptorInput(file: duplicate, deadline: deadline, source: url)
        case .path(let path):
            let info: FileStatus
            do throws(Errno) {
                info = try FileStatus(of: FileSystemPath(path))
            } catch {
                if error.meansNotFound {
                    throw TasksError.notFound("Video source not found (\(error)).", subject: .videoSource(url))
                }
                throw TasksError(
                    error.code == EACCES ? .permissionDeniedError : .invalidArgumentError,
                    "Failed to open video source: \(error).", subject: .videoSource(url))
            }
            guard info.type != .directory else {
                throw TasksError.invalidArgument(
                    "Failed to open video source: the path is a directory, not a video file or device.",
                    subject: .videoSource(url))
            }
            guard !opensItself, info.type == .fifo || info.type == .characterDevice else {
                return nil  // a regular file (FFmpeg's file protocol) or a device its demuxer opens
            }
            // O_NONBLOCK: opening a FIFO for reading must not wait for a writer; reads then
            // wait in poll(), within the deadline.
            let file: FileDescriptor
            do throws(Errno) {
                file = try FileDescriptor.open(FileSystemPath(path), O_RDONLY | O_NONBLOCK)
            } catch {
                throw TasksError(
                    error.code == EACCES ? .permissionDeniedError : .invalidArgumentError,
                    "Failed to open video source: \(error).", subject: .videoSource(url))
            }
            return try FileDescriptorInput(file: file, deadline: deadline, source: url)
        }
    }
}
