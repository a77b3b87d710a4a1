/*
 * The part of OpenSSL 3's interface UNTermAPNs calls, declared here so building UNTerm needs no
 * OpenSSL headers (Debian's libssl-dev): libssl.so.3 and libcrypto.so.3 are opened with dlopen
 * on first use. Types are opaque (only pointers to them cross this interface). The numbers are
 * OpenSSL's public constants from its 3.0 headers (ssl.h, tls1.h, prov_ssl.h, x509_vfy.h,
 * obj_mac.h, asn1.h, bio.h), which OpenSSL keeps stable under the soname .so.3.
 *
 * Every function listed below is OpenSSL's own, called as cossl_<its name> with its own
 * arguments; OpenSSL's manual pages describe each. Where OpenSSL's header has a macro (such as
 * SSL_CTX_set_min_proto_version or BIO_get_mem_data), the caller uses the function it expands
 * to (SSL_CTX_ctrl, BIO_ctrl) with the numbers below.
 */
#ifndef COPENSSL_ABI_H
#define COPENSSL_ABI_H

#include <stddef.h>
#include <stdint.h>
#include <time.h>

typedef struct ssl_st SSL;
typedef struct ssl_ctx_st SSL_CTX;
typedef struct ssl_method_st SSL_METHOD;
typedef struct x509_st X509;
typedef struct X509_name_st X509_NAME;
typedef struct X509_name_entry_st X509_NAME_ENTRY;
typedef struct X509_extension_st X509_EXTENSION;
typedef struct stack_st_X509_NAME STACK_OF_X509_NAME;
/* ASN1_INTEGER, ASN1_TIME and ASN1_OCTET_STRING are all this one struct in OpenSSL. */
typedef struct asn1_string_st ASN1_STRING;
typedef struct asn1_object_st ASN1_OBJECT;
typedef struct evp_pkey_st EVP_PKEY;
typedef struct evp_pkey_ctx_st EVP_PKEY_CTX;
typedef struct evp_md_st EVP_MD;
typedef struct evp_md_ctx_st EVP_MD_CTX;
typedef struct evp_cipher_st EVP_CIPHER;
typedef struct engine_st ENGINE;
typedef struct bio_st BIO;
typedef struct bio_method_st BIO_METHOD;
typedef struct bignum_st BIGNUM;
typedef struct ECDSA_SIG_st ECDSA_SIG;

/* pem.h: asked for a key's passphrase; UNTerm answers -1 (none) so nothing prompts. */
typedef int pem_password_cb(char *buf, int size, int rwflag, void *userdata);

/* ssl.h, tls1.h, prov_ssl.h */
#define SSL_FILETYPE_PEM 1
#define TLS1_2_VERSION 0x0303
#define SSL_CTRL_MODE 33
#define SSL_CTRL_SET_MIN_PROTO_VERSION 123
#define SSL_CTRL_GET_MIN_PROTO_VERSION 130
#define SSL_MODE_ENABLE_PARTIAL_WRITE 0x00000001U
#define SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER 0x00000002U
#define SSL_MODE_RELEASE_BUFFERS 0x00000010U
#define SSL_OP_IGNORE_UNEXPECTED_EOF 0x80ULL /* bit 7 */
#define SSL_OP_NO_COMPRESSION 0x20000ULL /* bit 17 */
#define SSL_OP_CIPHER_SERVER_PREFERENCE 0x400000ULL /* bit 22 */
#define SSL_OP_NO_RENEGOTIATION 0x40000000ULL /* bit 30 */
#define SSL_VERIFY_PEER 0x01
#define SSL_ERROR_NONE 0
#define SSL_ERROR_SSL 1
#define SSL_ERROR_WANT_READ 2
#define SSL_ERROR_WANT_WRITE 3
#define SSL_ERROR_SYSCALL 5
#define SSL_ERROR_ZERO_RETURN 6
/* x509_vfy.h */
#define X509_V_OK 0
/* obj_mac.h */
#define NID_commonName 13
#define NID_organizationalUnitName 18
#define NID_userId 458
#define EVP_PKEY_EC 408
/* asn1.h: X509_NAME_add_entry_by_txt's type for UTF-8 text. */
#define MBSTRING_UTF8 0x1000
/* bio.h: BIO_get_mem_data(b, pp) is BIO_ctrl(b, BIO_CTRL_INFO, 0, pp). */
#define BIO_CTRL_INFO 3

/*
 * The functions, one line each: FN(return type, name, (parameters), (arguments)) for those that
 * return a value, VOID(name, (parameters), (arguments)) for those that do not. copenssl.c loads
 * each from its library and defines cossl_<name>, which calls it.
 */
#define COSSL_LIBSSL_FUNCTIONS(FN, VOID)                                                           \
  FN(const SSL_METHOD *, TLS_server_method, (void), ())                                            \
  FN(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *method), (method))                                 \
  VOID(SSL_CTX_free, (SSL_CTX *ctx), (ctx))                                                        \
  FN(long, SSL_CTX_ctrl, (SSL_CTX *ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg))   \
  FN(uint64_t, SSL_CTX_set_options, (SSL_CTX *ctx, uint64_t options), (ctx, options))              \
  FN(uint64_t, SSL_CTX_get_options, (const SSL_CTX *ctx), (ctx))                                   \
  FN(int, SSL_CTX_use_certificate_chain_file, (SSL_CTX *ctx, const char *file), (ctx, file))       \
  FN(int, SSL_CTX_use_PrivateKey_file, (SSL_CTX *ctx, const char *file, int type), (ctx, file, type)) \
  FN(int, SSL_CTX_check_private_key, (const SSL_CTX *ctx), (ctx))                                  \
  VOID(SSL_CTX_set_default_passwd_cb, (SSL_CTX *ctx, pem_password_cb *cb), (ctx, cb))              \
  FN(int, SSL_CTX_load_verify_locations, (SSL_CTX *ctx, const char *file, const char *path),       \
     (ctx, file, path))                                                                            \
  FN(STACK_OF_X509_NAME *, SSL_load_client_CA_file, (const char *file), (file))                    \
  VOID(SSL_CTX_set_client_CA_list, (SSL_CTX *ctx, STACK_OF_X509_NAME *names), (ctx, names))        \
  VOID(SSL_CTX_set_verify, (SSL_CTX *ctx, int mode, int (*callback)(int, void *)), (ctx, mode, callback)) \
  FN(int, SSL_CTX_set_session_id_context, (SSL_CTX *ctx, const unsigned char *id, unsigned int length), \
     (ctx, id, length))                                                                            \
  FN(SSL *, SSL_new, (SSL_CTX *ctx), (ctx))                                                        \
  VOID(SSL_free, (SSL *ssl), (ssl))                                                                \
  FN(int, SSL_set_fd, (SSL *ssl, int fd), (ssl, fd))                                               \
  VOID(SSL_set_accept_state, (SSL *ssl), (ssl))                                                    \
  FN(int, SSL_do_handshake, (SSL *ssl), (ssl))                                                     \
  FN(int, SSL_is_init_finished, (const SSL *ssl), (ssl))                                           \
  FN(int, SSL_read, (SSL *ssl, void *buffer, int count), (ssl, buffer, count))                     \
  FN(int, SSL_write, (SSL *ssl, const void *buffer, int count), (ssl, buffer, count))              \
  FN(int, SSL_get_error, (const SSL *ssl, int result), (ssl, result))                              \
  FN(int, SSL_has_pending, (const SSL *ssl), (ssl))                                                \
  FN(int, SSL_shutdown, (SSL *ssl), (ssl))                                                         \
  VOID(SSL_get0_alpn_selected, (const SSL *ssl, const unsigned char **data, unsigned int *length), \
       (ssl, data, length))                                                                        \
  FN(X509 *, SSL_get1_peer_certificate, (const SSL *ssl), (ssl))                                   \
  FN(long, SSL_get_verify_result, (const SSL *ssl), (ssl))

#define COSSL_LIBCRYPTO_FUNCTIONS(FN, VOID)                                                        \
  FN(unsigned long, ERR_get_error, (void), ())                                                     \
  VOID(ERR_error_string_n, (unsigned long error, char *buffer, size_t size), (error, buffer, size)) \
  VOID(ERR_clear_error, (void), ())                                                                \
  VOID(CRYPTO_free, (void *pointer, const char *file, int line), (pointer, file, line))           \
  FN(int, RAND_bytes, (unsigned char *buffer, int count), (buffer, count))                         \
  /* Memory BIOs: PEM text in and out. */                                                          \
  FN(const BIO_METHOD *, BIO_s_mem, (void), ())                                                    \
  FN(BIO *, BIO_new, (const BIO_METHOD *method), (method))                                         \
  FN(BIO *, BIO_new_mem_buf, (const void *buffer, int length), (buffer, length))                   \
  FN(long, BIO_ctrl, (BIO *bio, int cmd, long larg, void *parg), (bio, cmd, larg, parg))           \
  FN(int, BIO_free, (BIO *bio), (bio))                                                             \
  FN(X509 *, PEM_read_bio_X509, (BIO *bio, X509 **into, pem_password_cb *cb, void *u), (bio, into, cb, u)) \
  FN(int, PEM_write_bio_X509, (BIO *bio, const X509 *cert), (bio, cert))                           \
  FN(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO *bio, EVP_PKEY **into, pem_password_cb *cb, void *u), \
     (bio, into, cb, u))                                                                           \
  FN(int, PEM_write_bio_PrivateKey,                                                                \
     (BIO *bio, const EVP_PKEY *key, const EVP_CIPHER *cipher, const unsigned char *passphrase,    \
      int length, pem_password_cb *cb, void *u),                                                   \
     (bio, key, cipher, passphrase, length, cb, u))                                                \
  FN(EVP_PKEY *, PEM_read_bio_PUBKEY, (BIO *bio, EVP_PKEY **into, pem_password_cb *cb, void *u),   \
     (bio, into, cb, u))                                                                           \
  FN(int, PEM_write_bio_PUBKEY, (BIO *bio, const EVP_PKEY *key), (bio, key))                       \
  /* Keys and ECDSA. */                                                                            \
  VOID(EVP_PKEY_free, (EVP_PKEY *key), (key))                                                      \
  FN(int, EVP_PKEY_get_base_id, (const EVP_PKEY *key), (key))                                      \
  FN(const char *, EVP_PKEY_get0_type_name, (const EVP_PKEY *key), (key))                          \
  FN(int, EVP_PKEY_get_group_name, (const EVP_PKEY *key, char *name, size_t size, size_t *length), \
     (key, name, size, length))                                                                    \
  FN(const EVP_MD *, EVP_sha256, (void), ())                                                       \
  FN(EVP_MD_CTX *, EVP_MD_CTX_new, (void), ())                                                     \
  VOID(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                  \
  FN(int, EVP_DigestSignInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *md, ENGINE *e, EVP_PKEY *key), \
     (ctx, pctx, md, e, key))                                                                      \
  FN(int, EVP_DigestSign,                                                                          \
     (EVP_MD_CTX *ctx, unsigned char *signature, size_t *length, const unsigned char *message, size_t count), \
     (ctx, signature, length, message, count))                                                     \
  FN(int, EVP_DigestVerifyInit,                                                                    \
     (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *md, ENGINE *e, EVP_PKEY *key),           \
     (ctx, pctx, md, e, key))                                                                      \
  FN(int, EVP_DigestVerify,                                                                        \
     (EVP_MD_CTX *ctx, const unsigned char *signature, size_t length, const unsigned char *message, size_t count), \
     (ctx, signature, length, message, count))                                                     \
  FN(ECDSA_SIG *, ECDSA_SIG_new, (void), ())                                                       \
  VOID(ECDSA_SIG_free, (ECDSA_SIG *sig), (sig))                                                    \
  FN(int, ECDSA_SIG_set0, (ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s), (sig, r, s))                     \
  VOID(ECDSA_SIG_get0, (const ECDSA_SIG *sig, const BIGNUM **r, const BIGNUM **s), (sig, r, s))   \
  FN(int, i2d_ECDSA_SIG, (const ECDSA_SIG *sig, unsigned char **out), (sig, out))                  \
  FN(ECDSA_SIG *, d2i_ECDSA_SIG, (ECDSA_SIG **into, const unsigned char **in, long length), (into, in, length)) \
  FN(BIGNUM *, BN_bin2bn, (const unsigned char *bytes, int count, BIGNUM *into), (bytes, count, into)) \
  FN(int, BN_bn2binpad, (const BIGNUM *bn, unsigned char *to, int count), (bn, to, count))         \
  VOID(BN_free, (BIGNUM *bn), (bn))                                                                \
  FN(ASN1_STRING *, BN_to_ASN1_INTEGER, (const BIGNUM *bn, ASN1_STRING *into), (bn, into))         \
  /* Certificates: making them. */                                                                 \
  FN(X509 *, X509_new, (void), ())                                                                 \
  VOID(X509_free, (X509 *cert), (cert))                                                            \
  FN(int, X509_set_version, (X509 *cert, long version), (cert, version))                           \
  FN(ASN1_STRING *, X509_get_serialNumber, (X509 *cert), (cert))                                   \
  FN(ASN1_STRING *, X509_getm_notBefore, (const X509 *cert), (cert))                               \
  FN(ASN1_STRING *, X509_getm_notAfter, (const X509 *cert), (cert))                                \
  FN(ASN1_STRING *, X509_time_adj_ex, (ASN1_STRING *time, int days, long seconds, time_t *from),   \
     (time, days, seconds, from))                                                                  \
  FN(int, X509_set_pubkey, (X509 *cert, EVP_PKEY *key), (cert, key))                               \
  FN(X509_NAME *, X509_get_subject_name, (const X509 *cert), (cert))                               \
  FN(int, X509_set_issuer_name, (X509 *cert, const X509_NAME *name), (cert, name))                 \
  FN(int, X509_NAME_add_entry_by_txt,                                                              \
     (X509_NAME *name, const char *field, int type, const unsigned char *bytes, int length, int loc, int set), \
     (name, field, type, bytes, length, loc, set))                                                 \
  FN(int, X509_sign, (X509 *cert, EVP_PKEY *key, const EVP_MD *md), (cert, key, md))               \
  /* Certificates: checking and reading them. */                                                   \
  FN(int, X509_verify, (X509 *cert, EVP_PKEY *key), (cert, key))                                   \
  FN(int, X509_check_issued, (X509 *issuer, X509 *subject), (issuer, subject))                     \
  FN(int, X509_check_private_key, (const X509 *cert, const EVP_PKEY *key), (cert, key))            \
  FN(EVP_PKEY *, X509_get0_pubkey, (const X509 *cert), (cert))                                     \
  FN(int, X509_cmp_time, (const ASN1_STRING *time, time_t *against), (time, against))              \
  FN(int, X509_check_host, (X509 *cert, const char *name, size_t length, unsigned int flags, char **peer), \
     (cert, name, length, flags, peer))                                                            \
  FN(int, X509_check_ip_asc, (X509 *cert, const char *address, unsigned int flags), (cert, address, flags)) \
  FN(const char *, X509_verify_cert_error_string, (long error), (error))                           \
  FN(int, X509_NAME_get_index_by_NID, (const X509_NAME *name, int nid, int last), (name, nid, last)) \
  FN(X509_NAME_ENTRY *, X509_NAME_get_entry, (const X509_NAME *name, int index), (name, index))    \
  FN(ASN1_STRING *, X509_NAME_ENTRY_get_data, (const X509_NAME_ENTRY *entry), (entry))             \
  FN(int, ASN1_STRING_to_UTF8, (unsigned char **out, const ASN1_STRING *in), (out, in))            \
  FN(const unsigned char *, ASN1_STRING_get0_data, (const ASN1_STRING *string), (string))          \
  FN(int, ASN1_STRING_length, (const ASN1_STRING *string), (string))                               \
  FN(ASN1_OBJECT *, OBJ_txt2obj, (const char *text, int numeric), (text, numeric))                 \
  VOID(ASN1_OBJECT_free, (ASN1_OBJECT *object), (object))                                          \
  FN(int, X509_get_ext_by_OBJ, (const X509 *cert, const ASN1_OBJECT *object, int last), (cert, object, last)) \
  FN(X509_EXTENSION *, X509_get_ext, (const X509 *cert, int index), (cert, index))                 \
  FN(ASN1_STRING *, X509_EXTENSION_get_data, (X509_EXTENSION *extension), (extension))

#define COSSL_DECLARE(type, name, parameters, arguments) type cossl_##name parameters;
#define COSSL_DECLARE_VOID(name, parameters, arguments) void cossl_##name parameters;
COSSL_LIBSSL_FUNCTIONS(COSSL_DECLARE, COSSL_DECLARE_VOID)
COSSL_LIBCRYPTO_FUNCTIONS(COSSL_DECLARE, COSSL_DECLARE_VOID)
#undef COSSL_DECLARE
#undef COSSL_DECLARE_VOID

#endif
