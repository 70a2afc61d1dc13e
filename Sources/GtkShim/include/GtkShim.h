/*
 * GtkShim: the few pieces of GLib and GTK that Swift cannot import, because they are macros
 * (fundamental GType constants, instance and class macros) or need C casts.
 * Everything else, GtkKit calls directly through CGtk.
 */
#ifndef QUIRE_GTK_SHIM_H
#define QUIRE_GTK_SHIM_H

#include <glib-object.h>

G_BEGIN_DECLS

/* Fundamental types (G_TYPE_NONE, G_TYPE_BOOLEAN, ... are macros over G_TYPE_MAKE_FUNDAMENTAL). */
GType gtkshim_type_none(void);
GType gtkshim_type_interface(void);
GType gtkshim_type_boolean(void);
GType gtkshim_type_int(void);
GType gtkshim_type_uint(void);
GType gtkshim_type_int64(void);
GType gtkshim_type_uint64(void);
GType gtkshim_type_enum(void);
GType gtkshim_type_flags(void);
GType gtkshim_type_double(void);
GType gtkshim_type_string(void);
GType gtkshim_type_pointer(void);
GType gtkshim_type_boxed(void);
GType gtkshim_type_param(void);
GType gtkshim_type_object(void);
GType gtkshim_type_variant(void);

/* G_TYPE_FROM_INSTANCE: the dynamic type of an instance. */
GType gtkshim_instance_type(gpointer instance);

/* G_TYPE_CHECK_INSTANCE_TYPE: whether an instance is of a type, a subtype or an implementer. */
gboolean gtkshim_instance_is_a(gpointer instance, GType type);

/* A signal parameter type without the G_SIGNAL_TYPE_STATIC_SCOPE bit. */
GType gtkshim_signal_param_type(GType type);

/* G_OBJECT_GET_CLASS + g_object_class_find_property: the property's spec, or NULL. */
GParamSpec *gtkshim_object_find_property(gpointer object, const gchar *name);

/*
 * g_signal_connect_data with the handler as a plain function pointer: Swift hands over its typed
 * C trampolines here, so the one unchecked function-pointer cast lives in C.
 */
gulong gtkshim_signal_connect(gpointer instance, const gchar *detailed_signal, const void *handler,
                              gpointer data, GClosureNotify release_data, gboolean after);

G_END_DECLS

#endif
