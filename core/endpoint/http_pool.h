#pragma once
// HTTP requests to a model server with an exact number in flight (libcurl's multi interface,
// one thread): the requests are sent in a given order, a new one only when one in flight has
// ended, so a run at concurrency N has N requests at the server whenever N are left, and never
// more. Every attempt's send, first-byte and done times are kept (seconds since the pool
// started), so a report can show the concurrency a server really achieved. A request that got
// 429, a 5xx, a broken connection or a timeout is tried again after a backoff (doubling from
// `backoff_seconds`, or the server's Retry-After up to 60 s and never longer than the timeout of
// one attempt) and keeps its slot meanwhile.
// Connections are kept open between requests (a TLS handshake per request would cost a remote
// server's round trips); when libcurl itself sends a request again because the server had
// closed a reused connection before any byte of a reply, that send is an attempt of its own
// (no reply, its error says so): every request the server may have seen is in `attempts`.
// Credentials travel in `headers` and are never part of a result or an error message.
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace probaudit::endpoint {

struct HttpRequest {
    std::string url;  // absolute http:// or https:// URL
    std::string body; // a JSON document to POST; empty: GET
    // A body POSTed to the same URL first, in the same slot (a warm prefix cache): the request
    // proper is sent when its reply has come. Empty: none.
    std::string warmup;
    // The largest reply this request can need (0: the pool's max_reply_bytes); never above it.
    std::size_t max_reply_bytes = 0;

    static HttpRequest get(std::string url) { return {std::move(url), {}, {}}; }
    static HttpRequest post(std::string url, std::string body) {
        return {std::move(url), std::move(body), {}, 0};
    }
};

struct HttpAttempt {
    double sent = 0;        // seconds since the pool started
    double first_byte = -1; // the first byte of the reply; -1: none came
    double done = 0;
    long status = 0;   // HTTP status; 0 when no reply came
    std::string error; // transport error (libcurl's words); "" when a reply came
};

struct HttpResult {
    long status = 0;   // the last attempt's
    std::string body;  // the last attempt's reply body
    std::string error; // "" when a reply came (of any status); else why none came
    std::vector<std::pair<std::string, std::string>> headers; // names in lower case
    std::vector<HttpAttempt> attempts;                        // every try, in order
    std::vector<HttpAttempt> warmup_attempts; // the warm-up's tries (HttpRequest::warmup)
    bool replied() const { return error.empty(); }
    std::string header(const std::string& lowerName) const;
};

struct PoolOptions {
    int concurrency = 1;          // requests in flight
    double timeout_seconds = 300; // one attempt, connection to last byte
    double connect_timeout_seconds = 10;
    int max_retries = 3;              // tries after the first one
    double backoff_seconds = 0.5;     // before the first retry; doubled per retry, at most 8 s
    std::vector<std::string> headers; // "Name: value", sent with every request
    std::size_t max_reply_bytes = std::size_t(64) << 20;
    // Every reply being received, together: without it, N requests in flight could hold N times
    // max_reply_bytes. The attempt whose bytes would pass it ends with that said, not retried.
    std::size_t max_total_reply_bytes = std::size_t(32) << 20;
};

// Whether an attempt that ended this way is tried again (429, 5xx, no reply).
bool retriable(long status, bool replied);

class HttpPool {
public:
    explicit HttpPool(PoolOptions options);
    ~HttpPool();
    HttpPool(const HttpPool&) = delete;
    HttpPool& operator=(const HttpPool&) = delete;

    // Sends requests[order[0]], requests[order[1]], ... (every index once) and calls
    // onDone(index, result) on this thread as each one ends, retries done. onDone returning
    // false, or `stop` becoming true, sends nothing more: the requests in flight end and are
    // reported, the rest are not sent. Returns the number of requests reported.
    std::size_t run(const std::vector<HttpRequest>& requests, const std::vector<std::size_t>& order,
                    const std::function<bool(std::size_t, HttpResult&&)>& onDone,
                    const std::atomic<bool>* stop = nullptr);

    // One request alone (GET /v1/models and the like), with the same retries.
    HttpResult fetch(const HttpRequest& request);

private:
    struct Impl;
    std::unique_ptr<Impl> m_impl;
};

} // namespace probaudit::endpoint
