#include "image_codecs.h"
