#include <stddef.h>
#include <stdint.h>
#include <stdarg.h>
#include <sys/types.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <microhttpd.h>

// MHD_get_connection_info is variadic, which Swift cannot call; these ask it for one thing each.

/// The connection's socket, or -1.
static inline int quire_mhd_connection_socket(struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info == NULL ? -1 : info->connect_fd;
}

/// The client's address as text (IPv4 dotted or IPv6), written to `text`; false if unknown.
static inline int quire_mhd_client_address(struct MHD_Connection *connection, char *text, socklen_t size) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (info == NULL || info->client_addr == NULL) return 0;
    const struct sockaddr *address = info->client_addr;
    if (address->sa_family == AF_INET) {
        return inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, text, size) != NULL;
    }
    if (address->sa_family == AF_INET6) {
        const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)address;
        // An IPv4 client of a dual-stack socket reads as its IPv4 address.
        if (IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr)) {
            return inet_ntop(AF_INET, &v6->sin6_addr.s6_addr[12], text, size) != NULL;
        }
        return inet_ntop(AF_INET6, &v6->sin6_addr, text, size) != NULL;
    }
    return 0;
}
