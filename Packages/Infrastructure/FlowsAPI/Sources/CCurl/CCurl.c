#include "CCurl.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

// libcurl's ABI, as its header (curl/curl.h) defines it; stable since libcurl 7. Declared here
// so that building needs no development files: the library is found at run time.
typedef void CURL;
struct curl_slist;
typedef size_t (*curl_write_callback)(char *, size_t, size_t, void *);
enum {
    CURLOPT_WRITEDATA = 10001,
    CURLOPT_URL = 10002,
    CURLOPT_ERRORBUFFER = 10010,
    CURLOPT_POSTFIELDS = 10015,
    CURLOPT_HTTPHEADER = 10023,
    CURLOPT_HEADERDATA = 10029,
    CURLOPT_CUSTOMREQUEST = 10036,
    CURLOPT_ACCEPT_ENCODING = 10102,
    CURLOPT_WRITEFUNCTION = 20011,
    CURLOPT_HEADERFUNCTION = 20079,
    CURLOPT_POSTFIELDSIZE_LARGE = 30120,
    CURLOPT_TIMEOUT = 13,
    CURLOPT_NOBODY = 44,
    CURLOPT_CONNECTTIMEOUT = 78,
    CURLOPT_HTTPGET = 80,
    CURLOPT_NOSIGNAL = 99,
    CURLINFO_RESPONSE_CODE = 0x200002,
    CURL_GLOBAL_ALL = 3,
};

static struct {
    int (*global_init)(long);
    CURL *(*easy_init)(void);
    int (*easy_setopt)(CURL *, int, ...);
    int (*easy_perform)(CURL *);
    int (*easy_getinfo)(CURL *, int, ...);
    void (*easy_reset)(CURL *);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(int);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
} curl;

static pthread_once_t loading = PTHREAD_ONCE_INIT;
static const char *load_failure;
static char load_failure_text[512];

static void load(void) {
    void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libcurl.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *reason = dlerror();
        strncpy(load_failure_text, reason ? reason : "libcurl.so.4 was not found", sizeof load_failure_text - 1);
        load_failure = load_failure_text;
        return;
    }
#define FIND(field, name) \
    if (!(*(void **)&curl.field = dlsym(library, name))) { load_failure = "libcurl lacks " name; return; }
    FIND(global_init, "curl_global_init")
    FIND(easy_init, "curl_easy_init")
    FIND(easy_setopt, "curl_easy_setopt")
    FIND(easy_perform, "curl_easy_perform")
    FIND(easy_getinfo, "curl_easy_getinfo")
    FIND(easy_reset, "curl_easy_reset")
    FIND(easy_cleanup, "curl_easy_cleanup")
    FIND(easy_strerror, "curl_easy_strerror")
    FIND(slist_append, "curl_slist_append")
    FIND(slist_free_all, "curl_slist_free_all")
#undef FIND
    if (curl.global_init(CURL_GLOBAL_ALL) != 0) load_failure = "libcurl could not be initialised";
}

const char *flows_curl_load(void) {
    pthread_once(&loading, load);
    return load_failure;
}

// Handles kept between requests, so that their connections to the server are used again.
#define KEPT 8
static CURL *kept[KEPT];
static size_t kept_count;
static pthread_mutex_t kept_lock = PTHREAD_MUTEX_INITIALIZER;

static CURL *take_handle(void) {
    CURL *handle = NULL;
    pthread_mutex_lock(&kept_lock);
    if (kept_count > 0) handle = kept[--kept_count];
    pthread_mutex_unlock(&kept_lock);
    if (handle) {
        curl.easy_reset(handle);
        return handle;
    }
    return curl.easy_init();
}

static void give_back(CURL *handle) {
    pthread_mutex_lock(&kept_lock);
    if (kept_count < KEPT) {
        kept[kept_count++] = handle;
        handle = NULL;
    }
    pthread_mutex_unlock(&kept_lock);
    if (handle) curl.easy_cleanup(handle);
}

typedef struct buffer {
    char *bytes;
    size_t length;
    size_t capacity;
    int failed;
} buffer;

static int append(buffer *buffer, const char *bytes, size_t length) {
    if (buffer->length + length + 1 > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1024;
        while (buffer->length + length + 1 > capacity) capacity *= 2;
        char *grown = realloc(buffer->bytes, capacity);
        if (!grown) {
            buffer->failed = 1;
            return 0;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, bytes, length);
    buffer->length += length;
    buffer->bytes[buffer->length] = 0;
    return 1;
}

static size_t write_body(char *bytes, size_t size, size_t count, void *context) {
    return append(context, bytes, size * count) ? size * count : 0;
}

static size_t write_header(char *bytes, size_t size, size_t count, void *context) {
    buffer *headers = context;
    size_t length = size * count;
    // A status line starts the headers of an answer: only the last answer's are kept (an
    // interim "100 Continue" comes before the real one).
    if (length >= 5 && memcmp(bytes, "HTTP/", 5) == 0) {
        headers->length = 0;
        return length;
    }
    return append(headers, bytes, length) ? length : 0;
}

int flows_http_perform(
    const char *method, const char *url, const char *const *headers, size_t count,
    const void *body, size_t body_length, long timeout_seconds, flows_http_response *response
) {
    memset(response, 0, sizeof *response);
    const char *failure = flows_curl_load();
    if (failure) {
        response->curl_code = -1;
        strncpy(response->error, failure, sizeof response->error - 1);
        return -1;
    }
    CURL *handle = take_handle();
    if (!handle) {
        response->curl_code = -1;
        strncpy(response->error, "libcurl could not make a request", sizeof response->error - 1);
        return -1;
    }
    struct curl_slist *lines = NULL;
    for (size_t index = 0; index < count; index++) lines = curl.slist_append(lines, headers[index]);
    // No "Expect: 100-continue" wait before a body.
    lines = curl.slist_append(lines, "Expect:");
    buffer received = {0}, received_headers = {0};
    char error[256] = {0};

    curl.easy_setopt(handle, CURLOPT_URL, url);
    curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
    curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
    curl.easy_setopt(handle, CURLOPT_TIMEOUT, timeout_seconds);
    curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT, timeout_seconds);
    // Every encoding libcurl can read (gzip among them) is asked for and read back.
    curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
    curl.easy_setopt(handle, CURLOPT_HTTPHEADER, lines);
    curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, (curl_write_callback)write_body);
    curl.easy_setopt(handle, CURLOPT_WRITEDATA, &received);
    curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, (curl_write_callback)write_header);
    curl.easy_setopt(handle, CURLOPT_HEADERDATA, &received_headers);
    if (strcmp(method, "HEAD") == 0) {
        curl.easy_setopt(handle, CURLOPT_NOBODY, 1L);
    } else if (strcmp(method, "GET") == 0 && body_length == 0) {
        curl.easy_setopt(handle, CURLOPT_HTTPGET, 1L);
    } else {
        curl.easy_setopt(handle, CURLOPT_POSTFIELDSIZE_LARGE, (long long)body_length);
        curl.easy_setopt(handle, CURLOPT_POSTFIELDS, body_length > 0 ? body : "");
        curl.easy_setopt(handle, CURLOPT_CUSTOMREQUEST, method);
    }

    int code = curl.easy_perform(handle);
    if (code == 0 && (received.failed || received_headers.failed)) code = 27;  // CURLE_OUT_OF_MEMORY
    if (code == 0) {
        long status = 0;
        curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &status);
        response->status = status;
        response->headers = received_headers.bytes;
        response->headers_length = received_headers.length;
        response->body = received.bytes;
        response->body_length = received.length;
    } else {
        free(received.bytes);
        free(received_headers.bytes);
        response->curl_code = code;
        strncpy(response->error, error[0] ? error : curl.easy_strerror(code), sizeof response->error - 1);
    }
    curl.slist_free_all(lines);
    give_back(handle);
    return code;
}

void flows_http_response_free(flows_http_response *response) {
    free(response->headers);
    free(response->body);
    response->headers = NULL;
    response->body = NULL;
}
