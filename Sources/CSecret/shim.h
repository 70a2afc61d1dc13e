#ifndef QUIRE_CSECRET_SHIM_H
#define QUIRE_CSECRET_SHIM_H

#include <libsecret/secret.h>
#include <gio/gio.h>

// libsecret's convenience calls are variadic and its schema is a struct with a fixed array, neither
// of which Swift can use directly. These helpers fix Quire's schema (one token per library and
// server) and wrap the calls. Each returns a GError through `error` on failure.

/// The schema of a Quire sync token: the library file and the server it is for.
static inline const SecretSchema *quire_secret_schema(void) {
    static const SecretSchema schema = {
        "org.quire.SyncToken", SECRET_SCHEMA_NONE,
        {
            { "library", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { "server", SECRET_SCHEMA_ATTRIBUTE_STRING },
            { NULL, 0 },
        }
    };
    return &schema;
}

/// Stores `token` in the default collection; true on success.
static inline gboolean quire_secret_store(const char *library, const char *server, const char *label,
                                          const char *token, GError **error) {
    return secret_password_store_sync(quire_secret_schema(), SECRET_COLLECTION_DEFAULT, label, token, NULL, error,
                                      "library", library, "server", server, NULL);
}

/// The stored token (free it with `secret_password_free`), or NULL when there is none or on error.
static inline gchar *quire_secret_lookup(const char *library, const char *server, GError **error) {
    return secret_password_lookup_sync(quire_secret_schema(), NULL, error, "library", library, "server", server, NULL);
}

/// Removes the token; true when one was removed.
static inline gboolean quire_secret_clear(const char *library, const char *server, GError **error) {
    return secret_password_clear_sync(quire_secret_schema(), NULL, error, "library", library, "server", server, NULL);
}

/// Whether a Secret Service can answer on the session bus: 1 when `org.freedesktop.secrets` has an
/// owner or can be activated, 0 when there is no session bus or no such service, -1 on error.
/// Never autolaunches a bus (no X11 `dbus-launch`) and waits at most `timeout_ms` per call.
static inline int quire_secret_service_state(int timeout_ms, GError **error) {
    const char *address = g_getenv("DBUS_SESSION_BUS_ADDRESS");
    if (address == NULL || *address == '\0') return 0;
    GDBusConnection *connection = g_dbus_connection_new_for_address_sync(
        address, G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
        NULL, NULL, error);
    if (connection == NULL) return -1;
    int state = 0;
    GVariant *owned = g_dbus_connection_call_sync(
        connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
        g_variant_new("(s)", "org.freedesktop.secrets"), G_VARIANT_TYPE("(b)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms,
        NULL, error);
    if (owned == NULL) {
        state = -1;
    } else {
        gboolean has_owner = FALSE;
        g_variant_get(owned, "(b)", &has_owner);
        g_variant_unref(owned);
        if (has_owner) {
            state = 1;
        } else {
            GVariant *names = g_dbus_connection_call_sync(
                connection, "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus",
                "ListActivatableNames", NULL, G_VARIANT_TYPE("(as)"), G_DBUS_CALL_FLAGS_NONE, timeout_ms, NULL, error);
            if (names == NULL) {
                state = -1;
            } else {
                GVariantIter *iter = NULL;
                const char *name = NULL;
                g_variant_get(names, "(as)", &iter);
                while (g_variant_iter_loop(iter, "&s", &name)) {
                    if (g_strcmp0(name, "org.freedesktop.secrets") == 0) state = 1;
                }
                g_variant_iter_free(iter);
                g_variant_unref(names);
            }
        }
    }
    g_dbus_connection_close_sync(connection, NULL, NULL);
    g_object_unref(connection);
    return state;
}

#endif
