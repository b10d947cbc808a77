// The endpoint runner's pieces that need no server (core/endpoint, common/endpoint_spec): the
// study's endpoint model, the request bodies, the replies of both API forms as servers write
// them (and as broken ones do), and label-token decisions from top_logprobs.
#include "core/common/endpoint_spec.h"
#include "core/common/error.h"
#include "core/endpoint/endpoint_run.h"
#include "core/endpoint/label_decision.h"
#include "core/endpoint/openai_api.h"

#include <QTest>

#include <nlohmann/json.hpp>

#include <cmath>

using namespace probaudit;
using namespace probaudit::endpoint;
using nlohmann::json;

namespace {

std::vector<std::string> problems(const json& model) {
    std::vector<std::string> errors;
    EndpointSpec::fromJson(model, "$.model", errors);
    return errors;
}

bool mentions(const std::vector<std::string>& errors, const std::string& what) {
    for (const auto& e : errors) {
        if (e.find(what) != std::string::npos) {
            return true;
        }
    }
    return false;
}

// A legacy completions reply as llama.cpp's OpenAI server writes it: the top_logprobs dicts
// hold the alternatives plus the chosen token, in no promised order.
json completionsReply() {
    return {{"id", "cmpl-1"},
            {"model", "smollm2"},
            {"choices",
             {{{"text", " Yes."},
               {"index", 0},
               {"finish_reason", "stop"},
               {"logprobs",
                {{"tokens", {" Yes", "."}},
                 {"text_offset", {10, 14}},
                 {"token_logprobs", {-0.25, -0.5}},
                 {"top_logprobs",
                  {{{" No", -1.75}, {" Yes", -0.25}, {" Maybe", -3.0}},
                   {{".", -0.5}, {"!", -1.5}}}}}}}}},
            {"usage", {{"prompt_tokens", 12}, {"completion_tokens", 2}}}};
}

json chatReply() {
    return json::parse(R"({
        "model": "smollm2", "system_fingerprint": "fp_1",
        "choices": [{"index": 0, "finish_reason": "length",
                     "message": {"role": "assistant", "content": "No"},
                     "logprobs": {"content": [{"token": "No", "logprob": -0.125, "bytes": null,
                                               "top_logprobs": [
                                                   {"token": "No", "logprob": -0.125},
                                                   {"token": "Yes", "logprob": -2.25},
                                                   {"token": "Never", "logprob": -9999.0}]}]}}]})");
}

} // namespace

class TestEndpoint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    // The key goes into one header line: a key with a line break would add headers the study
    // never declared, so it is refused before any request; a plain key is sent as a bearer.
    void apiKeyIsOneLine() {
        const char* var = "PROBAUDIT_TEST_KEY_LINES";
        std::vector<std::string> errors;
        const EndpointSpec s = EndpointSpec::fromJson(
            {{"endpoint", "http://127.0.0.1:8000/v1"}, {"name", "m"}, {"api_key_env", var}},
            "$.model", errors);
        QVERIFY(errors.empty());
        qputenv(var, "sk-plain");
        QCOMPARE(authHeaders(s), std::vector<std::string>{"Authorization: Bearer sk-plain"});
        for (const char* bad : {"sk-1\r\nX-Injected: 1", "sk-1\nX: 2", "sk-\x1b[2J"}) {
            qputenv(var, bad);
            try {
                authHeaders(s);
                QFAIL("a key with a control character was sent");
            } catch (const Error& e) {
                QVERIFY2(std::string(e.what()).find("control character") != std::string::npos,
                         e.what());
                QVERIFY(std::string(e.what()).find("sk-") == std::string::npos); // never echoed
            }
        }
        qunsetenv(var);
    }

    // A server's error message is quoted in ProbAudit's own sentence: its control characters
    // (terminal escapes, line breaks that would fake a line of ProbAudit's) are escaped.
    void serverMessagesAreEscaped() {
        QCOMPARE(serverMessage("{\"error\": {\"message\": \"\\u001b[2Jgone\\nledger verified\"}}"),
                 std::string("\\x1b[2Jgone\\x0aledger verified"));
        QCOMPARE(serverMessage("{\"detail\": \"tab\\there\"}"), std::string("tab\\x09here"));
        QCOMPARE(serverMessage("{\"error\": \"plain words, ünïcode\"}"),
                 std::string("plain words, ünïcode"));
    }

    // A huge reply is read in time linear in its size: 800,000 empty objects (2.4 MB) and a
    // model list of 10^6 entries took minutes with the parser callback that bounded nesting.
    // (A quadratic parser runs past this suite's ctest timeout here.)
    // Replies made of many small values parse in linear time, and a tree past
    // kMaxJsonTreeBytes is refused while it is read (a 10^6-model list would be ~250 MiB).
    void hugeRepliesParseLinearly() {
        std::string many = "{\"choices\": [";
        for (int i = 0; i < 800000; ++i) {
            many += i == 0 ? "{}" : ",{}";
        }
        many += "]}";
        QVERIFY_THROWS_EXCEPTION(ReplyError, parseCompletion(many, "completions"));
        const auto modelList = [](int n) {
            std::string models = "{\"object\": \"list\", \"data\": [";
            for (int i = 0; i < n; ++i) {
                models +=
                    (i == 0 ? "" : ",") + std::string("{\"id\": \"m") + std::to_string(i) + "\"}";
            }
            return models + "]}";
        };
        const auto ids = parseModelList(modelList(100000));
        QCOMPARE(ids.size(), std::size_t(100000));
        QCOMPARE(ids.back(), std::string("m99999"));
        try {
            parseModelList(modelList(1000000));
            QFAIL("a model list of 10^6 entries was read");
        } catch (const ReplyError& e) {
            QVERIFY2(std::string(e.what()).find("more than 128 MiB once read") != std::string::npos,
                     e.what());
        }
    }

    void studyModelIsValidated() {
        std::vector<std::string> errors;
        const EndpointSpec s = EndpointSpec::fromJson({{"endpoint", "http://127.0.0.1:8000/v1/"},
                                                       {"name", "smollm2"},
                                                       {"api", "chat"},
                                                       {"api_key_env", "OPENAI_API_KEY"},
                                                       {"labels", {{"server", "llama.cpp"}}},
                                                       {"temperature", 0}},
                                                      "$.model", errors);
        QVERIFY2(errors.empty(), errors.empty() ? "" : errors.front().c_str());
        QCOMPARE(s.url, std::string("http://127.0.0.1:8000/v1")); // trailing slash dropped
        QCOMPARE(s.endpointUrl("chat/completions"),
                 std::string("http://127.0.0.1:8000/v1/chat/completions"));
        QCOMPARE(s.labels.at("server"), std::string("llama.cpp"));
        QVERIFY(!s.toJson().dump().empty());

        QVERIFY(mentions(problems({{"endpoint", "http://u:secret@host/v1"}, {"name", "m"}}),
                         "must not carry credentials"));
        QVERIFY(mentions(problems({{"endpoint", "ftp://host/v1"}, {"name", "m"}}),
                         "http:// or https://"));
        QVERIFY(mentions(problems({{"endpoint", "http://host/v1"}}), "$.model.name: missing"));
        QVERIFY(mentions(problems({{"endpoint", "http://h/v1"}, {"name", "m"}, {"api", "rpc"}}),
                         "$.model.api"));
        QVERIFY(mentions(
            problems({{"endpoint", "http://h/v1"}, {"name", "m"}, {"api_key_env", "sk-123 x"}}),
            "must name an environment variable"));
        const auto hot =
            problems({{"endpoint", "http://h/v1"}, {"name", "m"}, {"temperature", 0.7}});
        QVERIFY(mentions(hot, "$.model.temperature: must be 0"));
        QVERIFY(mentions(hot, "greedy")); // says why
        QVERIFY(
            mentions(problems({{"endpoint", "http://h/v1"}, {"name", "m"}, {"top_logprobs", 21}}),
                     "$.model.top_logprobs"));
        QVERIFY(mentions(problems({{"endpoint", "http://h/v1"}, {"name", "m"}, {"port", 1}}),
                         "$.model.port: unknown field"));
    }

    void requestBodiesAreGreedy() {
        EndpointSpec e;
        e.model = "m";
        CompletionRequest r;
        r.prompt = "Review: fine";
        r.max_tokens = 1;
        r.top_logprobs = 5;
        r.seed = 7;
        json c = json::parse(requestBody(e, r));
        QCOMPARE(c.at("temperature").get<int>(), 0);
        QCOMPARE(c.at("logprobs").get<int>(), 5);
        QCOMPARE(c.at("prompt").get<std::string>(), r.prompt);
        QCOMPARE(c.at("seed").get<int>(), 7);
        QVERIFY(!c.contains("stop"));
        e.api = "chat";
        r.stop = {"\n"};
        c = json::parse(requestBody(e, r));
        QCOMPARE(c.at("temperature").get<int>(), 0);
        QCOMPARE(c.at("logprobs").get<bool>(), true);
        QCOMPARE(c.at("top_logprobs").get<int>(), 5);
        QCOMPARE(c.at("messages")[0].at("content").get<std::string>(), r.prompt);
        QCOMPARE(c.at("stop")[0].get<std::string>(), std::string("\n"));
        r.top_logprobs = 0;
        QVERIFY(!json::parse(requestBody(e, r)).contains("logprobs"));
    }

    void completionsReplyIsRead() {
        const Completion c = parseCompletion(completionsReply().dump(), "completions");
        QCOMPARE(c.text, std::string(" Yes."));
        QCOMPARE(c.finish, std::string("stop"));
        QCOMPARE(c.model, std::string("smollm2"));
        QCOMPARE(c.prompt_tokens, std::int64_t(12));
        QVERIFY(c.logprobs());
        QCOMPARE(c.steps.size(), std::size_t(2));
        QCOMPARE(c.steps[0].token, std::string(" Yes"));
        QCOMPARE(*c.steps[0].logprob, -0.25);
        // Sorted highest first whatever order the server wrote.
        QCOMPARE(c.steps[0].top.size(), std::size_t(3));
        QCOMPARE(c.steps[0].top[0].token, std::string(" Yes"));
        QCOMPARE(c.steps[0].top[1].token, std::string(" No"));
        QCOMPARE(c.steps[0].top[2].logprob, -3.0);
    }

    void chatReplyIsRead() {
        const Completion c = parseCompletion(chatReply().dump(), "chat");
        QCOMPARE(c.text, std::string("No"));
        QCOMPARE(c.system_fingerprint, std::string("fp_1"));
        QCOMPARE(c.finish, std::string("length"));
        QCOMPARE(c.steps.size(), std::size_t(1));
        // OpenAI's -9999 ("not among the alternatives") is left out.
        QCOMPARE(c.steps[0].top.size(), std::size_t(2));
        QCOMPARE(c.steps[0].top[1].token, std::string("Yes"));
        // Without logprobs (a server that returns none): text only.
        json bare = chatReply();
        bare["choices"][0].erase("logprobs");
        const Completion b = parseCompletion(bare.dump(), "chat");
        QVERIFY(!b.logprobs());
        QCOMPARE(b.text, std::string("No"));
    }

    void malformedRepliesAreOneSentence_data() {
        QTest::addColumn<QString>("api");
        QTest::addColumn<QString>("body");
        QTest::addColumn<QString>("says");
        QTest::newRow("not json") << "completions"
                                  << "<html>502 Bad Gateway</html>"
                                  << "(not a JSON object): <html>502";
        QTest::newRow("truncated")
            << "completions" << QString::fromStdString(completionsReply().dump().substr(0, 60))
            << "not a JSON object";
        QTest::newRow("no choices") << "completions"
                                    << R"({"choices": []})"
                                    << "no choices";
        QTest::newRow("text not string") << "completions"
                                         << R"({"choices": [{"text": 3}]})"
                                         << "text is not a string";
        QTest::newRow("lengths differ")
            << "completions"
            << R"({"choices": [{"text": "a", "logprobs": {"tokens": ["a", "b"], "token_logprobs": [-1]}}]})"
            << "differ in length";
        QTest::newRow("positive logprob")
            << "completions"
            << R"({"choices": [{"text": "a", "logprobs": {"tokens": ["a"], "token_logprobs": [0.5]}}]})"
            << "above 0";
        QTest::newRow("logprob string")
            << "chat"
            << R"({"choices": [{"message": {"content": "a"}, "logprobs": {"content": [{"token": "a", "logprob": "x"}]}}]})"
            << "not a number";
        QTest::newRow("no message") << "chat"
                                    << R"({"choices": [{"text": "a"}]})"
                                    << "no \"message\"";
        QTest::newRow("deep") << "chat" << QString(200, QLatin1Char('[')) << "not a JSON object";
    }
    void malformedRepliesAreOneSentence() {
        QFETCH(QString, api);
        QFETCH(QString, body);
        QFETCH(QString, says);
        try {
            parseCompletion(body.toStdString(), api.toStdString());
            QFAIL("accepted");
        } catch (const ReplyError& e) {
            const std::string what = e.what();
            QVERIFY2(what.find(says.toStdString()) != std::string::npos, what.c_str());
            QVERIFY2(what.find('\n') == std::string::npos, what.c_str());
            QVERIFY2(what.size() < 260, what.c_str());
        }
    }

    void serverMessagesAndSnippets() {
        QCOMPARE(serverMessage(R"({"error": {"message": "model not found", "code": 404}})"),
                 std::string("model not found"));
        QCOMPARE(serverMessage(R"({"detail": "Invalid API key"})"), std::string("Invalid API key"));
        QCOMPARE(serverMessage("plain text"), std::string());
        QCOMPARE(snippet("a\nb"), std::string("a\\x0ab"));
        // A long reply is cut, never inside a UTF-8 character.
        const std::string s = snippet(std::string(119, 'x') + "\xC3\xA9" + std::string(50, 'y'));
        QCOMPARE(s, std::string(119, 'x') + "...");
        QCOMPARE(parseModelList(R"({"object":"list","data":[{"id":"a"},{"id":"b"}]})"),
                 (std::vector<std::string>{"a", "b"}));
        QVERIFY_THROWS_EXCEPTION(ReplyError, parseModelList(R"({"data": 3})"));
    }

    void labelDecisionFromTopLogprobs() {
        const Completion c = parseCompletion(completionsReply().dump(), "completions");
        const LabelDecision d = decideLabels(c.steps[0], {" No", " Yes"});
        QCOMPARE(d.decision, 1);
        QCOMPARE(d.missing, 0);
        QVERIFY(!d.bounded());
        QCOMPARE(d.margin, 1.5); // -0.25 - -1.75
        // Renormalised over the labels: softmax of the two log-probabilities.
        const double p1 = 1 / (1 + std::exp(-1.5));
        QVERIFY(std::abs(d.probs[1] - p1) < 1e-12);
        QVERIFY(std::abs(d.probs[0] + d.probs[1] - 1) < 1e-12);
        QCOMPARE(splitLabel(c.steps[0], {" No", " Yes"}), std::string());
    }

    void missingLabelIsAStateNotZero() {
        const Completion c = parseCompletion(completionsReply().dump(), "completions");
        const LabelDecision d = decideLabels(c.steps[0], {" Yes", " Perhaps"});
        QCOMPARE(d.decision, 0);
        QCOMPARE(d.missing, 1);
        QVERIFY(d.bounded());
        QVERIFY(std::isnan(d.logprobs[1]));
        QVERIFY(std::isnan(d.probs[1])); // not 0: below the cut-off, value unknown
        QCOMPARE(d.cutoff, -3.0);
        QCOMPARE(d.margin, 2.75); // a lower bound: -0.25 - (-3.0)
        const LabelDecision none = decideLabels(c.steps[0], {" Perhaps", " Never"});
        QCOMPARE(none.decision, -1);
        QCOMPARE(none.missing, 2);
        QVERIFY(std::isnan(none.margin));
        // No alternatives at all: the server returns no log-probabilities.
        Step bare;
        bare.token = " Yes";
        try {
            decideLabels(bare, {" No", " Yes"});
            QFAIL("accepted");
        } catch (const ReplyError& e) {
            QVERIFY(std::string(e.what()).find("generation head") != std::string::npos);
        }
    }

    void splitLabelsAreDetected() {
        Step s;
        s.token = " Pos";
        s.top = {{" Pos", -0.1}, {" Neg", -2.5}};
        QCOMPARE(splitLabel(s, {" Positive", " Negative"}), std::string(" Positive"));
        QCOMPARE(splitLabel(s, {" Negative", " Positive"}), std::string(" Negative"));
        s.token = " Positive";
        s.top = {{" Positive", -0.1}, {" Negative", -2.5}};
        QCOMPARE(splitLabel(s, {" Negative", " Positive"}), std::string());
        // A label that is a token of its own is not split by a prefix token listed beside it.
        s.token = " N";
        s.top = {{" N", -0.5}, {" No", -1.0}, {" Yes", -1.5}};
        QCOMPARE(splitLabel(s, {" No", " Yes"}), std::string());
        // A label missing with no prefix of it listed is missing, not split.
        s.top = {{" N", -0.5}, {" Yes", -1.5}};
        QCOMPARE(splitLabel(s, {" Maybe", " Yes"}), std::string());
    }
};

QTEST_GUILESS_MAIN(TestEndpoint)
#include "test_endpoint.moc"
