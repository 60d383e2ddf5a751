// OpenBLAS's CBLAS (Debian libopenblas-dev; the header and libopenblas.so are in
// /usr/include/x86_64-linux-gnu/openblas-pthread and /usr/lib/x86_64-linux-gnu/openblas-pthread,
// which pkg-config's openblas.pc names): the Training target's matrix products (cblas_dgemm) and factorizations.
#include <stddef.h>
#include <cblas.h>

// LAPACK's Cholesky factorization and triangular inverse, which OpenBLAS's library also holds (Debian ships no
// LAPACK header with it). Fortran's calling convention: every argument by address, and the
// length of the character argument last (gfortran's hidden argument).
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, size_t uplo_length);
void dtrtri_(const char *uplo, const char *diag, const int *n, double *a, const int *lda, int *info,
             size_t uplo_length, size_t diag_length);
