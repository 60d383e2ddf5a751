// liblbfgs (Debian liblbfgs-dev, /usr/include/lbfgs.h): L-BFGS with a More-Thuente line search,
// the optimizer of the Training target. Debian builds it with double precision
// (lbfgsfloatval_t = double); the variables come from lbfgs_malloc, as lbfgs.h asks.
#include <lbfgs.h>
