// What `import ImageLabeling` brings besides this module: the error type and the image value
// types users name (ML Kit gets these from UIKit/CoreMedia).
@_exported import TasksCommon

@_exported import enum Imaging.ImageOrientation
@_exported import enum Imaging.PixelFormat
