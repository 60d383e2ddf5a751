// The parts of FFmpeg's C API that Swift cannot use well by itself: macros that expand to
// expressions (AVERROR(), FFERRTAG), callbacks that FFmpeg invokes (interrupt, log, reads),
// and side data lookups. Everything else is called from Swift directly.
#ifndef SVT_FFMPEG_SHIM_H
#define SVT_FFMPEG_SHIM_H

#include <stdint.h>
#include <libavcodec/avcodec.h>
#include <libavdevice/avdevice.h>
#include <libavformat/avformat.h>
#include <libavutil/avutil.h>
#include <libavutil/display.h>
#include <libavutil/error.h>
#include <libavutil/imgutils.h>
#include <libavutil/log.h>
#include <libavutil/pixdesc.h>
#include <libavutil/time.h>
#include <libswscale/swscale.h>

/// FFmpeg error codes that are macros in C (`AVERROR(e)`, `FFERRTAG`), as constants.
static const int SVT_AVERROR_EOF = AVERROR_EOF;
static const int SVT_AVERROR_EXIT = AVERROR_EXIT;
static const int SVT_AVERROR_EAGAIN = AVERROR(EAGAIN);
static const int SVT_AVERROR_INVALIDDATA = AVERROR_INVALIDDATA;
static const int SVT_AVERROR_DECODER_NOT_FOUND = AVERROR_DECODER_NOT_FOUND;
static const int SVT_AVERROR_DEMUXER_NOT_FOUND = AVERROR_DEMUXER_NOT_FOUND;
static const int SVT_AVERROR_PROTOCOL_NOT_FOUND = AVERROR_PROTOCOL_NOT_FOUND;
static const int SVT_AVERROR_STREAM_NOT_FOUND = AVERROR_STREAM_NOT_FOUND;
static const int SVT_AVERROR_OPTION_NOT_FOUND = AVERROR_OPTION_NOT_FOUND;
static const int SVT_AVERROR_PATCHWELCOME = AVERROR_PATCHWELCOME;
static const int SVT_AVERROR_BUG = AVERROR_BUG;
static const int SVT_AVERROR_UNKNOWN = AVERROR_UNKNOWN;
static const int SVT_AVERROR_HTTP_BAD_REQUEST = AVERROR_HTTP_BAD_REQUEST;
static const int SVT_AVERROR_HTTP_UNAUTHORIZED = AVERROR_HTTP_UNAUTHORIZED;
static const int SVT_AVERROR_HTTP_FORBIDDEN = AVERROR_HTTP_FORBIDDEN;
static const int SVT_AVERROR_HTTP_NOT_FOUND = AVERROR_HTTP_NOT_FOUND;
static const int SVT_AVERROR_HTTP_OTHER_4XX = AVERROR_HTTP_OTHER_4XX;
static const int SVT_AVERROR_HTTP_SERVER_ERROR = AVERROR_HTTP_SERVER_ERROR;

// MARK: - Loading

/// Loads the FFmpeg libraries (libavutil, libswscale, libavcodec, libavformat, libavdevice, by
/// the sonames of the headers built against) and finds every function this package calls, once
/// per process; later calls return the first outcome. Returns 1 when FFmpeg is ready; 0 when a
/// library or function is missing, with the loader's reason copied into `error` (NUL-terminated,
/// truncated to `size`) when `error` is not NULL. Thread-safe.
///
/// The program does not link FFmpeg: its functions are forwarders that load it on first use
/// (see ffmpeg_loader.c), so that programs that never touch video start without it.
int svt_ffmpeg_load(char *error, size_t size);

/// `AV_NOPTS_VALUE` (a macro with a cast, which Swift does not import).
static const int64_t SVT_NOPTS_VALUE = AV_NOPTS_VALUE;

/// `AVERROR(errnum)`: the FFmpeg error code of a POSIX `errno` value.
static inline int svt_averror(int errnum) { return AVERROR(errnum); }

// MARK: - Deadline (interrupt callback)

/// A deadline that FFmpeg's blocking I/O polls through `AVIOInterruptCB`.
///
/// Owned (allocated and freed) by the Swift caller; read by FFmpeg on the thread that makes
/// the blocking call. `timeout_us` is the budget of one blocking call in microseconds.
typedef struct SVTDeadline {
    /// The budget of one blocking call, in microseconds of `av_gettime_relative`.
    int64_t timeout_us;
    /// When the current blocking call must give up, in `av_gettime_relative` microseconds.
    int64_t deadline_us;
    /// Set to 1 by the callback once the deadline has passed; cleared by `svt_deadline_reset`.
    int expired;
    /// Set to 1 with `expired`, never cleared: FFmpeg's I/O contexts keep a read error, so
    /// an input interrupted once answers `AVERROR_EXIT` from then on without waiting.
    int ever_expired;
} SVTDeadline;

/// Makes every blocking read of every source in the process give up at once with
/// `AVERROR_EXIT` (within 100 ms), now and from then on: how a tool stops on Ctrl-C while a
/// source is waiting for data. Safe to call from any thread.
void svt_cancel_blocking_reads(void);

/// Whether `svt_cancel_blocking_reads` was called.
int svt_blocking_reads_cancelled(void);

/// Starts a new budget: the deadline becomes now + `timeout_us`, and `expired` is cleared.
void svt_deadline_reset(SVTDeadline *deadline);

/// The `AVIOInterruptCB.callback`: returns 1 (abort) once `opaque`, an `SVTDeadline *`, has
/// passed its deadline, and records that in `expired` and `ever_expired`; 0 otherwise.
int svt_interrupt_callback(void *opaque);

/// Installs `svt_interrupt_callback` with `deadline` as its opaque pointer on `context`
/// (borrowed: the deadline must outlive the context).
void svt_install_interrupt(AVFormatContext *context, SVTDeadline *deadline);

// MARK: - Reading a file descriptor with a deadline

/// The opaque state of `svt_fd_read_packet`: a file descriptor and the deadline that
/// bounds each wait for data. Both are owned by the Swift caller.
typedef struct SVTFdReader {
    int fd;
    SVTDeadline *deadline;
} SVTFdReader;

/// An `AVIOContext` `read_packet` callback over a pipe, FIFO, socket or file descriptor that
/// never blocks past the deadline: it waits with `poll` in slices of at most 100 ms, returns
/// `AVERROR_EXIT` (and sets `expired`, `ever_expired`) when the deadline passes, `AVERROR_EOF` at end of
/// file (the writer closed), the bytes read (> 0), or `AVERROR(errno)`.
int svt_fd_read_packet(void *opaque, uint8_t *buffer, int size);

// MARK: - Log

/// Installs a log callback that prints nothing and remembers the last message at
/// `av_log_get_level()` or more severe; sets the level to `AV_LOG_ERROR`. Idempotent.
void svt_log_install(void);

/// How many messages the log callback has kept so far (a counter, to tell whether a call
/// logged anything).
unsigned long svt_log_sequence(void);

/// Copies the last kept log message (without the trailing newline, truncated to fit,
/// NUL-terminated) into `buffer`; an empty string when none.
void svt_log_last_message(char *buffer, size_t size);

// MARK: - Side data

/// Copies the display matrix (`AV_PKT_DATA_DISPLAYMATRIX`, 9 values: 16.16 fixed point
/// for the 2x2 part) of `stream` into `matrix`; returns 1 if the stream has one, else 0.
int svt_stream_display_matrix(const AVStream *stream, int32_t matrix[9]);

/// Copies the display matrix (`AV_FRAME_DATA_DISPLAYMATRIX`) of `frame` into `matrix`;
/// returns 1 if the frame has one, else 0.
int svt_frame_display_matrix(const AVFrame *frame, int32_t matrix[9]);

// MARK: - Decoding

/// Makes `context` decode into cleared buffers (FFmpeg's default buffers, zero-filled before
/// the decoder writes them). Frames are read in place and kept as long as the application holds
/// them, so the buffer a decoder reuses, and the old picture it holds, depends on which frames
/// are still held; decoders leave the blocks of a damaged picture they cannot decode as the
/// buffer held them. Cleared buffers make such blocks zeros, the same on every run. Call before
/// `avcodec_open2`.
void svt_decode_into_cleared_buffers(AVCodecContext *context);

#endif
