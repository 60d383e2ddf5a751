#include "ffmpeg_shim.h"

#include <errno.h>
#include <stdatomic.h>
#include <poll.h>
#include <stdio.h>
#include <pthread.h>
#include <string.h>
#include <unistd.h>

// MARK: - Deadline

// Set once by svt_cancel_blocking_reads (from a signal handler's queue); read by every wait.
static atomic_int svt_cancelled;

void svt_cancel_blocking_reads(void) {
    atomic_store(&svt_cancelled, 1);
}

int svt_blocking_reads_cancelled(void) {
    return atomic_load(&svt_cancelled);
}

void svt_deadline_reset(SVTDeadline *deadline) {
    deadline->deadline_us = av_gettime_relative() + deadline->timeout_us;
    deadline->expired = 0;
}

int svt_interrupt_callback(void *opaque) {
    SVTDeadline *deadline = opaque;
    if (atomic_load(&svt_cancelled) || deadline->expired) {
        return 1;
    }
    if (av_gettime_relative() >= deadline->deadline_us) {
        deadline->expired = 1;
        deadline->ever_expired = 1;
        return 1;
    }
    return 0;
}

void svt_install_interrupt(AVFormatContext *context, SVTDeadline *deadline) {
    context->interrupt_callback.callback = svt_interrupt_callback;
    context->interrupt_callback.opaque = deadline;
}

// MARK: - Reading a file descriptor with a deadline

int svt_fd_read_packet(void *opaque, uint8_t *buffer, int size) {
    SVTFdReader *reader = opaque;
    for (;;) {
        if (atomic_load(&svt_cancelled)) return AVERROR_EXIT;
        int64_t remaining_us = reader->deadline->deadline_us - av_gettime_relative();
        if (reader->deadline->expired || remaining_us <= 0) {
            reader->deadline->expired = 1;
            reader->deadline->ever_expired = 1;
            return AVERROR_EXIT;
        }
        // Wake at least every 100 ms so that a deadline reached meanwhile is noticed.
        int wait_ms = remaining_us >= 100000 ? 100 : (int)(remaining_us / 1000) + 1;
        struct pollfd descriptor = { .fd = reader->fd, .events = POLLIN, .revents = 0 };
        int ready = poll(&descriptor, 1, wait_ms);
        if (ready < 0) {
            if (errno == EINTR) continue;
            return AVERROR(errno);
        }
        if (ready == 0) continue;
        ssize_t count = read(reader->fd, buffer, (size_t)size);
        if (count > 0) return (int)count;
        if (count == 0) return AVERROR_EOF;
        if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) continue;
        return AVERROR(errno);
    }
}

// MARK: - Log

static pthread_mutex_t svt_log_mutex = PTHREAD_MUTEX_INITIALIZER;
static char svt_log_message[1024];
static int svt_log_line_complete = 1;
static unsigned long svt_log_count;

static void svt_log_callback(void *context, int level, const char *format, va_list arguments) {
    if (level > av_log_get_level()) {
        return;
    }
    char line[1024];
    int print_prefix = 0;  // no "[class @ address]" prefix: addresses mean nothing in an error text
    av_log_format_line2(context, level, format, arguments, line, sizeof line, &print_prefix);

    pthread_mutex_lock(&svt_log_mutex);
    if (svt_log_line_complete) {
        svt_log_message[0] = '\0';
    }
    size_t used = strlen(svt_log_message);
    snprintf(svt_log_message + used, sizeof svt_log_message - used, "%s", line);
    used = strlen(svt_log_message);
    svt_log_line_complete = used > 0 && svt_log_message[used - 1] == '\n';
    while (used > 0 && (svt_log_message[used - 1] == '\n' || svt_log_message[used - 1] == '\r')) {
        svt_log_message[--used] = '\0';
    }
    if (used == sizeof svt_log_message - 1) {
        svt_log_line_complete = 1;  // truncated: start afresh with the next message
    }
    svt_log_count += 1;
    pthread_mutex_unlock(&svt_log_mutex);
}

void svt_log_install(void) {
    av_log_set_level(AV_LOG_ERROR);
    av_log_set_callback(svt_log_callback);
}

unsigned long svt_log_sequence(void) {
    pthread_mutex_lock(&svt_log_mutex);
    unsigned long count = svt_log_count;
    pthread_mutex_unlock(&svt_log_mutex);
    return count;
}

void svt_log_last_message(char *buffer, size_t size) {
    if (size == 0) return;
    pthread_mutex_lock(&svt_log_mutex);
    snprintf(buffer, size, "%s", svt_log_message);
    pthread_mutex_unlock(&svt_log_mutex);
}

// MARK: - Side data

int svt_stream_display_matrix(const AVStream *stream, int32_t matrix[9]) {
    size_t size = 0;
    const uint8_t *data = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size);
    if (data == NULL || size < 9 * sizeof(int32_t)) {
        return 0;
    }
    memcpy(matrix, data, 9 * sizeof(int32_t));
    return 1;
}

int svt_frame_display_matrix(const AVFrame *frame, int32_t matrix[9]) {
    const AVFrameSideData *side_data = av_frame_get_side_data(frame, AV_FRAME_DATA_DISPLAYMATRIX);
    if (side_data == NULL || side_data->size < 9 * sizeof(int32_t)) {
        return 0;
    }
    memcpy(matrix, side_data->data, 9 * sizeof(int32_t));
    return 1;
}

// get_buffer2 may run on any decoder thread: it touches only the frame it is given.
static int svt_get_cleared_buffer(AVCodecContext *context, AVFrame *frame, int flags) {
  int status = avcodec_default_get_buffer2(context, frame, flags);
  if (status < 0) return status;
  for (int index = 0; index < AV_NUM_DATA_POINTERS && frame->buf[index] != NULL; index++) {
    memset(frame->buf[index]->data, 0, frame->buf[index]->size);
  }
  for (int index = 0; index < frame->nb_extended_buf; index++) {
    memset(frame->extended_buf[index]->data, 0, frame->extended_buf[index]->size);
  }
  return 0;
}

void svt_decode_into_cleared_buffers(AVCodecContext *context) { context->get_buffer2 = svt_get_cleared_buffer; }
