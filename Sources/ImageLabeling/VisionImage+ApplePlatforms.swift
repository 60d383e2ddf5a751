// ML Kit's initializers from Apple image types, declared unavailable where those types do not
// exist, so that ported code is told which initializer to use instead of "no exact matches".

#if !canImport(UIKit)
    extension VisionImage {
        /// Not available on Linux (no `UIImage`). Mirrors ML Kit's `VisionImage(image:)`.
        @available(
            *, unavailable,
            message:
                "UIImage does not exist on Linux: use VisionImage(contentsOf:) or VisionImage(contentsOfFile:) for a file, or VisionImage(data:) for encoded bytes"
        )
        public convenience init(image: UIImage) { fatalError("unavailable") }
    }
#endif

#if !canImport(CoreMedia)
    extension VisionImage {
        /// Not available on Linux (no `CMSampleBuffer`). Mirrors ML Kit's `VisionImage(buffer:)`.
        @available(
            *, unavailable,
            message:
                "CMSampleBuffer does not exist on Linux: use VisionImage(pixels:width:height:bytesPerRow:format:) (format .bgra8 for kCVPixelFormatType_32BGRA frames)"
        )
        public convenience init(buffer: CMSampleBuffer) { fatalError("unavailable") }
    }
#endif
