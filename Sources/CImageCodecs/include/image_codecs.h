// C shims for the image codecs that need `setjmp`/`longjmp` error handling or the
// libjpeg/libpng decoder structs, which Swift cannot use directly. Everything else
// (format sniffing, limits, EXIF, WebP, pixel conversion) lives in the Swift target
// `Imaging`. libwebp needs neither, so its declarations (the decoder's, and the encoder's
// for the report's thumbnails) are re-exported as they are.
#ifndef CIMAGECODECS_IMAGE_CODECS_H
#define CIMAGECODECS_IMAGE_CODECS_H

#include <stddef.h>
#include <stdint.h>
#include <webp/decode.h>
#include <webp/encode.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The size of the message buffers the functions below fill on failure.
#define CIC_MESSAGE_CAPACITY 256

/// What the functions below return: 0 on success, else one of these (with a message).
#define CIC_FAILED -1
/// The decoder needed more memory than it may use (JPEG: `max_memory`).
#define CIC_OUT_OF_MEMORY -2

/// The largest PNG width and height accepted (libpng's default user limit, set explicitly
/// with `png_set_user_limits` so every libpng build agrees). libpng keeps two rows of the
/// file's own layout (up to 8 bytes per pixel), so this bounds its row buffers to 16 MB.
#define CIC_PNG_MAX_SIDE 1000000

/// What a header says about the pixels a decode call will produce.
typedef struct cic_image_info {
  /// Width and height in pixels, as stored in the file (no EXIF rotation).
  uint32_t width;
  uint32_t height;
  /// Bytes per output pixel: 1 = gray, 3 = RGB, 4 = RGBA (PNG) or CMYK (JPEG).
  uint32_t channels;
  /// JPEG only: 1 when the output is CMYK with Adobe's inverted convention
  /// (0 = full ink), which is what Adobe-marked CMYK/YCCK files store.
  uint32_t inverted_cmyk;
  /// JPEG only: 1 when the image has several scans (progressive, or one scan per
  /// component), which libjpeg buffers as DCT coefficients for the whole image.
  uint32_t multiple_scans;
} cic_image_info;

/// Reads a JPEG header (markers up to the first scan) into `info`.
/// Returns 0, or -1 with libjpeg's message in `message` (NUL-terminated).
/// Grayscale reports 1 channel, CMYK/YCCK 4 (CMYK), anything else 3 (RGB).
int cic_jpeg_read_info(const uint8_t *data, size_t size, cic_image_info *info,
                       char *message, size_t message_capacity);

/// The size of a JPEG decoded at 1/`scale_denominator` (1, 2, 4 or 8) as libjpeg computes it
/// (`jpeg_calc_output_dimensions`: each side divided and rounded up). Returns 0, or
/// `CIC_FAILED` with libjpeg's message for a bad header.
int cic_jpeg_scaled_size(const uint8_t *data, size_t size, unsigned scale_denominator, uint32_t *width,
                         uint32_t *height, char *message, size_t message_capacity);

/// Decodes a JPEG at 1/`scale_denominator` (1, 2, 4 or 8) of its size, with libjpeg-turbo's
/// scaled inverse DCTs, into `pixels` (`cic_jpeg_scaled_size`'s rows of `bytes_per_row` bytes) using
/// libjpeg-turbo's default (accurate integer DCT, fancy upsampling). `expected`
/// must be what `cic_jpeg_read_info` returned for the same bytes; the call fails if
/// the header disagrees or `pixels_size` is too small. Warnings that mean lost or
/// corrupt pixels are errors (the policy is documented in jpeg_codec.c).
/// libjpeg's own allocations (whole-image coefficient buffers of multi-scan images)
/// are limited to `max_memory` bytes (`max_memory_to_use`; 0 = unlimited). Returns 0,
/// `CIC_OUT_OF_MEMORY` when that limit (or malloc) failed, or `CIC_FAILED`, with a message.
int cic_jpeg_decode_scaled(const uint8_t *data, size_t size, const cic_image_info *expected,
                           unsigned scale_denominator, uint8_t *pixels, size_t pixels_size,
                           size_t bytes_per_row, size_t max_memory, char *message,
                           size_t message_capacity);

/// Reads a PNG header (chunks up to the first IDAT) into `info`, with the output
/// the decoder produces: palettes expanded to RGB, tRNS to alpha, gray below 8 bits
/// expanded, 16-bit samples cut to their high byte (`png_set_strip_16`), gray+alpha to
/// RGBA. `channels` is 1 (gray), 3 (RGB) or 4 (RGBA). Sides above `CIC_PNG_MAX_SIDE`
/// are refused. Returns 0 or `CIC_FAILED` with libpng's message (and its first warning).
int cic_png_read_info(const uint8_t *data, size_t size, cic_image_info *info,
                      char *message, size_t message_capacity);

/// Decodes a PNG (interlaced or not) into `pixels` with the transformations of
/// `cic_png_read_info`; `expected` must be what that call returned. Gamma and colour
/// profiles are not applied. Returns 0 or `CIC_FAILED` with libpng's message.
int cic_png_decode(const uint8_t *data, size_t size, const cic_image_info *expected,
                   uint8_t *pixels, size_t pixels_size, size_t bytes_per_row,
                   char *message, size_t message_capacity);

#ifdef __cplusplus
}
#endif

#endif  // CIMAGECODECS_IMAGE_CODECS_H
