#include "GtkShim.h"

struct _GtkShimRowItem {
    GObject parent_instance;
    gpointer identity;
    GDestroyNotify release_identity;
    guint position;
};

enum { PROP_POSITION = 1, N_PROPERTIES };
enum { SIGNAL_UPDATED, N_SIGNALS };

static GParamSpec *properties[N_PROPERTIES];
static guint signals[N_SIGNALS];

G_DEFINE_FINAL_TYPE(GtkShimRowItem, gtkshim_row_item, G_TYPE_OBJECT)

static void gtkshim_row_item_finalize(GObject *object) {
    GtkShimRowItem *self = GTKSHIM_ROW_ITEM(object);
    if (self->release_identity != NULL) self->release_identity(self->identity);
    G_OBJECT_CLASS(gtkshim_row_item_parent_class)->finalize(object);
}

static void gtkshim_row_item_get_property(GObject *object, guint property_id, GValue *value, GParamSpec *pspec) {
    GtkShimRowItem *self = GTKSHIM_ROW_ITEM(object);
    switch (property_id) {
    case PROP_POSITION:
        g_value_set_uint(value, self->position);
        break;
    default:
        G_OBJECT_WARN_INVALID_PROPERTY_ID(object, property_id, pspec);
    }
}

static void gtkshim_row_item_class_init(GtkShimRowItemClass *klass) {
    GObjectClass *object_class = G_OBJECT_CLASS(klass);
    object_class->finalize = gtkshim_row_item_finalize;
    object_class->get_property = gtkshim_row_item_get_property;

    properties[PROP_POSITION] = g_param_spec_uint(
        "position", NULL, NULL, 0, G_MAXUINT, GTK_INVALID_LIST_POSITION,
        G_PARAM_READABLE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS);
    g_object_class_install_properties(object_class, N_PROPERTIES, properties);

    signals[SIGNAL_UPDATED] = g_signal_new(
        "updated", G_TYPE_FROM_CLASS(klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void gtkshim_row_item_init(GtkShimRowItem *self) {
    self->position = GTK_INVALID_LIST_POSITION;
}

GtkShimRowItem *gtkshim_row_item_new(gpointer identity, GDestroyNotify release_identity, guint position) {
    GtkShimRowItem *self = g_object_new(GTKSHIM_TYPE_ROW_ITEM, NULL);
    self->identity = identity;
    self->release_identity = release_identity;
    self->position = position;
    return self;
}

gpointer gtkshim_row_item_get_identity(GtkShimRowItem *self) {
    g_return_val_if_fail(GTKSHIM_IS_ROW_ITEM(self), NULL);
    return self->identity;
}

guint gtkshim_row_item_get_position(GtkShimRowItem *self) {
    g_return_val_if_fail(GTKSHIM_IS_ROW_ITEM(self), GTK_INVALID_LIST_POSITION);
    return self->position;
}

void gtkshim_row_item_set_position(GtkShimRowItem *self, guint position) {
    g_return_if_fail(GTKSHIM_IS_ROW_ITEM(self));
    if (self->position == position) return;
    self->position = position;
    g_object_notify_by_pspec(G_OBJECT(self), properties[PROP_POSITION]);
}

void gtkshim_row_item_updated(GtkShimRowItem *self) {
    g_return_if_fail(GTKSHIM_IS_ROW_ITEM(self));
    g_signal_emit(self, signals[SIGNAL_UPDATED], 0);
}
