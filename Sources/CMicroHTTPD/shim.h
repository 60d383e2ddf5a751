// libmicrohttpd (Debian libmicrohttpd-dev): the model server's HTTP parsing, connections and threads.
#include <stdint.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <microhttpd.h>
