import CFFmpeg
import FileSystem
import TasksCommon

/// A custom `AVIOContext` reading a pipe, FIFO, socket or character device through
/// `svt_fd_read_packet`, so that a writer that never comes or stalls cannot block a read
/// past the deadline (FFmpeg's `file` and `pipe` protocols block in `open` and `read`).
///
/// Owns the file descriptor, the reader state and the `AVIOContext` with its buffer, and
/// frees them in `deinit`; keeps the deadline the reader points to alive. The format context
/// using it (`AVFMT_FLAG_CUSTOM_IO`) must be closed first: `FormatContext` holds a strong
/// reference to this object for that reason. Not seekable.
final class FileDescriptorInput {
    /// The I/O context to put in `AVFormatContext.pb`; +1, owned by this object.
    let context: UnsafeMutablePointer<AVIOContext>
    /// The state `svt_fd_read_packet` reads; owned by this object.
    private let reader: UnsafeMutablePointer<SVTFdReader>
    /// The budget of each read, which `reader` points to.
    private let deadline: InterruptDeadline
    /// The descriptor `reader` reads; closed when this is freed, after the context.
    private let file: FileDescriptor

    /// The size of the read buffer in bytes, FFmpeg's default for its own I/O.
    private static let bufferSize: Int32 = 32_768

    /// Wraps `file`, taking ownership of it: it is closed in `deinit`, or at once
    /// when this initializer throws.
    ///
    /// - Parameters:
    ///   - file: An open, readable descriptor, owned from now on.
    ///   - deadline: The budget of each read.
    ///   - source: The URL or path, the subject of errors.
    /// - Throws: `TasksError` `resourceExhaustedError` when the buffer or the context cannot
    ///   be allocated (`av_malloc`, `avio_alloc_context`).
    init(file: FileDescriptor, deadline: InterruptDeadline, source: String) throws(TasksError) {
        guard let buffer = av_malloc(Int(Self.bufferSize)) else {
            throw TasksError(
                .resourceExhaustedError, "Failed to open video source: cannot allocate the read buffer (av_malloc).",
                subject: .videoSource(source))
        }
        let reader = UnsafeMutablePointer<SVTFdReader>.allocate(capacity: 1)
        reader.initialize(to: SVTFdReader(fd: file.rawValue, deadline: deadline.pointer))
        // +1: the context owns neither the buffer (freed below via context.buffer) nor the reader.
        guard
            let context = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Self.bufferSize, 0, reader,
                svt_fd_read_packet, nil, nil)
        else {
            av_free(buffer)
            reader.deallocate()
            throw TasksError(
                .resourceExhaustedError, "Failed to open video source: cannot allocate the I/O context (avio_alloc_context).",
                subject: .videoSource(source))
        }
        self.context = context
        self.reader = reader
        self.deadline = deadline
        self.file = file
    }

    deinit {
        // FFmpeg may have replaced the buffer it was given: free the current one.
        av_freep(&context.pointee.buffer)
        var context: UnsafeMutablePointer<AVIOContext>? = self.context
        avio_context_free(&context)
        reader.deinitialize(count: 1)
        reader.deallocate()
    }
}
