#ifndef QUIRE_CCURL_SHIM_H
#define QUIRE_CCURL_SHIM_H

#include <curl/curl.h>

// curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: one wrapper per
// kind of value.

static inline CURLcode quire_curl_set_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode quire_curl_set_text(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode quire_curl_set_list(CURL *handle, CURLoption option, struct curl_slist *list) {
    return curl_easy_setopt(handle, option, list);
}

/// The request body: `length` bytes at `bytes`, which must live until the transfer ends.
static inline CURLcode quire_curl_set_body(CURL *handle, const void *bytes, long length) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_POSTFIELDSIZE, length);
    return code != CURLE_OK ? code : curl_easy_setopt(handle, CURLOPT_POSTFIELDS, bytes);
}

typedef size_t (*quire_curl_data_callback)(char *data, size_t size, size_t count, void *context);
typedef int (*quire_curl_progress_callback)(void *context, curl_off_t, curl_off_t, curl_off_t, curl_off_t);

/// Where the body (`body`) and the header lines (`header`) go, and the progress callback that
/// can abort the transfer, each with `context`.
static inline CURLcode quire_curl_set_callbacks(CURL *handle, quire_curl_data_callback body, quire_curl_data_callback header,
                                                quire_curl_progress_callback progress, void *context) {
    CURLcode code = curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, body);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_WRITEDATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_HEADERFUNCTION, header);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_HEADERDATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, progress);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_XFERINFODATA, context);
    if (code == CURLE_OK) code = curl_easy_setopt(handle, CURLOPT_NOPROGRESS, 0L);
    return code;
}

static inline long quire_curl_response_code(CURL *handle) {
    long code = 0;
    curl_easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &code);
    return code;
}

/// Whether the request was written at all: no connection, or one whose request went nowhere.
static inline long quire_curl_bytes_sent(CURL *handle) {
    curl_off_t sent = 0;
    curl_easy_getinfo(handle, CURLINFO_SIZE_UPLOAD_T, &sent);
    long header = 0;
    curl_easy_getinfo(handle, CURLINFO_REQUEST_SIZE, &header);
    return (long)sent + header;
}

#endif
