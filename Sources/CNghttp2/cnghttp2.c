#include "CNghttp2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* nghttp2_info, as nghttp2.h declares it (stable since 1.0). */
typedef struct {
  int age;
  int version_num;
  const char *version_str;
  const char *proto_str;
} cnh2_info;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static void *library;
static char load_error[256];
static cnh2_info *(*p_nghttp2_version)(int);

static void load(void) {
  library = dlopen("libnghttp2.so.14", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(load_error, sizeof load_error, "cannot open libnghttp2.so.14 (Debian: libnghttp2-14): %s", dlerror());
    return;
  }
  p_nghttp2_version = (cnh2_info * (*)(int)) dlsym(library, "nghttp2_version");
  if (!p_nghttp2_version) snprintf(load_error, sizeof load_error, "libnghttp2.so.14 has no nghttp2_version");
}

const char *cnh2_load_error(void) {
  pthread_once(&load_once, load);
  return load_error[0] ? load_error : NULL;
}

const char *cnh2_version(void) {
  if (cnh2_load_error()) return NULL;
  cnh2_info *info = p_nghttp2_version(0);
  return info ? info->version_str : NULL;
}
