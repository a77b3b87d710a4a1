/*
 * Opens OpenSSL 3 on first use and forwards each cossl_<name> to OpenSSL's <name>. Beyond the
 * loader, only what Swift cannot do with plain calls lives here (see COpenSSL.h).
 */
#include "COpenSSL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* The functions only this file calls. */
typedef int alpn_select_cb(SSL *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *in,
                           unsigned int in_length, void *arg);
typedef struct ossl_lib_ctx_st OSSL_LIB_CTX;
typedef struct v3_ext_ctx X509V3_CTX;
typedef struct conf_st CONF;

#define INTERNAL_LIBSSL_FUNCTIONS(FN, VOID)                                                                  \
  VOID(SSL_CTX_set_alpn_select_cb, (SSL_CTX *ctx, alpn_select_cb *cb, void *arg), (ctx, cb, arg))
#define INTERNAL_LIBCRYPTO_FUNCTIONS(FN, VOID)                                                               \
  FN(const char *, OpenSSL_version, (int type), (type))                                                      \
  FN(EVP_PKEY *, EVP_PKEY_Q_keygen, (OSSL_LIB_CTX *libctx, const char *propq, const char *type, ...), ())  \
  VOID(X509V3_set_ctx, (X509V3_CTX *ctx, X509 *issuer, X509 *subject, void *req, void *crl, int flags), ()) \
  FN(X509_EXTENSION *, X509V3_EXT_nconf, (CONF *conf, X509V3_CTX *ctx, const char *name, const char *value), \
     ())                                                                                                     \
  FN(int, X509_add_ext, (X509 *cert, X509_EXTENSION *extension, int location), ())                         \
  VOID(X509_EXTENSION_free, (X509_EXTENSION *extension), ())

#define FIELD(type, name, parameters, arguments) type(*name) parameters;
#define VOID_FIELD(name, parameters, arguments) void(*name) parameters;
static struct {
  COSSL_LIBSSL_FUNCTIONS(FIELD, VOID_FIELD)
  COSSL_LIBCRYPTO_FUNCTIONS(FIELD, VOID_FIELD)
  INTERNAL_LIBSSL_FUNCTIONS(FIELD, VOID_FIELD)
  INTERNAL_LIBCRYPTO_FUNCTIONS(FIELD, VOID_FIELD)
} fn;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static char load_error[256];

/* Looks `name` up in `library`; 0, with the reason in load_error, when it is missing. */
static int find(void *library, const char *soname, const char *name, void **slot) {
  *slot = dlsym(library, name);
  if (*slot == NULL) snprintf(load_error, sizeof load_error, "%s has no %s (OpenSSL 3.0 or later is needed)", soname, name);
  return *slot != NULL;
}

static void load(void) {
  void *libcrypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!libcrypto) {
    snprintf(load_error, sizeof load_error, "cannot open libcrypto.so.3 (Debian: libssl3): %s", dlerror());
    return;
  }
  void *libssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!libssl) {
    snprintf(load_error, sizeof load_error, "cannot open libssl.so.3 (Debian: libssl3): %s", dlerror());
    return;
  }
#define FIND_SSL(type, name, parameters, arguments) \
  if (!find(libssl, "libssl.so.3", #name, (void **)&fn.name)) return;
#define FIND_SSL_VOID(name, parameters, arguments) FIND_SSL(void, name, parameters, arguments)
#define FIND_CRYPTO(type, name, parameters, arguments) \
  if (!find(libcrypto, "libcrypto.so.3", #name, (void **)&fn.name)) return;
#define FIND_CRYPTO_VOID(name, parameters, arguments) FIND_CRYPTO(void, name, parameters, arguments)
  COSSL_LIBSSL_FUNCTIONS(FIND_SSL, FIND_SSL_VOID)
  INTERNAL_LIBSSL_FUNCTIONS(FIND_SSL, FIND_SSL_VOID)
  COSSL_LIBCRYPTO_FUNCTIONS(FIND_CRYPTO, FIND_CRYPTO_VOID)
  INTERNAL_LIBCRYPTO_FUNCTIONS(FIND_CRYPTO, FIND_CRYPTO_VOID)
}

const char *cossl_load_error(void) {
  pthread_once(&load_once, load);
  return load_error[0] ? load_error : NULL;
}

const char *cossl_version(void) {
  if (cossl_load_error()) return NULL;
  return fn.OpenSSL_version(0);
}

/* Each of OpenSSL's functions under its cossl_ name. */
#define FORWARD(type, name, parameters, arguments) \
  type cossl_##name parameters { return fn.name arguments; }
#define FORWARD_VOID(name, parameters, arguments) \
  void cossl_##name parameters { fn.name arguments; }
COSSL_LIBSSL_FUNCTIONS(FORWARD, FORWARD_VOID)
COSSL_LIBCRYPTO_FUNCTIONS(FORWARD, FORWARD_VOID)

/* ALPN: "h2" if the client offers it, otherwise the fatal no_application_protocol alert. */
static int select_h2(SSL *ssl, const unsigned char **out, unsigned char *out_length, const unsigned char *in,
                     unsigned int in_length, void *arg) {
  static const unsigned char h2[] = {'h', '2'};
  (void)ssl;
  (void)arg;
  /* The client's list is length-prefixed names; a name running past the end ends the walk. */
  for (unsigned int at = 0; at < in_length && in[at] <= in_length - at - 1; at += 1u + in[at]) {
    if (in[at] == sizeof h2 && memcmp(in + at + 1, h2, sizeof h2) == 0) {
      *out = h2;
      *out_length = sizeof h2;
      return 0; /* SSL_TLSEXT_ERR_OK */
    }
  }
  return 2; /* SSL_TLSEXT_ERR_ALERT_FATAL: OpenSSL sends no_application_protocol */
}

void cossl_select_h2_only(SSL_CTX *ctx) { fn.SSL_CTX_set_alpn_select_cb(ctx, select_h2, NULL); }

EVP_PKEY *cossl_generate_p256_key(void) { return fn.EVP_PKEY_Q_keygen(NULL, NULL, "EC", "P-256"); }

int cossl_add_extension(X509 *cert, X509 *issuer, const char *name, const char *value) {
  /* struct v3_ext_ctx is OpenSSL's (x509v3.h), eight words in 3.0 ("maybe more here"): zeroed
   * room for more than that, filled in by X509V3_set_ctx. */
  union {
    void *words[32];
    char bytes[256];
  } ctx;
  memset(&ctx, 0, sizeof ctx);
  fn.X509V3_set_ctx((X509V3_CTX *)&ctx, issuer, cert, NULL, NULL, 0);
  X509_EXTENSION *extension = fn.X509V3_EXT_nconf(NULL, (X509V3_CTX *)&ctx, name, value);
  if (extension == NULL) return 0;
  int added = fn.X509_add_ext(cert, extension, -1);
  fn.X509_EXTENSION_free(extension);
  return added == 1;
}
