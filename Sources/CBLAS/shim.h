// OpenBLAS's CBLAS (Debian libopenblas-dev; the header and libopenblas.so are in
// /usr/include/x86_64-linux-gnu/openblas-pthread and /usr/lib/x86_64-linux-gnu/openblas-pthread,
// which pkg-config's openblas.pc names): the Training target's matrix products (cblas_dgemm).
#include <cblas.h>
