#ifndef UAAUDIT_CCURL_SHIM_H
#define UAAUDIT_CCURL_SHIM_H
/* libcurl (Debian's libcurl4-openssl-dev) for webhook delivery. curl_easy_setopt and
   curl_easy_getinfo are variadic, which Swift cannot call: one typed wrapper per argument type. */
#include <curl/curl.h>

typedef size_t (*uaaudit_curl_data_callback)(char *data, size_t size, size_t count, void *user);
typedef int (*uaaudit_curl_xferinfo_callback)(void *user, curl_off_t dltotal, curl_off_t dlnow,
                                              curl_off_t ultotal, curl_off_t ulnow);

static inline CURLcode uaaudit_curl_set_long(CURL *curl, CURLoption option, long value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_offset(CURL *curl, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_pointer(CURL *curl, CURLoption option, const void *value) {
    return curl_easy_setopt(curl, option, value);
}
static inline CURLcode uaaudit_curl_set_data_callback(CURL *curl, CURLoption option,
                                                      uaaudit_curl_data_callback callback) {
    return curl_easy_setopt(curl, option, callback);
}
static inline CURLcode uaaudit_curl_set_xferinfo_callback(CURL *curl, uaaudit_curl_xferinfo_callback callback) {
    return curl_easy_setopt(curl, CURLOPT_XFERINFOFUNCTION, callback);
}
static inline CURLcode uaaudit_curl_get_long(CURL *curl, CURLINFO info, long *value) {
    return curl_easy_getinfo(curl, info, value);
}
#endif
