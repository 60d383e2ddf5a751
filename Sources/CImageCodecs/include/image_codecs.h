// Placeholder; the Imaging work replaces this.
#include <stddef.h>
