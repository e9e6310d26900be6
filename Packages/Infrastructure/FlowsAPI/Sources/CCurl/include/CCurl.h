#ifndef FLOWS_CCURL_H
#define FLOWS_CCURL_H

#include <stddef.h>

/// libcurl, loaded only when a request is made: `flows` on its own store never maps it (nor
/// the dozens of libraries it needs), so it starts as fast as a program without networking.

/// An answer, or why there is none.
typedef struct flows_http_response {
    /// The HTTP status, or 0 when no answer came.
    long status;
    /// The answer's header lines as received ("Name: value\r\n" each), after its status line.
    char *headers;
    size_t headers_length;
    char *body;
    size_t body_length;
    /// libcurl's code when the request failed (0: it did not), and its words for it.
    int curl_code;
    char error[256];
} flows_http_response;

/// Loads libcurl once; NULL when it is there, else why not (the loader's words).
const char *flows_curl_load(void);

/// Sends one request and waits for its answer (blocking: call it off the async pool).
/// `headers` are `count` "Name: value" lines. Returns 0 when an answer came, else the
/// libcurl code (also in `response->curl_code`, with its words in `response->error`);
/// -1 when libcurl could not be loaded. Free the response with `flows_http_response_free`.
int flows_http_perform(
    const char *method, const char *url, const char *const *headers, size_t count,
    const void *body, size_t body_length, long timeout_seconds, flows_http_response *response
);

void flows_http_response_free(flows_http_response *response);

/// The codes of libcurl's failures that mean nothing answered, and that time ran out.
enum {
    FLOWS_CURLE_COULDNT_RESOLVE_HOST = 6,
    FLOWS_CURLE_COULDNT_CONNECT = 7,
    FLOWS_CURLE_OPERATION_TIMEDOUT = 28,
};

#endif
