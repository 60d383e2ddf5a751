// Foundation, as `import MLKit` brings it on iOS: the guides' code uses its types (NSNumber,
// URL, Data) under this one import.
@_exported import Foundation

// What `import ImageLabeling` brings besides this module: the error type and the image value
// types users name (ML Kit gets these from UIKit/CoreMedia).
@_exported import TasksCommon

@_exported import enum Imaging.ImageOrientation
@_exported import enum Imaging.PixelFormat

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
