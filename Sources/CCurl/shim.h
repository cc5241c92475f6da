#ifndef UAAUDIT_CCURL_SHIM_H
#define UAAUDIT_CCURL_SHIM_H
/* libcurl (Debian's libcurl4, headers from libcurl4-openssl-dev) for webhook delivery, loaded
   with dlopen on the first delivery rather than linked: libcurl and the 25 libraries it pulls
   in (GnuTLS, Kerberos, LDAP, SSH, ...) would cost every run about 5 MB and several
   milliseconds at start-up, and most runs send nothing. The types and constants come from
   <curl/curl.h>; the functions from the table uaaudit_curl_load fills. */
#include <curl/curl.h>
#include <dlfcn.h>
#include <stdio.h>

/* The oldest libcurl uaaudit works with: CURLOPT_PROTOCOLS_STR is 7.85.0's (curl_multi_poll,
   7.66.0's, is older). The package's Depends: says the same (scripts/package-deb.sh). */
#define UAAUDIT_CURL_MINIMUM 0x075500
#define UAAUDIT_CURL_MINIMUM_TEXT "7.85.0"

typedef size_t (*uaaudit_curl_data_callback)(char *data, size_t size, size_t count, void *user);
typedef int (*uaaudit_curl_xferinfo_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);

/* The libcurl functions uaaudit calls. curl_easy_setopt and curl_easy_getinfo are variadic,
   which Swift cannot call: they are kept untyped and called through the typed wrappers below. */
typedef struct {
    CURLcode (*global_init)(long flags);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    void *easy_setopt;
    void *easy_getinfo;
    const char *(*easy_strerror)(CURLcode code);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
    void (*slist_free_all)(struct curl_slist *list);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout_ms,
                            int *ready);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *left);
} uaaudit_curl_api;

/* Loads libcurl.so.4 and fills `api`; 0 with dlerror's text in *error when it cannot. */
static inline int uaaudit_curl_load(uaaudit_curl_api *api, const char **error) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        *error = dlerror();
        return 0;
    }
    /* An older libcurl would reject an option or lack a function with an obscure error on
       every delivery: say which version it is instead. */
    curl_version_info_data *(*version_info)(CURLversion) = 0;
    *(void **)&version_info = dlsym(library, "curl_version_info");
    const curl_version_info_data *version = version_info ? version_info(CURLVERSION_NOW) : 0;
    if (!version || version->version_num < UAAUDIT_CURL_MINIMUM) {
        static char message[160];
        snprintf(message, sizeof message, "libcurl %s is too old: uaaudit needs %s or newer",
                 version && version->version ? version->version : "(of unknown version)",
                 UAAUDIT_CURL_MINIMUM_TEXT);
        *error = message;
        return 0;
    }
#define UAAUDIT_CURL_LOAD(field, name)                 \
    if (!(*(void **)&api->field = dlsym(library, name))) { \
        *error = dlerror();                            \
        return 0;                                      \
    }
    UAAUDIT_CURL_LOAD(global_init, "curl_global_init")
    UAAUDIT_CURL_LOAD(easy_init, "curl_easy_init")
    UAAUDIT_CURL_LOAD(easy_cleanup, "curl_easy_cleanup")
    UAAUDIT_CURL_LOAD(easy_setopt, "curl_easy_setopt")
    UAAUDIT_CURL_LOAD(easy_getinfo, "curl_easy_getinfo")
    UAAUDIT_CURL_LOAD(easy_strerror, "curl_easy_strerror")
    UAAUDIT_CURL_LOAD(slist_append, "curl_slist_append")
    UAAUDIT_CURL_LOAD(slist_free_all, "curl_slist_free_all")
    UAAUDIT_CURL_LOAD(multi_init, "curl_multi_init")
    UAAUDIT_CURL_LOAD(multi_cleanup, "curl_multi_cleanup")
    UAAUDIT_CURL_LOAD(multi_add_handle, "curl_multi_add_handle")
    UAAUDIT_CURL_LOAD(multi_remove_handle, "curl_multi_remove_handle")
    UAAUDIT_CURL_LOAD(multi_perform, "curl_multi_perform")
    UAAUDIT_CURL_LOAD(multi_poll, "curl_multi_poll")
    UAAUDIT_CURL_LOAD(multi_info_read, "curl_multi_info_read")
#undef UAAUDIT_CURL_LOAD
    return 1;
}

typedef CURLcode (*uaaudit_curl_setopt_function)(CURL *, CURLoption, ...);
typedef CURLcode (*uaaudit_curl_getinfo_function)(CURL *, CURLINFO, ...);

static inline CURLcode uaaudit_curl_set_long(const uaaudit_curl_api *api, CURL *curl, CURLoption option, long value) {
    return ((uaaudit_curl_setopt_function)api->easy_setopt)(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_offset(const uaaudit_curl_api *api, CURL *curl, CURLoption option,
                                               curl_off_t value) {
    return ((uaaudit_curl_setopt_function)api->easy_setopt)(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_pointer(const uaaudit_curl_api *api, CURL *curl, CURLoption option,
                                                const void *value) {
    return ((uaaudit_curl_setopt_function)api->easy_setopt)(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_data_callback(const uaaudit_curl_api *api, CURL *curl, CURLoption option,
                                                      uaaudit_curl_data_callback callback) {
    return ((uaaudit_curl_setopt_function)api->easy_setopt)(curl, option, callback);
}
static inline CURLcode uaaudit_curl_set_xferinfo_callback(const uaaudit_curl_api *api, CURL *curl,
                                                          uaaudit_curl_xferinfo_callback callback) {
    return ((uaaudit_curl_setopt_function)api->easy_setopt)(curl, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode uaaudit_curl_get_long(const uaaudit_curl_api *api, CURL *curl, CURLINFO info, long *value) {
    return ((uaaudit_curl_getinfo_function)api->easy_getinfo)(curl, info, value);
}
#endif
