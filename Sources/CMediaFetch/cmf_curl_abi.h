/* The part of libcurl's interface cmf_fetch.c calls, declared here so building UNTerm needs no
 * libcurl headers (Debian's libcurl4-openssl-dev): libcurl itself is opened with dlopen on the
 * first download. The numbers are libcurl's public constants (curl/curl.h, curl/multi.h), which
 * libcurl keeps stable under its soname libcurl.so.4: an option's number is its type's base
 * (LONG 0, OBJECTPOINT 10000, FUNCTIONPOINT 20000, OFF_T 30000) plus its index, and an info's
 * is its type's mask (LONG 0x200000, OFF_T 0x600000) plus its index. */
#ifndef CMF_CURL_ABI_H
#define CMF_CURL_ABI_H

#include <stdint.h>

typedef void CURL;
typedef void CURLM;
typedef int CURLcode;
typedef int CURLMcode;
typedef int CURLoption;
typedef int CURLINFO;
typedef int64_t curl_off_t;
typedef int curl_socket_t;

enum { CURLMSG_NONE = 0, CURLMSG_DONE = 1 };
typedef int CURLMSG;

/* struct CURLMsg (curl/multi.h) */
typedef struct {
  CURLMSG msg;
  CURL *easy_handle;
  union {
    void *whatever;
    CURLcode result;
  } data;
} CURLMsg;

/* struct curl_waitfd (curl/multi.h) */
struct curl_waitfd {
  curl_socket_t fd;
  short events;
  short revents;
};

#define CURLE_OK 0
#define CURLE_FAILED_INIT 2
#define CURLE_OPERATION_TIMEDOUT 28
#define CURLM_OK 0

#define CURL_GLOBAL_DEFAULT 3L
#define CURL_ERROR_SIZE 256

#define CURLOPTTYPE_LONG 0
#define CURLOPTTYPE_OBJECTPOINT 10000
#define CURLOPTTYPE_FUNCTIONPOINT 20000

#define CURLOPT_WRITEDATA (CURLOPTTYPE_OBJECTPOINT + 1)
#define CURLOPT_URL (CURLOPTTYPE_OBJECTPOINT + 2)
#define CURLOPT_ERRORBUFFER (CURLOPTTYPE_OBJECTPOINT + 10)
#define CURLOPT_WRITEFUNCTION (CURLOPTTYPE_FUNCTIONPOINT + 11)
#define CURLOPT_USERAGENT (CURLOPTTYPE_OBJECTPOINT + 18)
#define CURLOPT_HEADERDATA (CURLOPTTYPE_OBJECTPOINT + 29)
#define CURLOPT_FOLLOWLOCATION (CURLOPTTYPE_LONG + 52)
#define CURLOPT_MAXREDIRS (CURLOPTTYPE_LONG + 68)
#define CURLOPT_HEADERFUNCTION (CURLOPTTYPE_FUNCTIONPOINT + 79)
#define CURLOPT_NOSIGNAL (CURLOPTTYPE_LONG + 99)
#define CURLOPT_TIMEOUT_MS (CURLOPTTYPE_LONG + 155)
#define CURLOPT_CONNECTTIMEOUT_MS (CURLOPTTYPE_LONG + 156)
#define CURLOPT_PROTOCOLS_STR (CURLOPTTYPE_OBJECTPOINT + 318)
#define CURLOPT_REDIR_PROTOCOLS_STR (CURLOPTTYPE_OBJECTPOINT + 319)

#define CURLPROTO_HTTP (1 << 0)
#define CURLPROTO_HTTPS (1 << 1)

#define CURLINFO_LONG 0x200000
#define CURLINFO_OFF_T 0x600000
#define CURLINFO_RESPONSE_CODE (CURLINFO_LONG + 2)
#define CURLINFO_CONTENT_LENGTH_DOWNLOAD_T (CURLINFO_OFF_T + 15)

#endif
