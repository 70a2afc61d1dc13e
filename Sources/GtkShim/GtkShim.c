#include "GtkShim.h"

GType gtkshim_type_none(void) { return G_TYPE_NONE; }
GType gtkshim_type_interface(void) { return G_TYPE_INTERFACE; }
GType gtkshim_type_boolean(void) { return G_TYPE_BOOLEAN; }
GType gtkshim_type_int(void) { return G_TYPE_INT; }
GType gtkshim_type_uint(void) { return G_TYPE_UINT; }
GType gtkshim_type_int64(void) { return G_TYPE_INT64; }
GType gtkshim_type_uint64(void) { return G_TYPE_UINT64; }
GType gtkshim_type_enum(void) { return G_TYPE_ENUM; }
GType gtkshim_type_flags(void) { return G_TYPE_FLAGS; }
GType gtkshim_type_double(void) { return G_TYPE_DOUBLE; }
GType gtkshim_type_string(void) { return G_TYPE_STRING; }
GType gtkshim_type_pointer(void) { return G_TYPE_POINTER; }
GType gtkshim_type_boxed(void) { return G_TYPE_BOXED; }
GType gtkshim_type_param(void) { return G_TYPE_PARAM; }
GType gtkshim_type_object(void) { return G_TYPE_OBJECT; }
GType gtkshim_type_variant(void) { return G_TYPE_VARIANT; }

GType gtkshim_instance_type(gpointer instance) {
    return G_TYPE_FROM_INSTANCE(instance);
}

gboolean gtkshim_instance_is_a(gpointer instance, GType type) {
    return G_TYPE_CHECK_INSTANCE_TYPE(instance, type);
}

GType gtkshim_signal_param_type(GType type) {
    return type & ~G_SIGNAL_TYPE_STATIC_SCOPE;
}

GParamSpec *gtkshim_object_find_property(gpointer object, const gchar *name) {
    return g_object_class_find_property(G_OBJECT_GET_CLASS(object), name);
}

gulong gtkshim_signal_connect(gpointer instance, const gchar *detailed_signal, const void *handler,
                              gpointer data, GClosureNotify release_data, gboolean after) {
    return g_signal_connect_data(instance, detailed_signal, (GCallback)handler, data, release_data,
                                 after ? G_CONNECT_AFTER : 0);
}

#define G_SETTINGS_ENABLE_BACKEND
#include <gio/gsettingsbackend.h>

gpointer gtkshim_keyfile_settings_backend_new(const char *filename) {
    return g_keyfile_settings_backend_new(filename, "/", NULL);
}
