// OpenSSL's libcrypto (Debian libssl-dev): SHA-256 of downloaded models, through the EVP API.
#include <openssl/evp.h>
