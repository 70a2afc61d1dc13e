#include <gtk/gtk.h>
#include <adwaita.h>
#include <glib-unix.h>
