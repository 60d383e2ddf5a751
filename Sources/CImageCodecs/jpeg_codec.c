// JPEG decoding through libjpeg(-turbo). libjpeg reports fatal errors by calling
// `error_exit`, which must not return: we longjmp back to the entry point, so the
// whole decoder lifetime sits inside one setjmp scope per function.
#include "image_codecs.h"

#include <setjmp.h>
#include <stdio.h>
#include <string.h>

#include <jerror.h>
#include <jpeglib.h>

#include "message.h"

typedef struct {
  struct jpeg_error_mgr base;  // must be first: libjpeg sees only this part
  jmp_buf jump;
  char *message;
  size_t message_capacity;
  int saw_end_of_data;  // libjpeg ran out of input and inserted a fake EOI marker
} jpeg_error_context;

// Records libjpeg's message; after the input ran out, names that as the cause.
static void record_message(j_common_ptr cinfo) {
  jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
  char text[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, text);
  if (context->saw_end_of_data && cinfo->err->msg_code != JWRN_JPEG_EOF) {
    cic_set_message(context->message, context->message_capacity,
                    "Premature end of JPEG file (then: %s)", text);
  } else {
    cic_set_message(context->message, context->message_capacity, "%s", text);
  }
}

static void on_error_exit(j_common_ptr cinfo) {
  record_message(cinfo);
  longjmp(((jpeg_error_context *)cinfo->err)->jump, 1);
}

// Warnings (level -1) are ignored, except a premature end of data that lost pixels:
// libjpeg warns JWRN_JPEG_EOF when the input runs out (it then inserts a fake EOI), and
// JWRN_HIT_MARKER when the entropy decoder needed bits that were not there (it then pads
// with zeros, which would hide a truncated file). Running out only while looking for the
// next marker (a file without its final EOI) loses nothing and is accepted.
static void on_emit_message(j_common_ptr cinfo, int level) {
  jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
  if (level >= 0) return;
  cinfo->err->num_warnings++;
  if (cinfo->err->msg_code == JWRN_JPEG_EOF) {
    context->saw_end_of_data = 1;
  } else if (cinfo->err->msg_code == JWRN_HIT_MARKER && context->saw_end_of_data) {
    cinfo->err->msg_code = JWRN_JPEG_EOF;  // report it as "Premature end of JPEG file"
    on_error_exit(cinfo);
  }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void install_error_handler(struct jpeg_decompress_struct *cinfo, jpeg_error_context *context,
                                  char *message, size_t message_capacity) {
  cinfo->err = jpeg_std_error(&context->base);
  context->base.error_exit = on_error_exit;
  context->base.emit_message = on_emit_message;
  context->base.output_message = on_output_message;
  context->message = message;
  context->message_capacity = message_capacity;
  context->saw_end_of_data = 0;
}

// Reads the header and picks the output colour space. Must run inside the setjmp scope.
static void read_header(struct jpeg_decompress_struct *cinfo, const uint8_t *data, size_t size,
                        cic_image_info *info) {
  jpeg_mem_src(cinfo, data, (unsigned long)size);
  (void)jpeg_read_header(cinfo, TRUE);
  switch (cinfo->jpeg_color_space) {
    case JCS_GRAYSCALE:
      cinfo->out_color_space = JCS_GRAYSCALE;
      info->channels = 1;
      break;
    case JCS_CMYK:
    case JCS_YCCK:
      cinfo->out_color_space = JCS_CMYK;  // libjpeg converts YCCK to CMYK
      info->channels = 4;
      break;
    default:
      cinfo->out_color_space = JCS_RGB;
      info->channels = 3;
      break;
  }
  info->width = cinfo->image_width;
  info->height = cinfo->image_height;
  info->inverted_cmyk = (info->channels == 4 && cinfo->saw_Adobe_marker) ? 1 : 0;
}

int cic_jpeg_read_info(const uint8_t *data, size_t size, cic_image_info *info,
                       char *message, size_t message_capacity) {
  struct jpeg_decompress_struct cinfo;
  jpeg_error_context context;
  memset(info, 0, sizeof(*info));
  install_error_handler(&cinfo, &context, message, message_capacity);
  jpeg_create_decompress(&cinfo);
  if (setjmp(context.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return -1;
  }
  read_header(&cinfo, data, size, info);
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

int cic_jpeg_decode(const uint8_t *data, size_t size, const cic_image_info *expected,
                    uint8_t *pixels, size_t pixels_size, size_t bytes_per_row,
                    char *message, size_t message_capacity) {
  struct jpeg_decompress_struct cinfo;
  jpeg_error_context context;
  cic_image_info info;
  memset(&info, 0, sizeof(info));
  install_error_handler(&cinfo, &context, message, message_capacity);
  jpeg_create_decompress(&cinfo);
  if (setjmp(context.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return -1;
  }
  read_header(&cinfo, data, size, &info);
  if (info.width != expected->width || info.height != expected->height ||
      info.channels != expected->channels) {
    cic_set_message(message, message_capacity, "the header changed between reads");
    jpeg_destroy_decompress(&cinfo);
    return -1;
  }
  if (info.height == 0 || bytes_per_row < (size_t)info.width * info.channels ||
      pixels_size < bytes_per_row * (info.height - 1) + (size_t)info.width * info.channels) {
    cic_set_message(message, message_capacity, "the output buffer is too small");
    jpeg_destroy_decompress(&cinfo);
    return -1;
  }
  (void)jpeg_start_decompress(&cinfo);
  if (cinfo.output_width != info.width || cinfo.output_height != info.height ||
      (uint32_t)cinfo.output_components != info.channels) {
    cic_set_message(message, message_capacity, "unexpected output geometry %ux%ux%d",
                    cinfo.output_width, cinfo.output_height, cinfo.output_components);
    jpeg_destroy_decompress(&cinfo);
    return -1;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = pixels + (size_t)cinfo.output_scanline * bytes_per_row;
    (void)jpeg_read_scanlines(&cinfo, &row, 1);
  }
  // No jpeg_finish_decompress: every pixel has been read, and a file that only lacks
  // its EOI marker is still complete.
  jpeg_destroy_decompress(&cinfo);
  return 0;
}
