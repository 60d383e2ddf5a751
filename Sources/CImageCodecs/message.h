// Internal helper shared by the codec shims (not a public header).
#ifndef CIMAGECODECS_MESSAGE_H
#define CIMAGECODECS_MESSAGE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

/// Writes a printf-style message into `buffer` (always NUL-terminated when capacity > 0).
static inline void cic_set_message(char *buffer, size_t capacity, const char *format, ...) {
  if (buffer == NULL || capacity == 0) return;
  va_list args;
  va_start(args, format);
  vsnprintf(buffer, capacity, format, args);
  va_end(args);
}

#endif  // CIMAGECODECS_MESSAGE_H
