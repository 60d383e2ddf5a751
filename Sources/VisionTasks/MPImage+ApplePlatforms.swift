// MediaPipe iOS's initializers from Apple image types, declared unavailable where those types do
// not exist, so that ported code is told which initializer to use instead of "no exact matches".

#if !canImport(UIKit)
    extension MPImage {
        /// Not available on Linux (no `UIImage`). Mirrors MediaPipe iOS `MPImage(uiImage:)`.
        @available(
            *, unavailable,
            message:
                "UIImage does not exist on Linux: use MPImage(contentsOf:orientation:decoding:) for a file or MPImage(data:orientation:decoding:) for encoded bytes"
        )
        public init(uiImage: UIImage) throws { fatalError("unavailable") }

        /// Not available on Linux (no `UIImage`). Mirrors MediaPipe iOS `MPImage(uiImage:orientation:)`.
        @available(
            *, unavailable,
            message:
                "UIImage does not exist on Linux: use MPImage(contentsOf:orientation:decoding:) for a file or MPImage(data:orientation:decoding:) for encoded bytes"
        )
        public init(uiImage: UIImage, orientation: ImageOrientation) throws { fatalError("unavailable") }
    }
#endif

#if !canImport(CoreVideo)
    extension MPImage {
        /// Not available on Linux (no `CVPixelBuffer`). Mirrors MediaPipe iOS `MPImage(pixelBuffer:)`.
        @available(
            *, unavailable,
            message:
                "CVPixelBuffer does not exist on Linux: use MPImage(pixels:width:height:bytesPerRow:format:orientation:) (format .bgra8 for kCVPixelFormatType_32BGRA) or MPImage(planes:width:height:format:orientation:) for planar YUV"
        )
        public init(pixelBuffer: CVPixelBuffer) throws { fatalError("unavailable") }

        /// Not available on Linux (no `CVPixelBuffer`). Mirrors MediaPipe iOS
        /// `MPImage(pixelBuffer:orientation:)`.
        @available(
            *, unavailable,
            message:
                "CVPixelBuffer does not exist on Linux: use MPImage(pixels:width:height:bytesPerRow:format:orientation:) (format .bgra8 for kCVPixelFormatType_32BGRA) or MPImage(planes:width:height:format:orientation:) for planar YUV"
        )
        public init(pixelBuffer: CVPixelBuffer, orientation: ImageOrientation) throws { fatalError("unavailable") }
    }
#endif

#if !canImport(CoreMedia)
    extension MPImage {
        /// Not available on Linux (no `CMSampleBuffer`). Mirrors MediaPipe iOS `MPImage(sampleBuffer:)`.
        @available(
            *, unavailable,
            message:
                "CMSampleBuffer does not exist on Linux: read camera or video frames with VideoInput's VideoSource (VideoFrame.image is an MPImage), or use MPImage(pixels:width:height:bytesPerRow:format:orientation:)"
        )
        public init(sampleBuffer: CMSampleBuffer) throws { fatalError("unavailable") }

        /// Not available on Linux (no `CMSampleBuffer`). Mirrors MediaPipe iOS
        /// `MPImage(sampleBuffer:orientation:)`.
        @available(
            *, unavailable,
            message:
                "CMSampleBuffer does not exist on Linux: read camera or video frames with VideoInput's VideoSource (VideoFrame.image is an MPImage), or use MPImage(pixels:width:height:bytesPerRow:format:orientation:)"
        )
        public init(sampleBuffer: CMSampleBuffer, orientation: ImageOrientation) throws { fatalError("unavailable") }
    }
#endif
