/// An image file's pixels as stored, with the orientation its EXIF metadata asks for.
package struct DecodedImage: Sendable {
    /// The stored pixels: `.gray8`, `.rgb8` or `.rgba8`.
    package let pixels: PixelImage
    /// The EXIF `Orientation` tag of the file, or `.up` when it has none (or an invalid one).
    /// The pixels are not rotated; pass this to the preprocessing.
    package let exifOrientation: ImageOrientation

    /// Creates a decoded image.
    package init(pixels: PixelImage, exifOrientation: ImageOrientation) {
        self.pixels = pixels
        self.exifOrientation = exifOrientation
    }
}
