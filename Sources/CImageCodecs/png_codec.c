// PNG decoding through libpng's normal (non-simplified) API. libpng reports errors by
// calling the error callback, which must not return: it longjmps to the setjmp in
// `png_jmpbuf`, so each entry point keeps the decoder inside one setjmp scope.
#include "image_codecs.h"

#include <png.h>
#include <setjmp.h>
#include <string.h>

#include "message.h"

typedef struct {
  const uint8_t *data;
  size_t size;
  size_t offset;
  char *message;
  size_t message_capacity;
  char first_warning[CIC_MESSAGE_CAPACITY];  // explains some errors ("Invalid IHDR data")
} png_source;

static void on_error(png_structp png, png_const_charp text) {
  png_source *source = (png_source *)png_get_error_ptr(png);
  if (source->first_warning[0] != '\0') {
    cic_set_message(source->message, source->message_capacity, "%s (libpng warned: %s)", text,
                    source->first_warning);
  } else {
    cic_set_message(source->message, source->message_capacity, "%s", text);
  }
  png_longjmp(png, 1);
}

// Warnings do not stop decoding; the first is kept to explain a later error.
static void on_warning(png_structp png, png_const_charp text) {
  png_source *source = (png_source *)png_get_error_ptr(png);
  if (source->first_warning[0] == '\0') {
    cic_set_message(source->first_warning, sizeof(source->first_warning), "%s", text);
  }
}

static void on_read(png_structp png, png_bytep out, size_t length) {
  png_source *source = (png_source *)png_get_io_ptr(png);
  if (length > source->size - source->offset) {
    png_error(png, "unexpected end of data");
  }
  memcpy(out, source->data + source->offset, length);
  source->offset += length;
}

// Reads the chunks before the first IDAT and configures the 8-bit gray/RGB/RGBA
// output. Must run inside the setjmp scope.
static void read_header(png_structp png, png_infop info_ptr, cic_image_info *info) {
  png_set_user_limits(png, CIC_PNG_MAX_SIDE, CIC_PNG_MAX_SIDE);
  png_read_info(png, info_ptr);
  const int color_type = png_get_color_type(png, info_ptr);
  const int bit_depth = png_get_bit_depth(png, info_ptr);
  const int has_trns = png_get_valid(png, info_ptr, PNG_INFO_tRNS) != 0;
  if (color_type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color_type == PNG_COLOR_TYPE_GRAY && bit_depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (has_trns) png_set_tRNS_to_alpha(png);
  // The high byte of each 16-bit sample, as stb_image (MediaPipe's loader) and Pillow keep it.
  if (bit_depth == 16) png_set_strip_16(png);
  if (color_type == PNG_COLOR_TYPE_GRAY_ALPHA || (color_type == PNG_COLOR_TYPE_GRAY && has_trns)) {
    png_set_gray_to_rgb(png);
  }
  (void)png_set_interlace_handling(png);
  png_read_update_info(png, info_ptr);
  info->width = png_get_image_width(png, info_ptr);
  info->height = png_get_image_height(png, info_ptr);
  info->channels = png_get_channels(png, info_ptr);
  info->inverted_cmyk = 0;
  if (png_get_bit_depth(png, info_ptr) != 8 || (info->channels != 1 && info->channels != 3 && info->channels != 4)) {
    png_error(png, "unsupported pixel layout after conversion");
  }
}

// Creates libpng's read and info structs reporting to `source`; on failure frees what was
// made, sets the message and returns 0.
static int create_decoder(png_source *source, png_structp *png, png_infop *info_ptr) {
  *png = png_create_read_struct(PNG_LIBPNG_VER_STRING, source, on_error, on_warning);
  *info_ptr = *png == NULL ? NULL : png_create_info_struct(*png);
  if (*info_ptr == NULL) {
    png_destroy_read_struct(png, NULL, NULL);
    cic_set_message(source->message, source->message_capacity, "cannot create the PNG decoder");
    return 0;
  }
  return 1;
}

int cic_png_read_info(const uint8_t *data, size_t size, cic_image_info *info,
                      char *message, size_t message_capacity) {
  png_source source = {data, size, 0, message, message_capacity, {0}};
  memset(info, 0, sizeof(*info));
  png_structp png;
  png_infop info_ptr;
  if (!create_decoder(&source, &png, &info_ptr)) {
    return CIC_FAILED;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_read_struct(&png, &info_ptr, NULL);
    return CIC_FAILED;
  }
  png_set_read_fn(png, &source, on_read);
  read_header(png, info_ptr, info);
  png_destroy_read_struct(&png, &info_ptr, NULL);
  return 0;
}

int cic_png_decode(const uint8_t *data, size_t size, const cic_image_info *expected,
                   uint8_t *pixels, size_t pixels_size, size_t bytes_per_row,
                   char *message, size_t message_capacity) {
  png_source source = {data, size, 0, message, message_capacity, {0}};
  cic_image_info info;
  memset(&info, 0, sizeof(info));
  png_structp png;
  png_infop info_ptr;
  if (!create_decoder(&source, &png, &info_ptr)) {
    return CIC_FAILED;
  }
  // Allocated inside the setjmp scope, freed on both paths: volatile so the value
  // survives the longjmp.
  png_bytep *volatile rows = NULL;
  if (setjmp(png_jmpbuf(png))) {
    png_free(png, rows);
    png_destroy_read_struct(&png, &info_ptr, NULL);
    return CIC_FAILED;
  }
  png_set_read_fn(png, &source, on_read);
  read_header(png, info_ptr, &info);
  if (info.width != expected->width || info.height != expected->height ||
      info.channels != expected->channels) {
    png_error(png, "the header changed between reads");
  }
  const size_t row_size = (size_t)info.width * info.channels;
  if (bytes_per_row < row_size || png_get_rowbytes(png, info_ptr) != row_size ||
      pixels_size < bytes_per_row * (info.height - 1) + row_size) {
    png_error(png, "the output buffer is too small");
  }
  rows = (png_bytep *)png_malloc(png, sizeof(png_bytep) * info.height);
  for (uint32_t y = 0; y < info.height; y++) {
    rows[y] = pixels + (size_t)y * bytes_per_row;
  }
  png_read_image(png, rows);
  // The chunks after the image data (and IEND) are not read: the pixels are complete.
  png_free(png, rows);
  png_destroy_read_struct(&png, &info_ptr, NULL);
  return 0;
}
