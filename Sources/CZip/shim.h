// libzip (Debian libzip-dev): reads the zip of associated files appended to TFLite models.
#include <zip.h>
// zlib (Debian zlib1g-dev, a dependency of libzip-dev): the CRC-32 of the files the metadata writer packs.
#include <zlib.h>
