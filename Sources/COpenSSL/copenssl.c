#include "COpenSSL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *libssl;
static void *libcrypto;
static char load_error[256];
static const char *(*p_OpenSSL_version)(int);

static void load(void) {
  libcrypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!libcrypto) {
    snprintf(load_error, sizeof load_error, "cannot open libcrypto.so.3 (Debian: libssl3): %s", dlerror());
    return;
  }
  libssl = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
  if (!libssl) {
    snprintf(load_error, sizeof load_error, "cannot open libssl.so.3 (Debian: libssl3): %s", dlerror());
    return;
  }
  p_OpenSSL_version = (const char *(*)(int))dlsym(libcrypto, "OpenSSL_version");
  if (!p_OpenSSL_version) snprintf(load_error, sizeof load_error, "libcrypto.so.3 has no OpenSSL_version");
}

const char *cossl_load_error(void) {
  pthread_once(&load_once, load);
  return load_error[0] ? load_error : NULL;
}

const char *cossl_version(void) {
  if (cossl_load_error()) return NULL;
  return p_OpenSSL_version(0);
}
