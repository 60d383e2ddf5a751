// FFmpeg is loaded on first use, not when the process starts.
//
// Debian's FFmpeg libraries bring over 200 shared libraries with them (codecs, TLS, X11, SDL,
// PulseAudio for the devices...); linking them made every start of the tool spend about 60 ms in
// the dynamic loader, even to classify one photo. Instead, the functions below carry FFmpeg's own
// names and signatures (the compiler checks them against FFmpeg's headers) and forward to the
// real ones, which `svt_ffmpeg_load` finds with dlopen/dlsym the first time one is needed. They
// are hidden: they resolve the calls of this program only, never FFmpeg's calls among its own
// libraries.

// The C library first, so that only FFmpeg's declarations fall under the pragma.
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#pragma GCC visibility push(hidden)
#include "ffmpeg_shim.h"
#pragma GCC visibility pop

#define SVT_STRINGIFY_(x) #x
#define SVT_STRINGIFY(x) SVT_STRINGIFY_(x)

// The libraries in load order (each after the ones it needs), by the soname the headers match.
enum { AVUTIL, SWSCALE, AVCODEC, AVFORMAT, AVDEVICE, LIBRARY_COUNT };
static const char *const library_names[LIBRARY_COUNT] = {
    "libavutil.so." SVT_STRINGIFY(LIBAVUTIL_VERSION_MAJOR),
    "libswscale.so." SVT_STRINGIFY(LIBSWSCALE_VERSION_MAJOR),
    "libavcodec.so." SVT_STRINGIFY(LIBAVCODEC_VERSION_MAJOR),
    "libavformat.so." SVT_STRINGIFY(LIBAVFORMAT_VERSION_MAJOR),
    "libavdevice.so." SVT_STRINGIFY(LIBAVDEVICE_VERSION_MAJOR),
};

// Every FFmpeg function this package calls, with the library that defines it.
#define SVT_FFMPEG_FUNCTIONS(X)                                                                    \
    X(AVUTIL, av_buffer_get_ref_count)                                                             \
    X(AVUTIL, av_color_range_from_name)                                                            \
    X(AVUTIL, av_color_space_from_name)                                                            \
    X(AVUTIL, av_color_space_name)                                                                 \
    X(AVUTIL, av_dict_free)                                                                        \
    X(AVUTIL, av_dict_get)                                                                         \
    X(AVUTIL, av_dict_set)                                                                         \
    X(AVUTIL, av_display_matrix_flip)                                                              \
    X(AVUTIL, av_display_rotation_set)                                                             \
    X(AVUTIL, av_frame_alloc)                                                                      \
    X(AVUTIL, av_frame_clone)                                                                      \
    X(AVUTIL, av_frame_free)                                                                       \
    X(AVUTIL, av_frame_get_buffer)                                                                 \
    X(AVUTIL, av_frame_get_side_data)                                                              \
    X(AVUTIL, av_frame_unref)                                                                      \
    X(AVUTIL, av_free)                                                                             \
    X(AVUTIL, av_freep)                                                                            \
    X(AVUTIL, av_get_pix_fmt)                                                                      \
    X(AVUTIL, av_get_pix_fmt_name)                                                                 \
    X(AVUTIL, av_gettime_relative)                                                                 \
    X(AVUTIL, av_image_copy_plane)                                                                 \
    X(AVUTIL, av_image_fill_linesizes)                                                             \
    X(AVUTIL, av_image_fill_pointers)                                                              \
    X(AVUTIL, av_image_get_buffer_size)                                                            \
    X(AVUTIL, av_log_format_line2)                                                                 \
    X(AVUTIL, av_log_get_level)                                                                    \
    X(AVUTIL, av_log_set_callback)                                                                 \
    X(AVUTIL, av_log_set_level)                                                                    \
    X(AVUTIL, av_malloc)                                                                           \
    X(AVUTIL, av_pix_fmt_desc_get)                                                                 \
    X(AVUTIL, av_rescale_q)                                                                        \
    X(AVUTIL, av_strerror)                                                                         \
    X(SWSCALE, sws_freeContext)                                                                    \
    X(SWSCALE, sws_getCachedContext)                                                               \
    X(SWSCALE, sws_getColorspaceDetails)                                                           \
    X(SWSCALE, sws_scale)                                                                          \
    X(SWSCALE, sws_setColorspaceDetails)                                                           \
    X(AVCODEC, av_packet_alloc)                                                                    \
    X(AVCODEC, av_packet_free)                                                                     \
    X(AVCODEC, av_packet_unref)                                                                    \
    X(AVCODEC, avcodec_alloc_context3)                                                             \
    X(AVCODEC, avcodec_default_get_buffer2)                                                        \
    X(AVCODEC, avcodec_free_context)                                                               \
    X(AVCODEC, avcodec_get_name)                                                                   \
    X(AVCODEC, avcodec_open2)                                                                      \
    X(AVCODEC, avcodec_parameters_to_context)                                                      \
    X(AVCODEC, avcodec_receive_frame)                                                              \
    X(AVCODEC, avcodec_send_packet)                                                                \
    X(AVFORMAT, av_find_best_stream)                                                               \
    X(AVFORMAT, av_find_input_format)                                                              \
    X(AVFORMAT, av_read_frame)                                                                     \
    X(AVFORMAT, av_stream_get_side_data)                                                           \
    X(AVFORMAT, avformat_alloc_context)                                                            \
    X(AVFORMAT, avformat_close_input)                                                              \
    X(AVFORMAT, avformat_find_stream_info)                                                         \
    X(AVFORMAT, avformat_network_init)                                                             \
    X(AVFORMAT, avformat_open_input)                                                               \
    X(AVFORMAT, avio_alloc_context)                                                                \
    X(AVFORMAT, avio_context_free)                                                                 \
    X(AVDEVICE, avdevice_register_all)

// The real functions, typed as the headers declare them.
static struct {
#define SVT_FIELD(library, name) __typeof__(&name) name;
    SVT_FFMPEG_FUNCTIONS(SVT_FIELD)
#undef SVT_FIELD
} real;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static int loaded;
static char load_error[512];

static void load(void) {
    void *handles[LIBRARY_COUNT];
    for (int library = 0; library < LIBRARY_COUNT; library++) {
        // RTLD_LOCAL: FFmpeg's symbols and those of its dependencies stay out of the global
        // scope, so that they cannot interpose on this program's. RTLD_LAZY, as for linked
        // libraries: most of them are never called (about 9 ms less than RTLD_NOW); the
        // functions used here are found by dlsym below, which fails the load if one is missing.
        handles[library] = dlopen(library_names[library], RTLD_LAZY | RTLD_LOCAL);
        if (!handles[library]) {
            snprintf(load_error, sizeof load_error, "%s", dlerror());
            return;
        }
    }
#define SVT_RESOLVE(library, name)                                                                 \
    real.name = (__typeof__(&name))dlsym(handles[library], #name);                                 \
    if (!real.name) {                                                                              \
        snprintf(load_error, sizeof load_error, "%s has no function %s", library_names[library],   \
                 #name);                                                                           \
        return;                                                                                    \
    }
    SVT_FFMPEG_FUNCTIONS(SVT_RESOLVE)
#undef SVT_RESOLVE
    loaded = 1;
}

int svt_ffmpeg_load(char *error, size_t size) {
    pthread_once(&load_once, load);
    if (!loaded && error && size > 0) {
        snprintf(error, size, "%s", load_error);
    }
    return loaded;
}

// The functions for the forwarders. A forwarder runs only after `svt_ffmpeg_load` succeeded
// (VideoInput checks it before its first call), or loads FFmpeg itself; when that fails there
// is no value it could return, so it stops the process with the reason.
static inline __typeof__(real) *ffmpeg(void) {
    pthread_once(&load_once, load);
    if (!loaded) {
        fprintf(stderr, "fatal: FFmpeg could not be loaded: %s\n", load_error);
        abort();
    }
    return &real;
}

// MARK: - Forwarders (FFmpeg's signatures; the headers' declarations check them)

int av_color_range_from_name(const char *name) { return ffmpeg()->av_color_range_from_name(name); }
int av_color_space_from_name(const char *name) { return ffmpeg()->av_color_space_from_name(name); }
const char *av_color_space_name(enum AVColorSpace space) { return ffmpeg()->av_color_space_name(space); }
void av_dict_free(AVDictionary **m) { ffmpeg()->av_dict_free(m); }
AVDictionaryEntry *av_dict_get(const AVDictionary *m, const char *key, const AVDictionaryEntry *prev, int flags) {
    return ffmpeg()->av_dict_get(m, key, prev, flags);
}
int av_dict_set(AVDictionary **pm, const char *key, const char *value, int flags) {
    return ffmpeg()->av_dict_set(pm, key, value, flags);
}
int av_buffer_get_ref_count(const AVBufferRef *buf) { return ffmpeg()->av_buffer_get_ref_count(buf); }
void av_display_matrix_flip(int32_t matrix[9], int hflip, int vflip) {
    ffmpeg()->av_display_matrix_flip(matrix, hflip, vflip);
}
void av_display_rotation_set(int32_t matrix[9], double angle) { ffmpeg()->av_display_rotation_set(matrix, angle); }
AVFrame *av_frame_alloc(void) { return ffmpeg()->av_frame_alloc(); }
AVFrame *av_frame_clone(const AVFrame *src) { return ffmpeg()->av_frame_clone(src); }
void av_frame_free(AVFrame **frame) { ffmpeg()->av_frame_free(frame); }
int av_frame_get_buffer(AVFrame *frame, int align) { return ffmpeg()->av_frame_get_buffer(frame, align); }
AVFrameSideData *av_frame_get_side_data(const AVFrame *frame, enum AVFrameSideDataType type) {
    return ffmpeg()->av_frame_get_side_data(frame, type);
}
void av_frame_unref(AVFrame *frame) { ffmpeg()->av_frame_unref(frame); }
void av_free(void *ptr) { ffmpeg()->av_free(ptr); }
void av_freep(void *ptr) { ffmpeg()->av_freep(ptr); }
enum AVPixelFormat av_get_pix_fmt(const char *name) { return ffmpeg()->av_get_pix_fmt(name); }
const char *av_get_pix_fmt_name(enum AVPixelFormat pix_fmt) { return ffmpeg()->av_get_pix_fmt_name(pix_fmt); }
int64_t av_gettime_relative(void) { return ffmpeg()->av_gettime_relative(); }
void av_image_copy_plane(uint8_t *dst, int dst_linesize, const uint8_t *src, int src_linesize, int bytewidth,
                         int height) {
    ffmpeg()->av_image_copy_plane(dst, dst_linesize, src, src_linesize, bytewidth, height);
}
int av_image_fill_linesizes(int linesizes[4], enum AVPixelFormat pix_fmt, int width) {
    return ffmpeg()->av_image_fill_linesizes(linesizes, pix_fmt, width);
}
int av_image_fill_pointers(uint8_t *data[4], enum AVPixelFormat pix_fmt, int height, uint8_t *ptr,
                           const int linesizes[4]) {
    return ffmpeg()->av_image_fill_pointers(data, pix_fmt, height, ptr, linesizes);
}
int av_image_get_buffer_size(enum AVPixelFormat pix_fmt, int width, int height, int align) {
    return ffmpeg()->av_image_get_buffer_size(pix_fmt, width, height, align);
}
int av_log_format_line2(void *ptr, int level, const char *fmt, va_list vl, char *line, int line_size,
                        int *print_prefix) {
    return ffmpeg()->av_log_format_line2(ptr, level, fmt, vl, line, line_size, print_prefix);
}
int av_log_get_level(void) { return ffmpeg()->av_log_get_level(); }
void av_log_set_callback(void (*callback)(void *, int, const char *, va_list)) {
    ffmpeg()->av_log_set_callback(callback);
}
void av_log_set_level(int level) { ffmpeg()->av_log_set_level(level); }
void *av_malloc(size_t size) { return ffmpeg()->av_malloc(size); }
const AVPixFmtDescriptor *av_pix_fmt_desc_get(enum AVPixelFormat pix_fmt) {
    return ffmpeg()->av_pix_fmt_desc_get(pix_fmt);
}
int64_t av_rescale_q(int64_t a, AVRational bq, AVRational cq) { return ffmpeg()->av_rescale_q(a, bq, cq); }
int av_strerror(int errnum, char *errbuf, size_t errbuf_size) {
    return ffmpeg()->av_strerror(errnum, errbuf, errbuf_size);
}

void sws_freeContext(struct SwsContext *context) { ffmpeg()->sws_freeContext(context); }
struct SwsContext *sws_getCachedContext(struct SwsContext *context, int srcW, int srcH, enum AVPixelFormat srcFormat,
                                        int dstW, int dstH, enum AVPixelFormat dstFormat, int flags,
                                        SwsFilter *srcFilter, SwsFilter *dstFilter, const double *param) {
    return ffmpeg()->sws_getCachedContext(context, srcW, srcH, srcFormat, dstW, dstH, dstFormat, flags, srcFilter,
                                          dstFilter, param);
}
int sws_getColorspaceDetails(struct SwsContext *c, int **inv_table, int *srcRange, int **table, int *dstRange,
                             int *brightness, int *contrast, int *saturation) {
    return ffmpeg()->sws_getColorspaceDetails(c, inv_table, srcRange, table, dstRange, brightness, contrast,
                                              saturation);
}
int sws_scale(struct SwsContext *c, const uint8_t *const srcSlice[], const int srcStride[], int srcSliceY,
              int srcSliceH, uint8_t *const dst[], const int dstStride[]) {
    return ffmpeg()->sws_scale(c, srcSlice, srcStride, srcSliceY, srcSliceH, dst, dstStride);
}
int sws_setColorspaceDetails(struct SwsContext *c, const int inv_table[4], int srcRange, const int table[4],
                             int dstRange, int brightness, int contrast, int saturation) {
    return ffmpeg()->sws_setColorspaceDetails(c, inv_table, srcRange, table, dstRange, brightness, contrast,
                                              saturation);
}

AVPacket *av_packet_alloc(void) { return ffmpeg()->av_packet_alloc(); }
void av_packet_free(AVPacket **pkt) { ffmpeg()->av_packet_free(pkt); }
void av_packet_unref(AVPacket *pkt) { ffmpeg()->av_packet_unref(pkt); }
AVCodecContext *avcodec_alloc_context3(const AVCodec *codec) { return ffmpeg()->avcodec_alloc_context3(codec); }
void avcodec_free_context(AVCodecContext **avctx) { ffmpeg()->avcodec_free_context(avctx); }
int avcodec_default_get_buffer2(AVCodecContext *s, AVFrame *frame, int flags) {
    return ffmpeg()->avcodec_default_get_buffer2(s, frame, flags);
}
const char *avcodec_get_name(enum AVCodecID id) { return ffmpeg()->avcodec_get_name(id); }
int avcodec_open2(AVCodecContext *avctx, const AVCodec *codec, AVDictionary **options) {
    return ffmpeg()->avcodec_open2(avctx, codec, options);
}
int avcodec_parameters_to_context(AVCodecContext *codec, const AVCodecParameters *par) {
    return ffmpeg()->avcodec_parameters_to_context(codec, par);
}
int avcodec_receive_frame(AVCodecContext *avctx, AVFrame *frame) {
    return ffmpeg()->avcodec_receive_frame(avctx, frame);
}
int avcodec_send_packet(AVCodecContext *avctx, const AVPacket *avpkt) {
    return ffmpeg()->avcodec_send_packet(avctx, avpkt);
}

int av_find_best_stream(AVFormatContext *ic, enum AVMediaType type, int wanted_stream_nb, int related_stream,
                        const AVCodec **decoder_ret, int flags) {
    return ffmpeg()->av_find_best_stream(ic, type, wanted_stream_nb, related_stream, decoder_ret, flags);
}
const AVInputFormat *av_find_input_format(const char *short_name) {
    return ffmpeg()->av_find_input_format(short_name);
}
int av_read_frame(AVFormatContext *s, AVPacket *pkt) { return ffmpeg()->av_read_frame(s, pkt); }
uint8_t *av_stream_get_side_data(const AVStream *stream, enum AVPacketSideDataType type, size_t *size) {
    return ffmpeg()->av_stream_get_side_data(stream, type, size);
}
AVFormatContext *avformat_alloc_context(void) { return ffmpeg()->avformat_alloc_context(); }
void avformat_close_input(AVFormatContext **s) { ffmpeg()->avformat_close_input(s); }
int avformat_find_stream_info(AVFormatContext *ic, AVDictionary **options) {
    return ffmpeg()->avformat_find_stream_info(ic, options);
}
int avformat_network_init(void) { return ffmpeg()->avformat_network_init(); }
int avformat_open_input(AVFormatContext **ps, const char *url, const AVInputFormat *fmt, AVDictionary **options) {
    return ffmpeg()->avformat_open_input(ps, url, fmt, options);
}
AVIOContext *avio_alloc_context(unsigned char *buffer, int buffer_size, int write_flag, void *opaque,
                                int (*read_packet)(void *opaque, uint8_t *buf, int buf_size),
                                int (*write_packet)(void *opaque, uint8_t *buf, int buf_size),
                                int64_t (*seek)(void *opaque, int64_t offset, int whence)) {
    return ffmpeg()->avio_alloc_context(buffer, buffer_size, write_flag, opaque, read_packet, write_packet, seek);
}
void avio_context_free(AVIOContext **s) { ffmpeg()->avio_context_free(s); }

void avdevice_register_all(void) { ffmpeg()->avdevice_register_all(); }
