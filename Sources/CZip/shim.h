// libzip (Debian libzip-dev): reads the zip of associated files appended to TFLite models.
#include <zip.h>
