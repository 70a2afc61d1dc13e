#include "GtkShim.h"

/* Every answer comes from Swift; the instance only holds the callbacks and their data. */
struct _GtkShimListModel {
    GObject parent_instance;
    GtkShimListModelCallbacks callbacks;
    gpointer data;
    GDestroyNotify release_data;
};

static void gtkshim_list_model_list_model_init(GListModelInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE(GtkShimListModel, gtkshim_list_model, G_TYPE_OBJECT,
                              G_IMPLEMENT_INTERFACE(G_TYPE_LIST_MODEL, gtkshim_list_model_list_model_init))

static GType gtkshim_list_model_get_item_type(GListModel *list) {
    return GTKSHIM_TYPE_ROW_ITEM;
}

static guint gtkshim_list_model_get_n_items(GListModel *list) {
    GtkShimListModel *self = GTKSHIM_LIST_MODEL(list);
    return self->callbacks.get_n_items(self->data);
}

static gpointer gtkshim_list_model_get_item(GListModel *list, guint position) {
    GtkShimListModel *self = GTKSHIM_LIST_MODEL(list);
    return self->callbacks.get_item(self->data, position);
}

static void gtkshim_list_model_list_model_init(GListModelInterface *iface) {
    iface->get_item_type = gtkshim_list_model_get_item_type;
    iface->get_n_items = gtkshim_list_model_get_n_items;
    iface->get_item = gtkshim_list_model_get_item;
}

static void gtkshim_list_model_finalize(GObject *object) {
    GtkShimListModel *self = GTKSHIM_LIST_MODEL(object);
    if (self->release_data != NULL) self->release_data(self->data);
    G_OBJECT_CLASS(gtkshim_list_model_parent_class)->finalize(object);
}

static void gtkshim_list_model_class_init(GtkShimListModelClass *klass) {
    G_OBJECT_CLASS(klass)->finalize = gtkshim_list_model_finalize;
}

static void gtkshim_list_model_init(GtkShimListModel *self) {}

GtkShimListModel *gtkshim_list_model_new(const GtkShimListModelCallbacks *callbacks, gpointer data,
                                         GDestroyNotify release_data) {
    g_return_val_if_fail(callbacks != NULL && callbacks->get_n_items != NULL && callbacks->get_item != NULL, NULL);
    GtkShimListModel *self = g_object_new(GTKSHIM_TYPE_LIST_MODEL, NULL);
    self->callbacks = *callbacks;
    self->data = data;
    self->release_data = release_data;
    return self;
}
