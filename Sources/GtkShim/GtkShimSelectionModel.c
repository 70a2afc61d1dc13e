#include "GtkShim.h"

/*
 * The wrapped model answers for the items; the callbacks answer for the selection. GTK's own
 * selection models (GtkMultiSelection) keep a bitset of positions and walk every item on some
 * changes; this one leaves the bookkeeping to Swift, which keeps the selection by identity.
 */
struct _GtkShimSelectionModel {
    GObject parent_instance;
    GListModel *model;
    gulong items_changed_handler;
    GtkShimSelectionModelCallbacks callbacks;
    gpointer data;
    GDestroyNotify release_data;
};

static void gtkshim_selection_model_list_model_init(GListModelInterface *iface);
static void gtkshim_selection_model_selection_model_init(GtkSelectionModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(
    GtkShimSelectionModel, gtkshim_selection_model, G_TYPE_OBJECT,
    G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, gtkshim_selection_model_list_model_init)
    G_IMPLEMENT_INTERFACE(GTK_TYPE_SELECTION_MODEL, gtkshim_selection_model_selection_model_init))

static GType gtkshim_selection_model_get_item_type(GListModel *list) {
    GtkShimSelectionModel *self = GTKSHIM_SELECTION_MODEL(list);
    return self->model != NULL ? g_list_model_get_item_type(self->model) : G_TYPE_OBJECT;
}

static guint gtkshim_selection_model_get_n_items(GListModel *list) {
    GtkShimSelectionModel *self = GTKSHIM_SELECTION_MODEL(list);
    return self->model != NULL ? g_list_model_get_n_items(self->model) : 0;
}

static gpointer gtkshim_selection_model_get_item(GListModel *list, guint position) {
    GtkShimSelectionModel *self = GTKSHIM_SELECTION_MODEL(list);
    return self->model != NULL ? g_list_model_get_item(self->model, position) : NULL;
}

static void gtkshim_selection_model_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = gtkshim_selection_model_get_item_type;
    iface->get_n_items = gtkshim_selection_model_get_n_items;
    iface->get_item = gtkshim_selection_model_get_item;
}

#define SELF(model) GTKSHIM_SELECTION_MODEL(model)

static gboolean is_selected(GtkSelectionModel *model, guint position) {
    return SELF(model)->callbacks.is_selected(SELF(model)->data, position);
}

static GtkBitset *get_selection_in_range(GtkSelectionModel *model, guint position, guint n_items) {
    return SELF(model)->callbacks.get_selection_in_range(SELF(model)->data, position, n_items);
}

static gboolean select_item(GtkSelectionModel *model, guint position, gboolean unselect_rest) {
    return SELF(model)->callbacks.select_item(SELF(model)->data, position, unselect_rest);
}

static gboolean unselect_item(GtkSelectionModel *model, guint position) {
    return SELF(model)->callbacks.unselect_item(SELF(model)->data, position);
}

static gboolean select_range(GtkSelectionModel *model, guint position, guint n_items, gboolean unselect_rest) {
    return SELF(model)->callbacks.select_range(SELF(model)->data, position, n_items, unselect_rest);
}

static gboolean unselect_range(GtkSelectionModel *model, guint position, guint n_items) {
    return SELF(model)->callbacks.unselect_range(SELF(model)->data, position, n_items);
}

static gboolean select_all(GtkSelectionModel *model) {
    return SELF(model)->callbacks.select_all(SELF(model)->data);
}

static gboolean unselect_all(GtkSelectionModel *model) {
    return SELF(model)->callbacks.unselect_all(SELF(model)->data);
}

static gboolean set_selection(GtkSelectionModel *model, GtkBitset *selected, GtkBitset *mask) {
    return SELF(model)->callbacks.set_selection(SELF(model)->data, selected, mask);
}

static void gtkshim_selection_model_selection_model_init(GtkSelectionModelInterface *iface) {
    iface->is_selected = is_selected;
    iface->get_selection_in_range = get_selection_in_range;
    iface->select_item = select_item;
    iface->unselect_item = unselect_item;
    iface->select_range = select_range;
    iface->unselect_range = unselect_range;
    iface->select_all = select_all;
    iface->unselect_all = unselect_all;
    iface->set_selection = set_selection;
}

static void items_changed(GListModel *model, guint position, guint removed, guint added, gpointer user_data) {
    g_list_model_items_changed(G_LIST_MODEL(user_data), position, removed, added);
}

static void gtkshim_selection_model_dispose(GObject *object) {
    GtkShimSelectionModel *self = GTKSHIM_SELECTION_MODEL(object);
    if (self->model != NULL) {
        g_clear_signal_handler(&self->items_changed_handler, self->model);
        g_clear_object(&self->model);
    }
    G_OBJECT_CLASS(gtkshim_selection_model_parent_class)->dispose(object);
}

static void gtkshim_selection_model_finalize(GObject *object) {
    GtkShimSelectionModel *self = GTKSHIM_SELECTION_MODEL(object);
    if (self->release_data != NULL) self->release_data(self->data);
    G_OBJECT_CLASS(gtkshim_selection_model_parent_class)->finalize(object);
}

static void gtkshim_selection_model_class_init(GtkShimSelectionModelClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->dispose = gtkshim_selection_model_dispose;
    object_class->finalize = gtkshim_selection_model_finalize;
}

static void gtkshim_selection_model_init(GtkShimSelectionModel *self) {}

GtkShimSelectionModel *gtkshim_selection_model_new(GListModel *model,
                                                   const GtkShimSelectionModelCallbacks *callbacks,
                                                   gpointer data, GDestroyNotify release_data) {
    g_return_val_if_fail(G_IS_LIST_MODEL(model), NULL);
    g_return_val_if_fail(callbacks != NULL, NULL);
    GtkShimSelectionModel *self = g_object_new(GTKSHIM_TYPE_SELECTION_MODEL, NULL);
    self->model = g_object_ref(model);
    self->callbacks = *callbacks;
    self->data = data;
    self->release_data = release_data;
    self->items_changed_handler = g_signal_connect(model, "items-changed", G_CALLBACK(items_changed), self);
    return self;
}

GListModel *gtkshim_selection_model_get_model(GtkShimSelectionModel *self) {
    g_return_val_if_fail(GTKSHIM_IS_SELECTION_MODEL(self), NULL);
    return self->model;
}
