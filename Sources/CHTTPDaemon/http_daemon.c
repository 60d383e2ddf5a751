#define _GNU_SOURCE  // accept4
#include "http_daemon.h"

#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <fcntl.h>
#include <unistd.h>

// The handler gets the path and query values as C strings, so a decoded %00 would cut them
// short (/v2/models/m%00x/ready would be answered as /v2/models/m): a value with %00 is left
// escaped, and so matches no route or name.
static size_t unescape(void *cls, struct MHD_Connection *connection, char *value) {
  (void)cls;
  (void)connection;
  if (strstr(value, "%00") != NULL) return strlen(value);
  return MHD_http_unescape(value);
}

struct MHD_Daemon *vt_http_start(const struct vt_http_options *options, char *error, size_t error_size) {
  struct addrinfo hints;
  memset(&hints, 0, sizeof hints);
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  char port[8];
  snprintf(port, sizeof port, "%u", (unsigned)options->port);
  struct addrinfo *found = NULL;
  int status = getaddrinfo(options->host, port, &hints, &found);
  if (status != 0 || found == NULL) {
    snprintf(error, error_size, "cannot resolve host '%s': %s", options->host, gai_strerror(status));
    return NULL;
  }
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  memcpy(&address, found->ai_addr, found->ai_addrlen);
  int family = found->ai_family;
  freeaddrinfo(found);

  unsigned int flags = MHD_USE_THREAD_PER_CONNECTION | MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_POLL | MHD_USE_ITC;
  if (family == AF_INET6) flags |= MHD_USE_IPv6;
  errno = 0;
  struct MHD_Daemon *daemon = MHD_start_daemon(
      flags, options->port, NULL, NULL, options->handler, options->handler_context,
      MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address,
      MHD_OPTION_CONNECTION_LIMIT, options->connection_limit,
      MHD_OPTION_CONNECTION_TIMEOUT, options->connection_timeout_seconds,
      MHD_OPTION_CONNECTION_MEMORY_LIMIT, options->connection_memory_limit,
      MHD_OPTION_NOTIFY_COMPLETED, options->completed, options->completed_context,
      MHD_OPTION_NOTIFY_CONNECTION, options->connection_notify, options->connection_context,
      MHD_OPTION_UNESCAPE_CALLBACK, unescape, NULL,
      MHD_OPTION_END);
  if (daemon == NULL) {
    snprintf(error, error_size, "cannot listen on %s port %u: %s", options->host, (unsigned)options->port,
             errno != 0 ? strerror(errno) : "libmicrohttpd refused to start");
  }
  return daemon;
}

uint16_t vt_http_bound_port(struct MHD_Daemon *daemon) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_LISTEN_FD);
  if (info == NULL) return 0;
  struct sockaddr_storage address;
  socklen_t length = sizeof address;
  if (getsockname(info->listen_fd, (struct sockaddr *)&address, &length) != 0) return 0;
  if (address.ss_family == AF_INET) return ntohs(((struct sockaddr_in *)&address)->sin_port);
  if (address.ss_family == AF_INET6) return ntohs(((struct sockaddr_in6 *)&address)->sin6_port);
  return 0;
}

void vt_http_client_address(struct MHD_Connection *connection, char *buffer, size_t size) {
  snprintf(buffer, size, "?");
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (info == NULL || info->client_addr == NULL) return;
  const struct sockaddr *address = info->client_addr;
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
  } else if (address->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
  }
}

int vt_http_connection_socket(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
  return info == NULL ? -1 : info->connect_fd;
}

void vt_http_set_timeout(struct MHD_Connection *connection, unsigned int seconds) {
  MHD_set_connection_option(connection, MHD_CONNECTION_OPTION_TIMEOUT, seconds);
}

int vt_http_send_now(int socket, const void *bytes, size_t count) {
  // The socket is non-blocking: a short answer fits in the send buffer, and a client that does
  // not read is not waited for.
  size_t sent = 0;
  while (sent < count) {
    ssize_t written = send(socket, (const char *)bytes + sent, count - sent, MSG_NOSIGNAL);
    if (written < 0 && errno == EINTR) continue;
    if (written <= 0) return 0;
    sent += (size_t)written;
  }
  return 1;
}

int vt_http_stop_accepting(struct MHD_Daemon *daemon) {
  MHD_socket listener = MHD_quiesce_daemon(daemon);
  if (listener == MHD_INVALID_SOCKET) return 0;
  // A full backlog makes the kernel drop new handshakes (the clients retry, then find the port
  // closed) instead of completing connections that the close below would reset.
  listen(listener, 0);
  int flags = fcntl(listener, F_GETFL, 0);
  if (flags >= 0) fcntl(listener, F_SETFL, flags | O_NONBLOCK);
  int handed = 0;
  for (;;) {
    struct sockaddr_storage address;
    socklen_t length = sizeof address;
    int client = accept4(listener, (struct sockaddr *)&address, &length, SOCK_CLOEXEC);
    if (client < 0) {
      if (errno == EINTR) continue;
      break;  // EAGAIN: the backlog is empty
    }
    // On failure libmicrohttpd closes the socket itself.
    if (MHD_add_connection(daemon, client, (const struct sockaddr *)&address, length) == MHD_YES) handed++;
  }
  close(listener);
  return handed;
}
