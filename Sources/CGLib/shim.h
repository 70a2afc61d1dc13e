#include <glib.h>
#include <libintl.h>
#include <locale.h>
