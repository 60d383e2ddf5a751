// Names of Apple's image types, declared only where the real ones do not exist, so that code
// ported from iOS gets a message saying what to use on Linux instead of "cannot find type".
// None can be created (a private initializer, every other one unavailable), so none can be held
// or passed. (Structs rather than empty enums, which would add a warning about an enum without
// cases to the helpful error.) Apple platforms keep theirs.

import Foundation

#if !canImport(UIKit)
    /// Not available on Linux: UIKit's image. Images come from files, encoded data or raw pixels
    /// (`MPImage(contentsOf:)`, `MPImage(data:)`, `VisionImage(contentsOf:)`, `VisionImage(data:)`).
    @available(
        *, unavailable,
        message:
            "UIKit does not exist on Linux: load images with MPImage(contentsOf:) or VisionImage(contentsOf:) (a file), or MPImage(data:) or VisionImage(data:) (encoded JPEG, PNG or WebP bytes)"
    )
    public struct UIImage {
        private init() {}

        /// Not available on Linux: there are no asset catalogs; images are read from files.
        @available(
            *, unavailable,
            message:
                "UIImage does not exist on Linux: read the image file with MPImage(contentsOfFile:) or VisionImage(contentsOfFile:)"
        )
        public init?(named name: String) { nil }

        /// Not available on Linux: images are read from files with the task's own image type.
        @available(
            *, unavailable,
            message: "UIImage does not exist on Linux: use MPImage(contentsOfFile:) or VisionImage(contentsOfFile:)"
        )
        public init?(contentsOfFile path: String) { nil }

        /// Not available on Linux: encoded images are decoded by the task's own image type.
        @available(
            *, unavailable, message: "UIImage does not exist on Linux: use MPImage(data:) or VisionImage(data:)"
        )
        public init?(data: Data) { nil }
    }
#endif

#if !canImport(CoreVideo)
    /// Not available on Linux: CoreVideo's pixel buffer. Raw pixels are passed as `Data` or planes
    /// (`MPImage(pixels:width:height:bytesPerRow:format:orientation:)`,
    /// `MPImage(planes:width:height:format:orientation:)`).
    @available(
        *, unavailable,
        message:
            "CoreVideo does not exist on Linux: pass raw pixels to MPImage(pixels:width:height:bytesPerRow:format:orientation:) or MPImage(planes:width:height:format:orientation:)"
    )
    public struct CVPixelBuffer {
        private init() {}
    }
#endif

#if !canImport(CoreMedia)
    /// Not available on Linux: CoreMedia's sample buffer. Camera and video frames come from
    /// VideoInput's `VideoSource`, or as raw pixels.
    @available(
        *, unavailable,
        message:
            "CoreMedia does not exist on Linux: read camera or video frames with VideoInput's VideoSource (each VideoFrame has an MPImage), or pass raw pixels to MPImage(pixels:width:height:bytesPerRow:format:orientation:) or VisionImage(pixels:width:height:bytesPerRow:format:)"
    )
    public struct CMSampleBuffer {
        private init() {}
    }
#endif
