#ifndef QUIRE_CWEBKIT_SHIM_H
#define QUIRE_CWEBKIT_SHIM_H

#include <webkit/webkit.h>

// A web view's content manager and network session are construct-only properties, which only the
// variadic g_object_new can set; Swift cannot call it.

/// A new web view (floating) with its own content manager and network session.
static inline WebKitWebView *quire_web_view_new(WebKitUserContentManager *manager, WebKitNetworkSession *session) {
    return WEBKIT_WEB_VIEW(g_object_new(WEBKIT_TYPE_WEB_VIEW, "user-content-manager", manager,
                                        "network-session", session, NULL));
}

#endif
