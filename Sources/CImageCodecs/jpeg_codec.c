// JPEG decoding through libjpeg(-turbo). libjpeg reports fatal errors by calling
// `error_exit`, which must not return: we longjmp back to the entry point, so the
// whole decoder lifetime sits inside one setjmp scope per function.
#include "image_codecs.h"

#include <limits.h>
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

// jpeglib.h first: it brings jconfig.h, whose settings decide which codes jerror.h defines.
#include <jpeglib.h>
#include <jerror.h>

#include "message.h"

typedef struct {
  struct jpeg_error_mgr base;  // must be first: libjpeg sees only this part
  jmp_buf jump;
  char *message;
  size_t message_capacity;
  int multiple_scans;    // set after the header: the image is buffered (progressive or multi-scan)
  int saw_end_of_data;   // libjpeg ran out of input and inserted a fake EOI marker
  int out_of_memory;     // the fatal error was a failed allocation or the memory limit
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
  jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
  // Without a backing store (libjpeg-turbo has none), a virtual array larger than
  // max_memory_to_use fails with "Backing store not supported".
  context->out_of_memory = cinfo->err->msg_code == JERR_OUT_OF_MEMORY ||
                           cinfo->err->msg_code == JERR_NO_BACKING_STORE;
  record_message(cinfo);
  longjmp(context->jump, 1);
}

// The warning policy, in one place. libjpeg reports damage it can work around as
// warnings (level -1) and carries on; these are errors here, because the pixels would be
// wrong without anything saying so:
// - JWRN_HIT_MARKER "Corrupt JPEG data: premature end of data segment": the entropy
//   decoder needed bits that are not there (a cut file, or data cut and followed by a
//   marker) and pads with zeros, which shows as gray or smeared blocks.
// - JWRN_HUFF_BAD_CODE, JWRN_ARITH_BAD_CODE "Corrupt JPEG data: bad Huffman/arithmetic
//   code": the coefficients from there on are discarded.
// - JWRN_MUST_RESYNC "Corrupt JPEG data: found marker ... instead of RSTn": restart
//   intervals are lost or misplaced.
// - JWRN_JPEG_EOF "Premature end of JPEG file" (libjpeg then inserts a fake EOI) in a
//   multi-scan image: scans may be missing, and libjpeg would show the earlier, coarser
//   scans as the picture. A single-scan (baseline) image that only lacks its final EOI
//   marker has every pixel: it runs out while looking for the marker after the last MCU,
//   without JWRN_HIT_MARKER, and is accepted; if pixels were missing JWRN_HIT_MARKER
//   follows and reports it.
// Every other warning leaves the pixels as the file describes them and is ignored:
// JWRN_EXTRANEOUS_DATA (bytes between segments), JWRN_ADOBE_XFORM, JWRN_JFIF_MAJOR,
// JWRN_BOGUS_ICC, JWRN_NOT_SEQUENTIAL, JWRN_BOGUS_PROGRESSION, trace messages.
// A multi-scan image whose scans end with an EOI marker before every coefficient is
// refined is valid JPEG (the standard does not require a complete progression) and is
// decoded as libjpeg does.
static void on_emit_message(j_common_ptr cinfo, int level) {
  jpeg_error_context *context = (jpeg_error_context *)cinfo->err;
  if (level >= 0) return;
  cinfo->err->num_warnings++;
  switch (cinfo->err->msg_code) {
    case JWRN_JPEG_EOF:
      context->saw_end_of_data = 1;
      if (context->multiple_scans) on_error_exit(cinfo);
      break;
    case JWRN_HIT_MARKER:
      if (context->saw_end_of_data) {
        cinfo->err->msg_code = JWRN_JPEG_EOF;  // report it as "Premature end of JPEG file"
      }
      on_error_exit(cinfo);
      break;
    case JWRN_HUFF_BAD_CODE:
#if JPEG_LIB_VERSION >= 70 || defined(C_ARITH_CODING_SUPPORTED) || defined(D_ARITH_CODING_SUPPORTED)
    case JWRN_ARITH_BAD_CODE:
#endif
    case JWRN_MUST_RESYNC:
      on_error_exit(cinfo);
      break;
    default:
      break;
  }
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

// The input, handed to libjpeg in pieces of CHUNK_SIZE bytes. libjpeg-turbo decodes
// Huffman data on a fast path when at least 512 bytes per block of an MCU are buffered, and
// that path turns a bad Huffman code into 0 without JWRN_HUFF_BAD_CODE; with smaller pieces
// every code goes through jpeg_huff_decode, which reports it (the pixels are the same;
// baseline decoding measured up to 10% slower, progressive unchanged). Past the end, as
// jpeg_mem_src: JWRN_JPEG_EOF and a fake EOI marker.
enum { CHUNK_SIZE = 256 };

typedef struct {
  struct jpeg_source_mgr base;  // must be first: libjpeg sees only this part
  const uint8_t *data;
  size_t size;
  size_t offset;  // where the next piece starts
} chunked_source;

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
  static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};
  chunked_source *source = (chunked_source *)cinfo->src;
  if (source->offset >= source->size) {
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->base.next_input_byte = fake_eoi;
    source->base.bytes_in_buffer = sizeof(fake_eoi);
    return TRUE;
  }
  size_t count = source->size - source->offset;
  if (count > CHUNK_SIZE) count = CHUNK_SIZE;
  source->base.next_input_byte = source->data + source->offset;
  source->base.bytes_in_buffer = count;
  source->offset += count;
  return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
  chunked_source *source = (chunked_source *)cinfo->src;
  if (count <= 0) return;
  size_t skip = (size_t)count;
  if (skip <= source->base.bytes_in_buffer) {
    source->base.next_input_byte += skip;
    source->base.bytes_in_buffer -= skip;
    return;
  }
  skip -= source->base.bytes_in_buffer;
  source->base.bytes_in_buffer = 0;
  // Past the end: the next read reports it.
  source->offset = skip >= source->size - source->offset ? source->size : source->offset + skip;
}

static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

// Points `cinfo` at `source` (which must outlive the decompressor) reading `data`.
static void install_source(struct jpeg_decompress_struct *cinfo, chunked_source *source,
                           const uint8_t *data, size_t size) {
  memset(source, 0, sizeof(*source));
  source->base.init_source = source_init;
  source->base.fill_input_buffer = source_fill;
  source->base.skip_input_data = source_skip;
  source->base.resync_to_restart = jpeg_resync_to_restart;
  source->base.term_source = source_term;
  source->data = data;
  source->size = data == NULL ? 0 : size;
  cinfo->src = &source->base;
}

static void install_error_handler(struct jpeg_decompress_struct *cinfo, jpeg_error_context *context,
                                  char *message, size_t message_capacity) {
  cinfo->err = jpeg_std_error(&context->base);
  context->base.error_exit = on_error_exit;
  context->base.emit_message = on_emit_message;
  context->base.output_message = on_output_message;
  context->message = message;
  context->message_capacity = message_capacity;
  context->multiple_scans = 0;
  context->saw_end_of_data = 0;
  context->out_of_memory = 0;
}

// Reads the header and picks the output colour space. Must run inside the setjmp scope,
// with the source installed.
static void read_header(struct jpeg_decompress_struct *cinfo, cic_image_info *info) {
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
  info->multiple_scans = jpeg_has_multiple_scans(cinfo) ? 1 : 0;
  ((jpeg_error_context *)cinfo->err)->multiple_scans = (int)info->multiple_scans;
}

int cic_jpeg_read_info(const uint8_t *data, size_t size, cic_image_info *info,
                       char *message, size_t message_capacity) {
  struct jpeg_decompress_struct cinfo;
  jpeg_error_context context;
  chunked_source source;
  memset(info, 0, sizeof(*info));
  install_error_handler(&cinfo, &context, message, message_capacity);
  jpeg_create_decompress(&cinfo);
  install_source(&cinfo, &source, data, size);
  if (setjmp(context.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return context.out_of_memory ? CIC_OUT_OF_MEMORY : CIC_FAILED;
  }
  read_header(&cinfo, info);
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

int cic_jpeg_scaled_size(const uint8_t *data, size_t size, unsigned scale_denominator, uint32_t *width,
                         uint32_t *height, char *message, size_t message_capacity) {
  struct jpeg_decompress_struct cinfo;
  jpeg_error_context context;
  chunked_source source;
  cic_image_info info;
  memset(&info, 0, sizeof(info));
  install_error_handler(&cinfo, &context, message, message_capacity);
  jpeg_create_decompress(&cinfo);
  install_source(&cinfo, &source, data, size);
  if (setjmp(context.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return context.out_of_memory ? CIC_OUT_OF_MEMORY : CIC_FAILED;
  }
  read_header(&cinfo, &info);
  cinfo.scale_num = 1;
  cinfo.scale_denom = scale_denominator;
  jpeg_calc_output_dimensions(&cinfo);
  *width = cinfo.output_width;
  *height = cinfo.output_height;
  jpeg_destroy_decompress(&cinfo);
  return 0;
}

int cic_jpeg_decode_scaled(const uint8_t *data, size_t size, const cic_image_info *expected,
                           unsigned scale_denominator, uint8_t *pixels, size_t pixels_size,
                           size_t bytes_per_row, size_t max_memory, char *message,
                           size_t message_capacity) {
  struct jpeg_decompress_struct cinfo;
  jpeg_error_context context;
  chunked_source source;
  cic_image_info info;
  memset(&info, 0, sizeof(info));
  install_error_handler(&cinfo, &context, message, message_capacity);
  jpeg_create_decompress(&cinfo);
  install_source(&cinfo, &source, data, size);
  // Bounds the virtual arrays (realized in jpeg_start_decompress): the coefficient
  // buffer of a multi-scan image is 2 bytes per pixel per component.
  cinfo.mem->max_memory_to_use = max_memory > (size_t)LONG_MAX ? LONG_MAX : (long)max_memory;
  if (setjmp(context.jump)) {
    jpeg_destroy_decompress(&cinfo);
    return context.out_of_memory ? CIC_OUT_OF_MEMORY : CIC_FAILED;
  }
  read_header(&cinfo, &info);
  if (info.width != expected->width || info.height != expected->height ||
      info.channels != expected->channels) {
    cic_set_message(message, message_capacity, "the header changed between reads");
    jpeg_destroy_decompress(&cinfo);
    return CIC_FAILED;
  }
  // DCT scaling: libjpeg-turbo decodes at 1/2, 1/4 or 1/8 with scaled inverse DCTs.
  cinfo.scale_num = 1;
  cinfo.scale_denom = scale_denominator;
  jpeg_calc_output_dimensions(&cinfo);
  JDIMENSION width = cinfo.output_width, height = cinfo.output_height;
  if (height == 0 || bytes_per_row < (size_t)width * info.channels ||
      pixels_size < bytes_per_row * (height - 1) + (size_t)width * info.channels) {
    cic_set_message(message, message_capacity, "the output buffer is too small");
    jpeg_destroy_decompress(&cinfo);
    return CIC_FAILED;
  }
  (void)jpeg_start_decompress(&cinfo);
  if (cinfo.output_width != width || cinfo.output_height != height ||
      (uint32_t)cinfo.output_components != info.channels) {
    cic_set_message(message, message_capacity, "unexpected output geometry %ux%ux%d",
                    cinfo.output_width, cinfo.output_height, cinfo.output_components);
    jpeg_destroy_decompress(&cinfo);
    return CIC_FAILED;
  }
  while (cinfo.output_scanline < cinfo.output_height) {
    JSAMPROW row = pixels + (size_t)cinfo.output_scanline * bytes_per_row;
    (void)jpeg_read_scanlines(&cinfo, &row, 1);
  }
  // No jpeg_finish_decompress: every pixel has been read (a multi-scan image was read to
  // its EOI in jpeg_start_decompress), and a single-scan file that only lacks its EOI
  // marker is still complete (see on_emit_message).
  jpeg_destroy_decompress(&cinfo);
  return 0;
}
