#include "GtkShim.h"

struct _GtkShimFixedHeightBin {
    GtkWidget parent_instance;
    GtkWidget *child;
    int height;
};

G_DEFINE_FINAL_TYPE(GtkShimFixedHeightBin, gtkshim_fixed_height_bin, GTK_TYPE_WIDGET)

static void gtkshim_fixed_height_bin_measure(GtkWidget *widget, GtkOrientation orientation, int for_size,
                                             int *minimum, int *natural, int *minimum_baseline,
                                             int *natural_baseline) {
    GtkShimFixedHeightBin *self = GTKSHIM_FIXED_HEIGHT_BIN(widget);
    /* No width of its own: the list gives every row its width. GTK 4.8's list view asks the
     * width of each of the ~200 rows it keeps on every change, and a wrapping label answers by
     * laying its whole text out twice (as narrow and as wide as it can be), which was most of
     * the cost of a search's new rows. */
    *minimum = orientation == GTK_ORIENTATION_VERTICAL ? self->height : 0;
    *natural = *minimum;
}

static void gtkshim_fixed_height_bin_size_allocate(GtkWidget *widget, int width, int height, int baseline) {
    GtkShimFixedHeightBin *self = GTKSHIM_FIXED_HEIGHT_BIN(widget);
    if (self->child != NULL && gtk_widget_should_layout(self->child)) {
        /* GTK expects a widget to be measured before it is allocated (its debug builds warn).
         * The height for this width is what the child's own allocation measures anyway, and GTK
         * caches it, so this costs nothing more. */
        int child_minimum, child_natural;
        gtk_widget_measure(self->child, GTK_ORIENTATION_VERTICAL, width, &child_minimum, &child_natural, NULL, NULL);
        gtk_widget_allocate(self->child, width, height, -1, NULL);
    }
}

static void gtkshim_fixed_height_bin_dispose(GObject *object) {
    GtkShimFixedHeightBin *self = GTKSHIM_FIXED_HEIGHT_BIN(object);
    g_clear_pointer(&self->child, gtk_widget_unparent);
    G_OBJECT_CLASS(gtkshim_fixed_height_bin_parent_class)->dispose(object);
}

static void gtkshim_fixed_height_bin_class_init(GtkShimFixedHeightBinClass *klass) {
    GtkWidgetClass *widget_class = GTK_WIDGET_CLASS(klass);
    G_OBJECT_CLASS(klass)->dispose = gtkshim_fixed_height_bin_dispose;
    widget_class->measure = gtkshim_fixed_height_bin_measure;
    widget_class->size_allocate = gtkshim_fixed_height_bin_size_allocate;
}

static void gtkshim_fixed_height_bin_init(GtkShimFixedHeightBin *self) {
    gtk_widget_set_overflow(GTK_WIDGET(self), GTK_OVERFLOW_HIDDEN);
}

GtkWidget *gtkshim_fixed_height_bin_new(GtkWidget *child, int height) {
    g_return_val_if_fail(GTK_IS_WIDGET(child), NULL);
    g_return_val_if_fail(height > 0, NULL);
    GtkShimFixedHeightBin *self = g_object_new(GTKSHIM_TYPE_FIXED_HEIGHT_BIN, NULL);
    self->height = height;
    self->child = child;
    gtk_widget_set_parent(child, GTK_WIDGET(self));
    return GTK_WIDGET(self);
}

GtkWidget *gtkshim_fixed_height_bin_get_child(GtkShimFixedHeightBin *self) {
    g_return_val_if_fail(GTKSHIM_IS_FIXED_HEIGHT_BIN(self), NULL);
    return self->child;
}
