#include "core/endpoint/http_pool.h"

#include "core/common/error.h"

#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string_view>

namespace probaudit::endpoint {

namespace {

using Clock = std::chrono::steady_clock;

constexpr double kMaxBackoffSeconds = 8;
constexpr double kMaxRetryAfterSeconds = 60;

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

std::string trim(std::string s) {
    const auto notSpace = [](unsigned char c) { return !std::isspace(c); };
    s.erase(s.begin(), std::find_if(s.begin(), s.end(), notSpace));
    s.erase(std::find_if(s.rbegin(), s.rend(), notSpace).base(), s.end());
    return s;
}

void globalInit() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
            throw Error("libcurl could not be initialised");
        }
    });
}

// One request on its way: the easy handle is kept across retries (and its connection reused).
struct Transfer {
    std::size_t index = 0;
    const HttpRequest* request = nullptr;
    CURL* easy = nullptr;
    HttpResult result;
    std::string body;
    std::vector<std::pair<std::string, std::string>> headers;
    double sent = 0, firstByte = -1;
    bool tooBig = false;
    bool tooMuchInFlight = false;    // the pool's replies together passed max_total_reply_bytes
    bool warming = false;            // the warm-up body is on its way
    bool waiting = false;            // for a retry at retryAt
    int requestsOut = 0;             // request lines libcurl sent in this attempt (onDebug)
    std::vector<HttpAttempt> resent; // sends libcurl made again by itself, in this attempt
    Clock::time_point retryAt;
    char errorBuffer[CURL_ERROR_SIZE] = {};
    std::size_t maxBytes = 0;
    std::size_t* inFlight = nullptr; // the bytes of every reply the pool is receiving
    std::size_t maxInFlight = 0;
    std::size_t counted = 0; // this attempt's share of *inFlight
    const Clock::time_point* t0 = nullptr;

    CURLM* inMulti = nullptr; // the multi handle it is added to, while it is

    ~Transfer() {
        release();
        if (inMulti != nullptr) { // an exception left it in flight (a sink that threw)
            curl_multi_remove_handle(inMulti, easy);
        }
        if (easy != nullptr) {
            curl_easy_cleanup(easy);
        }
    }
    double now() const { return std::chrono::duration<double>(Clock::now() - *t0).count(); }
    // This attempt's reply no longer counts against the pool's bytes in flight.
    void release() {
        if (inFlight != nullptr) {
            *inFlight -= counted;
        }
        counted = 0;
    }
};

std::size_t onBody(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const std::size_t bytes = size * n;
    if (t->firstByte < 0) {
        t->firstByte = t->now();
    }
    if (t->body.size() + bytes > t->maxBytes) {
        t->tooBig = true;
        return 0; // libcurl ends the transfer with CURLE_WRITE_ERROR
    }
    if (*t->inFlight + bytes > t->maxInFlight) {
        t->tooMuchInFlight = true;
        return 0;
    }
    *t->inFlight += bytes;
    t->counted += bytes;
    t->body.append(data, bytes);
    return bytes;
}

std::size_t onHeader(char* data, std::size_t size, std::size_t n, void* user) {
    auto* t = static_cast<Transfer*>(user);
    const std::size_t bytes = size * n;
    if (t->firstByte < 0) {
        t->firstByte = t->now();
    }
    const std::string line(data, bytes);
    if (line.rfind("HTTP/", 0) == 0) {
        t->headers.clear(); // a new response (after 100 Continue): its headers only
    } else if (const auto colon = line.find(':'); colon != std::string::npos) {
        t->headers.emplace_back(lower(trim(line.substr(0, colon))), trim(line.substr(colon + 1)));
    }
    return bytes;
}

// libcurl sends a request again by itself, on a new connection, when a kept-alive connection it
// reused was closed by the server before any byte of a reply came ("Connection died, retrying a
// fresh connect"). Each request line it sends is seen here, so every such send is recorded as
// an attempt of its own that got no reply.
int onDebug(CURL*, curl_infotype type, char* data, std::size_t size, void* user) {
    auto* t = static_cast<Transfer*>(user);
    if (type != CURLINFO_HEADER_OUT) {
        return 0;
    }
    const std::string_view head(data, size);
    if (head.rfind("POST ", 0) != 0 && head.rfind("GET ", 0) != 0) {
        return 0; // a proxy's CONNECT, or the rest of a header sent in parts
    }
    if (t->requestsOut++ > 0) {
        HttpAttempt a;
        a.sent = t->sent;
        a.done = t->now();
        a.error = "the server closed the kept-alive connection before replying; libcurl sent "
                  "the request again on a new connection";
        t->sent = a.done;
        t->resent.push_back(std::move(a));
    }
    return 0;
}

// The seconds a 429 or 503 reply asks to wait (Retry-After in seconds), or -1.
double retryAfter(const Transfer& t) {
    for (const auto& [name, value] : t.headers) {
        if (name == "retry-after") {
            char* end = nullptr;
            const double s = std::strtod(value.c_str(), &end);
            if (end != value.c_str() && std::isfinite(s) && s >= 0) {
                return std::min(s, kMaxRetryAfterSeconds);
            }
        }
    }
    return -1;
}

} // namespace

bool retriable(long status, bool replied) {
    return !replied || status == 429 || (status >= 500 && status <= 599);
}

std::string HttpResult::header(const std::string& lowerName) const {
    for (const auto& [name, value] : headers) {
        if (name == lowerName) {
            return value;
        }
    }
    return {};
}

struct HttpPool::Impl {
    PoolOptions opt;
    CURLM* multi = nullptr;
    curl_slist* headerList = nullptr;
    Clock::time_point t0 = Clock::now();
    std::size_t inFlightBytes = 0; // every reply being received, together

    Impl() = default;
    Impl(const Impl&) = delete;
    Impl& operator=(const Impl&) = delete;
    ~Impl();
    void configure(Transfer& t) const;
    void startAttempt(Transfer& t);
    // After an attempt ended: true when the transfer is done (no retry).
    bool endAttempt(Transfer& t, CURLcode code);
};

HttpPool::HttpPool(PoolOptions options) : m_impl(std::make_unique<Impl>()) {
    globalInit();
    m_impl->opt = std::move(options);
    if (m_impl->opt.concurrency < 1) {
        throw Error("the number of requests in flight must be at least 1");
    }
    m_impl->multi = curl_multi_init();
    // No "Expect: 100-continue" round trip before a request body: it would add a wait to every
    // request's time at the server.
    m_impl->headerList = curl_slist_append(m_impl->headerList, "Expect:");
    m_impl->headerList = curl_slist_append(m_impl->headerList, "Content-Type: application/json");
    for (const auto& h : m_impl->opt.headers) {
        m_impl->headerList = curl_slist_append(m_impl->headerList, h.c_str());
    }
    if (m_impl->multi == nullptr || m_impl->headerList == nullptr) {
        throw Error("libcurl could not start a transfer pool");
    }
}

HttpPool::~HttpPool() = default;

HttpPool::Impl::~Impl() {
    if (multi != nullptr) {
        curl_multi_cleanup(multi);
    }
    curl_slist_free_all(headerList);
}

void HttpPool::Impl::configure(Transfer& t) const {
    CURL* e = curl_easy_init();
    if (e == nullptr) {
        throw Error("libcurl could not start a transfer");
    }
    t.easy = e;
    curl_easy_setopt(e, CURLOPT_URL, t.request->url.c_str());
    curl_easy_setopt(e, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(e, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(e, CURLOPT_HTTPHEADER, headerList);
    curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, long(opt.timeout_seconds * 1000));
    curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, long(opt.connect_timeout_seconds * 1000));
    curl_easy_setopt(e, CURLOPT_WRITEFUNCTION, onBody);
    curl_easy_setopt(e, CURLOPT_WRITEDATA, &t);
    curl_easy_setopt(e, CURLOPT_HEADERFUNCTION, onHeader);
    curl_easy_setopt(e, CURLOPT_HEADERDATA, &t);
    curl_easy_setopt(e, CURLOPT_ERRORBUFFER, t.errorBuffer);
    curl_easy_setopt(e, CURLOPT_PRIVATE, &t);
    curl_easy_setopt(e, CURLOPT_DEBUGFUNCTION, onDebug);
    curl_easy_setopt(e, CURLOPT_DEBUGDATA, &t);
    curl_easy_setopt(e, CURLOPT_VERBOSE, 1L); // the debug function sees each request sent
}

void HttpPool::Impl::startAttempt(Transfer& t) {
    t.release();
    t.body.clear();
    t.headers.clear();
    t.tooBig = false;
    t.tooMuchInFlight = false;
    t.waiting = false;
    t.firstByte = -1;
    t.requestsOut = 0;
    t.resent.clear();
    t.errorBuffer[0] = '\0';
    const std::string& body = t.warming ? t.request->warmup : t.request->body;
    if (!body.empty()) {
        curl_easy_setopt(t.easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        curl_easy_setopt(t.easy, CURLOPT_POSTFIELDS, body.data());
    } else {
        curl_easy_setopt(t.easy, CURLOPT_HTTPGET, 1L);
    }
    t.sent = t.now();
    if (curl_multi_add_handle(multi, t.easy) == CURLM_OK) {
        t.inMulti = multi;
    } else {
        throw Error("libcurl could not send a request");
    }
}

bool HttpPool::Impl::endAttempt(Transfer& t, CURLcode code) {
    curl_multi_remove_handle(multi, t.easy);
    t.inMulti = nullptr;
    HttpAttempt a;
    a.sent = t.sent;
    a.first_byte = t.firstByte;
    a.done = t.now();
    if (code == CURLE_OK) {
        curl_easy_getinfo(t.easy, CURLINFO_RESPONSE_CODE, &a.status);
    } else if (t.tooBig) {
        a.error = "the reply is larger than " + std::to_string(t.maxBytes >> 20) +
                  " MiB, more than the request can need";
    } else if (t.tooMuchInFlight) {
        a.error = "the replies in flight together are larger than " +
                  std::to_string(opt.max_total_reply_bytes >> 20) + " MiB";
    } else {
        a.error = t.errorBuffer[0] != '\0' ? std::string(t.errorBuffer) : curl_easy_strerror(code);
    }
    const double asked = retryAfter(t); // before the headers move into the result
    t.release();
    HttpResult& r = t.result;
    std::vector<HttpAttempt>& tries = t.warming ? r.warmup_attempts : r.attempts;
    tries.insert(tries.end(), t.resent.begin(), t.resent.end());
    tries.push_back(a);
    r.status = a.status;
    r.error = a.error;
    r.body = std::move(t.body);
    r.headers = std::move(t.headers);
    const int retriesDone = int(tries.size()) - 1;
    const bool hopeless = t.tooBig || t.tooMuchInFlight; // the same reply again would be too
    if (hopeless || !retriable(a.status, a.error.empty()) || retriesDone >= opt.max_retries) {
        if (t.warming && a.error.empty() && !hopeless) { // warmed: now the request proper
            t.warming = false;
            startAttempt(t);
            t.retryAt = Clock::now();
            return false;
        }
        if (t.warming) {
            r.error = "the warm-up request: " + r.error;
        }
        return true;
    }
    // A server's Retry-After is honoured up to the study's own timeout of one attempt: a study
    // that gives a request 4 s does not wait a minute because a server asked it to.
    const double wait =
        asked >= 0 ? std::min(asked, opt.timeout_seconds)
                   : std::min(opt.backoff_seconds * std::pow(2.0, retriesDone), kMaxBackoffSeconds);
    t.waiting = true;
    t.retryAt = Clock::now() +
                std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(wait));
    return false;
}

std::size_t HttpPool::run(const std::vector<HttpRequest>& requests,
                          const std::vector<std::size_t>& order,
                          const std::function<bool(std::size_t, HttpResult&&)>& onDone,
                          const std::atomic<bool>* stop) {
    Impl& p = *m_impl;
    std::vector<std::unique_ptr<Transfer>> active;
    std::size_t next = 0, reported = 0;
    bool sending = true;
    while (true) {
        if (stop != nullptr && stop->load()) {
            sending = false;
        }
        while (sending && int(active.size()) < p.opt.concurrency && next < order.size()) {
            auto t = std::make_unique<Transfer>();
            t->index = order[next++];
            t->request = &requests.at(t->index);
            t->maxBytes = t->request->max_reply_bytes == 0
                              ? p.opt.max_reply_bytes
                              : std::min(t->request->max_reply_bytes, p.opt.max_reply_bytes);
            t->inFlight = &p.inFlightBytes;
            t->maxInFlight = p.opt.max_total_reply_bytes;
            t->t0 = &p.t0;
            t->warming = !t->request->warmup.empty();
            p.configure(*t);
            p.startAttempt(*t);
            active.push_back(std::move(t));
        }
        if (active.empty()) {
            return reported;
        }
        auto wake = Clock::now() + std::chrono::seconds(1);
        for (auto& t : active) {
            if (t->waiting) {
                if (Clock::now() >= t->retryAt) {
                    p.startAttempt(*t);
                } else {
                    wake = std::min(wake, t->retryAt);
                }
            }
        }
        int running = 0;
        curl_multi_perform(p.multi, &running);
        int queued = 0;
        bool ended = false; // a slot is free: fill it before waiting
        while (CURLMsg* msg = curl_multi_info_read(p.multi, &queued)) {
            if (msg->msg != CURLMSG_DONE) {
                continue;
            }
            Transfer* t = nullptr;
            curl_easy_getinfo(msg->easy_handle, CURLINFO_PRIVATE, &t);
            if (!p.endAttempt(*t, msg->data.result)) {
                wake = std::min(wake, t->retryAt);
                continue;
            }
            const auto it = std::find_if(active.begin(), active.end(),
                                         [t](const auto& a) { return a.get() == t; });
            ended = true;
            std::unique_ptr<Transfer> done = std::move(*it);
            active.erase(it);
            ++reported;
            if (!onDone(done->index, std::move(done->result))) {
                sending = false;
            }
        }
        if (!ended) {
            const auto ms =
                std::chrono::duration_cast<std::chrono::milliseconds>(wake - Clock::now()).count();
            curl_multi_poll(p.multi, nullptr, 0, int(std::clamp<long>(ms, 0, 1000)), nullptr);
        }
    }
}

HttpResult HttpPool::fetch(const HttpRequest& request) {
    HttpResult out;
    run({request}, {0}, [&](std::size_t, HttpResult&& r) {
        out = std::move(r);
        return true;
    });
    return out;
}

} // namespace probaudit::endpoint
