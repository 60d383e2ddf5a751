// Foundation, as `import MediaPipeTasksVision` brings it on iOS: the guides' code uses its types (NSNumber,
// URL, Data) under this one import.
@_exported import Foundation
// What `import VisionTasks` brings besides this module: the error type shared by all tasks,
// the result types the pipeline makes, and the image value types users name (MediaPipe iOS
// gets these from UIKit/CoreVideo).
@_exported import TasksCommon

@_exported import enum Imaging.ImageOrientation
@_exported import enum Imaging.PixelFormat
@_exported import struct Imaging.PixelPlane
@_exported import enum Imaging.YUVColorMatrix
@_exported import enum Imaging.YUVColorRange
@_exported import struct TaskRuntime.Classifications
@_exported import struct TaskRuntime.Embedding
@_exported import struct TaskRuntime.ResultCategory

// Apple's image types, where they do not exist: unavailable, with a message naming the Linux way.
#if !canImport(UIKit)
    @_exported import struct Imaging.UIImage
#endif
#if !canImport(CoreVideo)
    @_exported import struct Imaging.CVPixelBuffer
#endif
#if !canImport(CoreMedia)
    @_exported import struct Imaging.CMSampleBuffer
#endif
