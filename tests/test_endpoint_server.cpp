// The endpoint client against a real server (tests/endpoint_servers.h): llama-cpp-python's
// OpenAI server with the demo GGUF, and the fault proxy in front of it. What is checked: the
// reply forms both APIs really have, the decisions they give, that a run at concurrency N has
// exactly N requests in flight and sends them in the order asked, and that faults are retried,
// recorded and reported as they should be.
#include "core/endpoint/http_pool.h"
#include "core/endpoint/label_decision.h"
#include "core/endpoint/openai_api.h"
#include "endpoint_servers.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <map>

using namespace probaudit;
using namespace probaudit::endpoint;
using namespace endpoint_test;

namespace {

const std::string kPrompt =
    "<|im_start|>user\nIs the sentiment of this review positive? Answer Yes or No.\nReview: %1"
    "<|im_end|>\n<|im_start|>assistant\n";

std::string prompt(const std::string& review) {
    std::string p = kPrompt;
    p.replace(p.find("%1"), 2, review);
    return p;
}

EndpointSpec spec(const std::string& base, const std::string& api = "completions") {
    EndpointSpec e;
    e.url = base;
    e.model = "smollm2";
    e.api = api;
    return e;
}

HttpRequest completionRequest(const EndpointSpec& e, const std::string& text, int maxTokens,
                              int top) {
    CompletionRequest r;
    r.prompt = text;
    r.max_tokens = maxTokens;
    r.top_logprobs = top;
    return HttpRequest::post(e.endpointUrl(e.api == "chat" ? "chat/completions" : "completions"),
                             requestBody(e, r));
}

// The most requests in flight at once, from the attempts' send and done times.
int maxInFlight(const std::vector<HttpResult>& results) {
    std::vector<std::pair<double, int>> events;
    for (const auto& r : results) {
        events.emplace_back(r.attempts.front().sent, +1);
        events.emplace_back(r.attempts.back().done, -1);
    }
    std::sort(events.begin(), events.end()); // at equal times an end (-1) comes first
    int now = 0, most = 0;
    for (const auto& [t, d] : events) {
        now += d;
        most = std::max(most, now);
    }
    return most;
}

const std::vector<std::string> kReviews = {"Great phone, works perfectly.",
                                           "Terrible, it broke after a day.",
                                           "I love it.",
                                           "Waste of money.",
                                           "Exactly as described.",
                                           "The battery died in an hour.",
                                           "Best purchase this year.",
                                           "Would not recommend it.",
                                           "Sound quality is superb.",
                                           "It stopped charging.",
                                           "Fits well and looks good.",
                                           "Customer service never answered."};

// The first `n` reviews' completion requests (2 tokens, no alternatives) sent in order through
// the server at `base` by a pool made with `o`: each request's result.
std::vector<HttpResult> sendReviews(const std::string& base, std::size_t n, const PoolOptions& o) {
    const EndpointSpec e = spec(base);
    std::vector<HttpRequest> requests;
    std::vector<std::size_t> order;
    for (std::size_t k = 0; k < n; ++k) {
        requests.push_back(completionRequest(e, prompt(kReviews[k]), 2, 0));
        order.push_back(k);
    }
    HttpPool pool(o);
    std::vector<HttpResult> results(requests.size());
    pool.run(requests, order, [&](std::size_t i, HttpResult&& r) {
        results[i] = std::move(r);
        return true;
    });
    return results;
}

} // namespace

class TestEndpointServer : public QObject {
    Q_OBJECT
    LlamaCppServer m_server;

private Q_SLOTS:
    void initTestCase() {
        if (const QString why = LlamaCppServer::unavailable(); !why.isEmpty()) {
            QSKIP(qPrintable(why));
        }
        QVERIFY2(m_server.start(), qPrintable(m_server.log()));
    }
    void cleanupTestCase() { m_server.stop(); }

    void listsItsModel() {
        HttpPool pool({});
        const HttpResult r = pool.fetch(HttpRequest::get(m_server.base() + "/models"));
        QCOMPARE(r.status, 200L);
        const auto ids = parseModelList(r.body);
        QVERIFY(std::find(ids.begin(), ids.end(), "smollm2") != ids.end());
        QVERIFY(!r.header("server").empty()); // part of an endpoint's environment
    }

    // Both API forms give a label-token decision from the first token's alternatives; the
    // renormalised p of the two labels adds up to 1 and the decision is the likelier label.
    void labelDecisionsFromBothForms() {
        HttpPool pool({});
        const EndpointSpec completions = spec(m_server.base());
        const HttpResult r = pool.fetch(completionRequest(completions, prompt(kReviews[0]), 1, 10));
        QVERIFY2(r.status == 200, r.body.c_str());
        const Completion c = parseCompletion(r.body, "completions");
        QVERIFY(c.logprobs());
        QCOMPARE(c.steps.size(), std::size_t(1));
        QVERIFY(c.steps[0].top.size() >= 10);
        const LabelDecision d = decideLabels(c.steps[0], {"No", "Yes"});
        QCOMPARE(d.missing, 0);
        QVERIFY(d.decision >= 0);
        QVERIFY(std::abs(d.probs[0] + d.probs[1] - 1) < 1e-9);
        QVERIFY(d.probs[d.decision] >= 0.5);
        QVERIFY(d.margin >= 0);

        const EndpointSpec chat = spec(m_server.base(), "chat");
        const HttpResult rc = pool.fetch(completionRequest(
            chat,
            "Is the sentiment of this review positive? Answer Yes or No.\nReview: " + kReviews[1],
            1, 5));
        QVERIFY2(rc.status == 200, rc.body.c_str());
        const Completion cc = parseCompletion(rc.body, "chat");
        QVERIFY(cc.logprobs());
        QVERIFY(!cc.steps[0].top.empty());
        QCOMPARE(cc.steps[0].top.front().logprob, *cc.steps[0].logprob); // greedy: the best one
    }

    // Concurrency N: exactly N in flight whenever N are left, never more, sent in the order
    // asked. The server runs one at a time, so the others wait at the server, not at the client.
    void concurrencyIsExact_data() {
        QTest::addColumn<int>("concurrency");
        QTest::newRow("1") << 1;
        QTest::newRow("3") << 3;
        QTest::newRow("12") << 12;
    }
    void concurrencyIsExact() {
        QFETCH(int, concurrency);
        const EndpointSpec e = spec(m_server.base());
        std::vector<HttpRequest> requests;
        for (const auto& review : kReviews) {
            requests.push_back(completionRequest(e, prompt(review), 4, 0));
        }
        const std::vector<std::size_t> order = {5, 0, 11, 3, 8, 1, 10, 2, 7, 4, 9, 6};
        PoolOptions o;
        o.concurrency = concurrency;
        HttpPool pool(o);
        std::vector<HttpResult> results(requests.size());
        std::vector<std::size_t> doneOrder;
        const std::size_t n = pool.run(requests, order, [&](std::size_t i, HttpResult&& r) {
            results[i] = std::move(r);
            doneOrder.push_back(i);
            return true;
        });
        QCOMPARE(n, requests.size());
        for (const auto& r : results) {
            QCOMPARE(r.status, 200L);
            QCOMPARE(r.attempts.size(), std::size_t(1));
            QVERIFY(r.attempts[0].first_byte >= r.attempts[0].sent);
            QVERIFY(r.attempts[0].done >= r.attempts[0].first_byte);
        }
        QCOMPARE(maxInFlight(results), concurrency);
        for (std::size_t k = 1; k < order.size(); ++k) { // sent in the order asked
            QVERIFY(results[order[k]].attempts[0].sent >= results[order[k - 1]].attempts[0].sent);
        }
        if (concurrency == 1) {
            QCOMPARE(doneOrder, order);
        }
    }

    // 503 and 429 with Retry-After, a reset connection, a reply cut off in transit: retried,
    // each attempt recorded, the request still answered. A reply that is not JSON is reported.
    void faultsAreRetriedAndRecorded() {
        FaultProxy proxy;
        QVERIFY(
            proxy.start(m_server.port(), QStringLiteral(R"({"1": "503", "2": "429", "3": "reset",
                                               "5": "garbage", "6": "truncate"})")));
        PoolOptions o;
        o.backoff_seconds = 0.05;
        const std::vector<HttpResult> results = sendReviews(proxy.base(), 3, o);
        // Request 0 met 503, 429 and a reset (POSTs 1-3) and got its reply on the fourth try.
        QCOMPARE(results[0].attempts.size(), std::size_t(4));
        QCOMPARE(results[0].attempts[0].status, 503L);
        QCOMPARE(results[0].attempts[1].status, 429L);
        QCOMPARE(results[0].attempts[2].status, 0L);
        QVERIFY(!results[0].attempts[2].error.empty());
        QCOMPARE(results[0].status, 200L);
        QVERIFY_THROWS_NO_EXCEPTION(parseCompletion(results[0].body, "completions"));
        // Request 1 got garbage: not retried (a reply came), one sentence with a snippet.
        QCOMPARE(results[1].status, 200L);
        QCOMPARE(results[1].attempts.size(), std::size_t(1));
        try {
            parseCompletion(results[1].body, "completions");
            QFAIL("garbage accepted");
        } catch (const ReplyError& err) {
            QVERIFY(std::string(err.what()).find("<html>oops") != std::string::npos);
        }
        // Request 2's reply was cut off in transit (fewer bytes than announced): a transport
        // error, tried again.
        QCOMPARE(results[2].attempts.size(), std::size_t(2));
        QCOMPARE(results[2].attempts[0].status, 0L);
        QVERIFY(!results[2].attempts[0].error.empty());
        QCOMPARE(results[2].status, 200L);
        QVERIFY_THROWS_NO_EXCEPTION(parseCompletion(results[2].body, "completions"));
    }

    // A server that closes a kept-alive connection when the next request arrives, without a
    // reply: libcurl sends that request again on a new connection by itself. The server saw it
    // twice, so the result has two attempts (the first without a reply, saying why): the proxy
    // numbers POSTs as it receives them, and the garbage it gives POST 4 is request 2's reply.
    void libcurlsOwnResendIsRecorded() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"2": "reset", "4": "garbage"})")));
        PoolOptions o;
        o.backoff_seconds = 0.05;
        const std::vector<HttpResult> results = sendReviews(proxy.base(), 3, o);
        QCOMPARE(results[0].attempts.size(), std::size_t(1));
        QCOMPARE(results[1].attempts.size(), std::size_t(2));
        QCOMPARE(results[1].attempts[0].status, 0L);
        QVERIFY2(results[1].attempts[0].error.find("sent the request again") != std::string::npos,
                 results[1].attempts[0].error.c_str());
        QVERIFY(results[1].attempts[0].done <= results[1].attempts[1].sent);
        QCOMPARE(results[1].status, 200L);
        QVERIFY_THROWS_NO_EXCEPTION(parseCompletion(results[1].body, "completions"));
        QCOMPARE(results[2].attempts.size(), std::size_t(1));
        QVERIFY2(results[2].body.find("<html>oops") != std::string::npos, results[2].body.c_str());
    }

    // Four replies of 6 MiB in flight together, each half sent, then the rest a second later:
    // under a total of 8 MiB for the pool some attempt passes it and ends saying so (not
    // retried: the same reply would again be too much); under the default, all four come.
    void repliesInFlightHaveATotalBound() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"*": "pad:6"})")));
        const auto runAll = [&](std::size_t total) {
            PoolOptions o;
            o.concurrency = 4;
            o.max_total_reply_bytes = total;
            return sendReviews(proxy.base(), 4, o);
        };
        int cut = 0;
        for (const HttpResult& r : runAll(std::size_t(8) << 20)) {
            if (!r.replied()) {
                ++cut;
                QVERIFY2(r.error.find("in flight together are larger than 8 MiB") !=
                             std::string::npos,
                         r.error.c_str());
                QCOMPARE(r.attempts.size(), std::size_t(1));
            }
        }
        QVERIFY(cut >= 1);
        for (const HttpResult& r : runAll(PoolOptions().max_total_reply_bytes)) {
            QVERIFY2(r.replied(), r.error.c_str());
            QCOMPARE(parseCompletion(r.body, "completions").text, std::string("ok"));
        }
    }

    // A Retry-After of an hour is honoured only up to the study's timeout of one attempt (here
    // 2 s; the cap was 60 s whatever the timeout).
    void retryAfterStaysWithinTheTimeout() {
        FaultProxy proxy;
        QVERIFY(proxy.start(m_server.port(), QStringLiteral(R"({"1": "503:3600"})")));
        const EndpointSpec e = spec(proxy.base());
        PoolOptions o;
        o.timeout_seconds = 2;
        HttpPool pool(o);
        std::vector<HttpResult> results(1);
        pool.run({completionRequest(e, prompt(kReviews[0]), 2, 0)}, {0},
                 [&](std::size_t i, HttpResult&& r) {
                     results[i] = std::move(r);
                     return true;
                 });
        QCOMPARE(results[0].attempts.size(), std::size_t(2));
        QCOMPARE(results[0].attempts[0].status, 503L);
        QCOMPARE(results[0].status, 200L);
        const double waited = results[0].attempts[1].sent - results[0].attempts[0].done;
        QVERIFY2(waited >= 1.5 && waited <= 2 + 1, qPrintable(QString::number(waited)));
    }

    // A warm prefix cache: the same prompt goes first in the request's own slot, then the
    // request proper; both are timed, and the slot is held throughout.
    void warmupGoesFirstInItsSlot() {
        const EndpointSpec e = spec(m_server.base());
        std::vector<HttpRequest> requests;
        for (int k = 0; k < 4; ++k) {
            HttpRequest r = completionRequest(e, prompt(kReviews[std::size_t(k)]), 1, 0);
            r.warmup = r.body;
            requests.push_back(r);
        }
        PoolOptions o;
        o.concurrency = 2;
        HttpPool pool(o);
        std::vector<HttpResult> results(requests.size());
        pool.run(requests, {0, 1, 2, 3}, [&](std::size_t i, HttpResult&& r) {
            results[i] = std::move(r);
            return true;
        });
        std::vector<HttpResult> busy; // a slot is busy from the warm-up's send to the end
        for (const auto& r : results) {
            QCOMPARE(r.status, 200L);
            QCOMPARE(r.warmup_attempts.size(), std::size_t(1));
            QCOMPARE(r.warmup_attempts[0].status, 200L);
            QCOMPARE(r.attempts.size(), std::size_t(1));
            QVERIFY(r.warmup_attempts[0].done <= r.attempts[0].sent);
            HttpResult b;
            b.attempts = {r.warmup_attempts[0], r.attempts[0]};
            busy.push_back(b);
        }
        QCOMPARE(maxInFlight(busy), 2);
    }

    // A timeout is retried like a reset; when every try times out the request reports it.
    void timeoutsEndARequest() {
        FaultProxy proxy;
        QVERIFY(
            proxy.start(m_server.port(), QStringLiteral(R"({"1": "delay:3", "2": "delay:3"})")));
        PoolOptions o;
        o.timeout_seconds = 1;
        o.max_retries = 1;
        o.backoff_seconds = 0.05;
        HttpPool pool(o);
        const HttpResult r =
            pool.fetch(completionRequest(spec(proxy.base()), prompt(kReviews[0]), 1, 0));
        QVERIFY(!r.replied());
        QCOMPARE(r.attempts.size(), std::size_t(2));
        QVERIFY2(r.error.find("imed out") != std::string::npos, r.error.c_str());
    }

    // Stopping sends nothing more; what is in flight ends and is reported.
    void stopEndsAfterTheRequestsInFlight() {
        const EndpointSpec e = spec(m_server.base());
        std::vector<HttpRequest> requests;
        std::vector<std::size_t> order;
        for (std::size_t k = 0; k < kReviews.size(); ++k) {
            requests.push_back(completionRequest(e, prompt(kReviews[k]), 2, 0));
            order.push_back(k);
        }
        PoolOptions o;
        o.concurrency = 2;
        HttpPool pool(o);
        std::size_t seen = 0;
        const std::size_t n = pool.run(requests, order, [&](std::size_t, HttpResult&& r) {
            [&] { QCOMPARE(r.status, 200L); }();
            return ++seen < 3; // stop after the third
        });
        QCOMPARE(n, seen);
        QVERIFY(n >= 3 && n <= 4); // the third's partner in flight is reported too
    }
};

QTEST_GUILESS_MAIN(TestEndpointServer)
#include "test_endpoint_server.moc"
