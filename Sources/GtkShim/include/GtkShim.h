/*
 * GtkShim: the few pieces of GLib and GTK that Swift cannot import, because they are macros
 * (fundamental GType constants, instance and class macros) or need C casts, and the GObject
 * types GtkKit defines (list rows, the lazy list model, the selection model), whose virtual
 * functions call back into Swift. Everything else, GtkKit calls directly through CGtk.
 */
#ifndef QUIRE_GTK_SHIM_H
#define QUIRE_GTK_SHIM_H

#include <glib-object.h>
#include <gtk/gtk.h>

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

/*
 * GtkShimRowItem: the item a GtkShimListModel hands to GTK for one row. It carries the row's
 * identity (an opaque pointer owned by the item, released with the notify given at creation)
 * and its current position, GTK_INVALID_LIST_POSITION once its row has left the list.
 * "updated" is emitted when the row's data changed while it stayed in place, so bound row
 * widgets can show the new data.
 */
#define GTKSHIM_TYPE_ROW_ITEM (gtkshim_row_item_get_type())
G_DECLARE_FINAL_TYPE(GtkShimRowItem, gtkshim_row_item, GTKSHIM, ROW_ITEM, GObject)

GtkShimRowItem *gtkshim_row_item_new(gpointer identity, GDestroyNotify release_identity, guint position);
gpointer gtkshim_row_item_get_identity(GtkShimRowItem *self);
guint gtkshim_row_item_get_position(GtkShimRowItem *self);
/* Sets the position, notifying "position" only when it changes. */
void gtkshim_row_item_set_position(GtkShimRowItem *self, guint position);
/* Emits "updated". */
void gtkshim_row_item_updated(GtkShimRowItem *self);

/*
 * GtkShimListModel: a GListModel of GtkShimRowItems whose n_items and get_item are answered
 * by the callbacks (called on the main thread with `data`). get_item returns a new reference
 * or NULL. `release_data` is called with `data` when the model is finalized.
 */
typedef struct {
    guint (*get_n_items)(gpointer data);
    GtkShimRowItem *(*get_item)(gpointer data, guint position);
} GtkShimListModelCallbacks;

#define GTKSHIM_TYPE_LIST_MODEL (gtkshim_list_model_get_type())
G_DECLARE_FINAL_TYPE(GtkShimListModel, gtkshim_list_model, GTKSHIM, LIST_MODEL, GObject)

GtkShimListModel *gtkshim_list_model_new(const GtkShimListModelCallbacks *callbacks, gpointer data,
                                         GDestroyNotify release_data);

/*
 * GtkShimSelectionModel: a GtkSelectionModel over another GListModel, whose items and
 * items-changed it passes through unchanged, and whose selection is answered by the callbacks.
 * A callback returns whether the request was honoured; get_selection_in_range returns a new
 * GtkBitset. The callbacks emit "selection-changed" themselves
 * (gtk_selection_model_selection_changed).
 */
typedef struct {
    gboolean (*is_selected)(gpointer data, guint position);
    GtkBitset *(*get_selection_in_range)(gpointer data, guint position, guint n_items);
    gboolean (*select_item)(gpointer data, guint position, gboolean unselect_rest);
    gboolean (*unselect_item)(gpointer data, guint position);
    gboolean (*select_range)(gpointer data, guint position, guint n_items, gboolean unselect_rest);
    gboolean (*unselect_range)(gpointer data, guint position, guint n_items);
    gboolean (*select_all)(gpointer data);
    gboolean (*unselect_all)(gpointer data);
    gboolean (*set_selection)(gpointer data, GtkBitset *selected, GtkBitset *mask);
} GtkShimSelectionModelCallbacks;

#define GTKSHIM_TYPE_SELECTION_MODEL (gtkshim_selection_model_get_type())
G_DECLARE_FINAL_TYPE(GtkShimSelectionModel, gtkshim_selection_model, GTKSHIM, SELECTION_MODEL, GObject)

GtkShimSelectionModel *gtkshim_selection_model_new(GListModel *model,
                                                   const GtkShimSelectionModelCallbacks *callbacks,
                                                   gpointer data, GDestroyNotify release_data);
GListModel *gtkshim_selection_model_get_model(GtkShimSelectionModel *self);

/*
 * GtkShimFixedHeightBin: holds one child at a fixed height, whatever the child asks for
 * (taller content is clipped), so every row of a list has the same height and GTK's estimate
 * for rows it has not measured is exact. It asks no width either: the child gets the width the
 * bin is given (wider content is clipped).
 */
#define GTKSHIM_TYPE_FIXED_HEIGHT_BIN (gtkshim_fixed_height_bin_get_type())
G_DECLARE_FINAL_TYPE(GtkShimFixedHeightBin, gtkshim_fixed_height_bin, GTKSHIM, FIXED_HEIGHT_BIN, GtkWidget)

/* A new bin (floating, like every new widget) holding `child` at `height` pixels. */
GtkWidget *gtkshim_fixed_height_bin_new(GtkWidget *child, int height);
GtkWidget *gtkshim_fixed_height_bin_get_child(GtkShimFixedHeightBin *self);

G_END_DECLS

/// A GSettings backend that keeps every key in the key file `filename` (GIO declares it only
/// under G_SETTINGS_ENABLE_BACKEND). Transfer full.
gpointer gtkshim_keyfile_settings_backend_new(const char *filename);

#endif
