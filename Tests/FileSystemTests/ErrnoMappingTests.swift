import FileSystem
import Glibc
import TasksCommon
import Testing

/// The one errno-to-error mapper: each errno maps to one code and words, naming the path.
@Suite struct ErrnoMappingTests {
    @Test(
        "reading: system errors map to one code each, naming the path",
        arguments: [
            (ENOENT, TasksErrorCode.notFoundError, "/x.jpg: The image file was not found"),
            (ENOTDIR, .notFoundError, "/x.jpg: The image file was not found"),
            (EACCES, .permissionDeniedError, "/x.jpg: Permission denied: the image file may not be read"),
            (EPERM, .permissionDeniedError, "/x.jpg: Permission denied: the image file may not be read"),
            (
                ELOOP, .invalidArgumentError,
                "/x.jpg: Failed to read the image file: the path has too many symbolic links (a loop?)."
            ),
            (
                ENAMETOOLONG, .invalidArgumentError,
                "/x.jpg: Failed to read the image file: a name in the path is longer than 255 bytes, or the whole path longer than 4,095."
            ),
            (EIO, .invalidArgumentError, "/x.jpg: Failed to read the image file: Input/output error (errno 5)"),
        ])
    func reading(code: Int32, expected: TasksErrorCode, message: String) {
        let error = Errno(code).tasksError(path: FileSystemPath("/x.jpg"), kind: .image)
        #expect(error.code == expected)
        #expect(error.message.hasPrefix(message), "\(error.message)")
    }

    @Test(
        "creating and writing: the folder, the permission, the disk",
        arguments: [
            (
                ENOENT, FileOperation.create, TasksErrorCode.notFoundError,
                "/o/m.tflite: The model file cannot be created: its folder does not exist."
            ),
            (EROFS, .create, .permissionDeniedError, "/o/m.tflite: The model file cannot be created: permission denied."),
            (EACCES, .create, .permissionDeniedError, "/o/m.tflite: The model file cannot be created: permission denied."),
            (
                EISDIR, .create, .invalidArgumentError,
                "/o/m.tflite: The model file cannot be created: this is a folder; give the path of a file."
            ),
            (
                ENAMETOOLONG, .create, .invalidArgumentError,
                "/o/m.tflite: The model file cannot be created: a name in the path is longer than 255 bytes, or the whole path longer than 4,095."
            ),
            (
                ENOSPC, .write, .unavailableError,
                "/o/m.tflite: The model file could not be written: No space left on device (errno 28)."
            ),
        ])
    func writing(code: Int32, operation: FileOperation, expected: TasksErrorCode, message: String) {
        let error = Errno(code).tasksError(path: FileSystemPath("/o/m.tflite"), kind: .model, operation)
        #expect(error.code == expected)
        #expect(error.message == message)
    }

    @Test func aModelThatIsNotThereHasMediaPipesWords() {
        let error = Errno(ENOENT).tasksError(path: FileSystemPath("/m.tflite"), kind: .model)
        #expect(error.message == "Unable to open file at /m.tflite: the model file was not found (no such file or folder).")
        #expect(error.condition == .modelFileNotFound)
    }
}
