// Non-variadic entry points to libmicrohttpd's variadic calls (Swift cannot call C variadics).
#ifndef VT_HTTP_DAEMON_H
#define VT_HTTP_DAEMON_H

#include <stddef.h>
#include <stdint.h>
#include <microhttpd.h>

/// How `vt_http_start` configures the daemon.
struct vt_http_options {
  /// A numeric IPv4 or IPv6 address or a host name (the first address it resolves to).
  const char *host;
  /// 0 for a free port chosen by the system.
  uint16_t port;
  /// Open connections at most; further ones are refused.
  unsigned int connection_limit;
  /// Seconds a connection may stay idle (including between header bytes) before it is closed.
  unsigned int connection_timeout_seconds;
  /// Bytes of memory per connection for headers and buffers; larger headers get 431/413.
  size_t connection_memory_limit;
  MHD_AccessHandlerCallback handler;
  void *handler_context;
  MHD_RequestCompletedCallback completed;
  void *completed_context;
  /// Called when a connection opens and closes.
  MHD_NotifyConnectionCallback connection_notify;
  void *connection_context;
};

/// Starts a daemon with a thread per connection and an internal polling thread (so that
/// `MHD_quiesce_daemon` works). Returns NULL and writes the reason to `error` on failure.
struct MHD_Daemon *vt_http_start(const struct vt_http_options *options, char *error, size_t error_size);

/// Stops accepting: quiesces the daemon, hands the connections already waiting in the listen
/// backlog to it (so that clients whose connection the kernel completed are served, not reset),
/// then closes the listening socket. Returns how many waiting connections were handed over.
int vt_http_stop_accepting(struct MHD_Daemon *daemon);

/// The port the daemon listens on, or 0 when it cannot be read.
uint16_t vt_http_bound_port(struct MHD_Daemon *daemon);

/// The connection's socket, or -1 when libmicrohttpd does not say.
int vt_http_connection_socket(struct MHD_Connection *connection);

/// Sends `count` bytes on `socket` directly, without libmicrohttpd: an answer the server gives
/// while libmicrohttpd is still reading the request (it sends responses only once the body is
/// in). Returns whether all of them were queued in the kernel.
int vt_http_send_now(int socket, const void *bytes, size_t count);

/// Sets the connection's idle timeout in seconds (0: none).
void vt_http_set_timeout(struct MHD_Connection *connection, unsigned int seconds);

/// Writes the client's numeric address into `buffer` ("?" when unknown).
void vt_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size);

#endif
