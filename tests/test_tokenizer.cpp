// Tokenization against the reference (transformers' AutoTokenizer): every corpus string of
// tests/golden/tokenizer_corpus.json must give exactly the golden ids, for every tokenizer.
#include "core/common/error.h"
#include "core/model/gguf.h"
#include "core/tokenizer/tokenizer.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

#include <nlohmann/json.hpp>

#include <random>

using namespace probaudit;
using tokenizer::Tokenizer;

namespace {

QJsonDocument readJson(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", qPrintable(path));
    }
    return QJsonDocument::fromJson(f.readAll());
}

std::vector<std::int32_t> toIds(const QJsonArray& a) {
    std::vector<std::int32_t> out;
    for (const auto& v : a) {
        out.push_back(v.toInt());
    }
    return out;
}

QString show(const std::vector<std::int32_t>& ids) {
    QStringList s;
    for (auto i : ids) {
        s << QString::number(i);
    }
    return s.join(u' ');
}

Tokenizer load(const QString& name) {
    const QString src = QStringLiteral(PROBAUDIT_SOURCE_DIR);
    if (name == QStringLiteral("SmolLM2-135M-Instruct")) {
        const model::GgufFile f((src + QStringLiteral("/.cache/models/SmolLM2-135M-Instruct/"
                                                      "SmolLM2-135M-Instruct.Q4_1.gguf"))
                                    .toStdString());
        return Tokenizer::fromGguf(f);
    }
    const bool fixture =
        name.startsWith(QStringLiteral("tiny-")) || name.startsWith(QStringLiteral("tok-"));
    const QString dir = fixture ? src + QStringLiteral("/tests/fixtures/")
                                : src + QStringLiteral("/.cache/models/");
    return Tokenizer::fromFile((dir + name + QStringLiteral("/tokenizer.json")).toStdString());
}

void compareCorpus(const QString& name) {
    const QJsonArray corpus =
        readJson(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/tokenizer_corpus.json"))
            .array();
    const QJsonObject golden =
        readJson(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/tokens.json"))
            .object()[name]
            .toObject();
    const QJsonArray ids = golden[u"ids"].toArray();
    QCOMPARE(ids.size(), corpus.size());
    QVERIFY(corpus.size() >= 500);
    const Tokenizer tok = load(name);
    int mismatches = 0;
    QString first;
    for (qsizetype i = 0; i < corpus.size(); ++i) {
        const std::string text = corpus[i].toString().toStdString();
        const auto got = tok.encode(text).ids;
        const auto want = toIds(ids[i].toArray());
        if (got != want) {
            if (mismatches++ < 5) {
                first += QStringLiteral("\n  %1: got [%2] want [%3]")
                             .arg(corpus[i].toString().left(60), show(got), show(want));
            }
        }
    }
    QVERIFY2(mismatches == 0, qPrintable(QStringLiteral("%1 of %2 strings differ:%3")
                                             .arg(mismatches)
                                             .arg(corpus.size())
                                             .arg(first)));
    // Truncation to 8 tokens, special tokens included.
    const QJsonArray truncated = golden[u"truncated_8"].toArray();
    for (qsizetype i = 0; i < truncated.size(); ++i) {
        const auto enc = tok.encode(corpus[i].toString().toStdString(), true, 8);
        const auto want = toIds(truncated[i].toArray());
        QVERIFY2(enc.ids == want, qPrintable(corpus[i].toString()));
        QCOMPARE(enc.truncated, enc.full_length > 8);
    }
}

} // namespace

class TestTokenizer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void fixtures_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("tiny-llama (byte-level BPE, GPT-2 split)") << QStringLiteral("tiny-llama");
        QTest::newRow("tiny-qwen3 (byte-level BPE, Qwen2 split)") << QStringLiteral("tiny-qwen3");
        QTest::newRow("tiny-bert (WordPiece, BERT normalizer)") << QStringLiteral("tiny-bert");
        QTest::newRow("tok-llama3 (Llama 3 split, ignore_merges, BOS)")
            << QStringLiteral("tok-llama3");
    }
    void fixtures() {
        QFETCH(QString, name);
        compareCorpus(name);
    }

    void realModels_data() {
        QTest::addColumn<QString>("name");
        QTest::newRow("all-MiniLM-L6-v2 (tokenizer.json)") << QStringLiteral("all-MiniLM-L6-v2");
        QTest::newRow("SmolLM2-135M-Instruct (GGUF metadata)")
            << QStringLiteral("SmolLM2-135M-Instruct");
    }
    void realModels() {
        QFETCH(QString, name);
        compareCorpus(name);
    }

    void decodeRoundTrips() {
        const Tokenizer tok = load(QStringLiteral("tiny-llama"));
        const std::string text = "Größe 42 — 안녕 👍🏽\n\tend";
        QCOMPARE(tok.decode(tok.encode(text).ids), text);
    }

    void refusesBadInput_data() {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("problem");
        QTest::newRow("not JSON") << QByteArray("{\"model\": ") << "invalid JSON";
        QTest::newRow("no model") << QByteArray("{}") << "no \"model\" object";
        QTest::newRow("unknown model")
            << QByteArray("{\"model\":{\"type\":\"Unigram\",\"vocab\":[]}}")
            << "tokenizer model \"Unigram\" is not supported";
        QTest::newRow("unknown pre-tokenizer")
            << QByteArray("{\"pre_tokenizer\":{\"type\":\"Metaspace\"},\"model\":{\"type\":"
                          "\"WordPiece\",\"vocab\":{\"[UNK]\":0}}}")
            << "pre-tokenizer \"Metaspace\"";
        QTest::newRow("merge outside vocabulary")
            << QByteArray("{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[\"a b\"]}}")
            << "missing from the vocabulary";
        QTest::newRow("dropout")
            << QByteArray(
                   "{\"model\":{\"type\":\"BPE\",\"dropout\":0.1,\"vocab\":{},\"merges\":[]}}")
            << "dropout";
        QTest::newRow("vocab of wrong type")
            << QByteArray("{\"model\":{\"type\":\"WordPiece\",\"vocab\":[1,2]}}")
            << "vocab is not an object";
        // Added-token and template ids index the id table: negative, fractional, wrapping or
        // absurdly large ids are refused, never written outside it or used to size it.
        const auto added = [](const char* id) {
            return QByteArray("{\"added_tokens\":[{\"id\":") + id +
                   ",\"content\":\"<x>\"}],\"model\":{\"type\":\"WordPiece\",\"vocab\":"
                   "{\"[UNK]\":0}}}";
        };
        for (const char* id : {"-1", "2.5", "4294967297", "2147483647", "\"3\""}) {
            QTest::newRow((std::string("added token id ") + id).c_str())
                << added(id) << "added token \"<x>\": id " + QString::fromLatin1(id);
        }
        QTest::newRow("vocab id too large")
            << QByteArray("{\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"[UNK]\":0,"
                          "\"a\":2000000000}}}")
            << "token \"a\" has id 2000000000";
        QTest::newRow("template id negative")
            << QByteArray("{\"post_processor\":{\"type\":\"BertProcessing\",\"cls\":[\"[CLS]\","
                          "-5],\"sep\":[\"[SEP]\",1]},\"model\":{\"type\":\"WordPiece\","
                          "\"vocab\":{\"[UNK]\":0}}}")
            << "the post-processor's cls: id -5 is not a token id";
        QTest::newRow("bad split regex")
            << QByteArray("{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"((\"},"
                          "\"behavior\":\"Isolated\"},"
                          "\"model\":{\"type\":\"WordPiece\",\"vocab\":{\"[UNK]\":0}}}")
            << "invalid split regex";
    }
    void refusesBadInput() {
        QFETCH(QByteArray, json);
        QFETCH(QString, problem);
        try {
            Tokenizer::fromJson(json.toStdString(), "/m/tokenizer.json");
            QFAIL("accepted");
        } catch (const Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QStringLiteral("/m/tokenizer.json: ")) && msg.contains(problem),
                     qPrintable(msg));
        }
    }

    // A split regex that backtracks past PCRE2's match limit on some text is an error naming
    // the limit, not "no match" (which would give that text other tokens, silently).
    void matchLimitIsAnError() {
        const Tokenizer tok = Tokenizer::fromJson(
            "{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(a|a)+$\"},"
            "\"behavior\":\"Isolated\"},\"model\":{\"type\":\"WordPiece\",\"vocab\":"
            "{\"[UNK]\":0,\"a\":1}}}",
            "/m/tokenizer.json");
        QVERIFY(!tok.encode("aaa").ids.empty()); // a text the regex matches
        try {
            tok.encode(std::string(40, 'a') + "!");
            QFAIL("a failed match was taken for no match");
        } catch (const Error& e) {
            const QString msg = QString::fromStdString(e.what());
            QVERIFY2(msg.startsWith(QStringLiteral("/m/tokenizer.json")) &&
                         msg.contains(QStringLiteral("match limit exceeded")),
                     qPrintable(msg));
        }
    }

    // BPE merging is the lowest-ranked adjacent pair, leftmost on ties, until none applies.
    // The engine does it with a heap; here, on random merges and words, the same ids as
    // rescanning the word after every merge (the plain definition, written out below).
    void bpeMergesAsTheDefinitionSays() {
        std::mt19937 gen(2015);
        for (int trial = 0; trial < 40; ++trial) {
            std::vector<std::string> tokens{"a", "b", "c"};
            std::vector<std::pair<std::string, std::string>> merges;
            for (int k = 0; k < 25; ++k) {
                const std::string& x = tokens[gen() % tokens.size()];
                const std::string& y = tokens[gen() % tokens.size()];
                if (std::find(tokens.begin(), tokens.end(), x + y) == tokens.end()) {
                    merges.emplace_back(x, y);
                    tokens.push_back(x + y);
                }
            }
            nlohmann::json vocab = nlohmann::json::object(), list = nlohmann::json::array();
            for (std::size_t i = 0; i < tokens.size(); ++i) {
                vocab[tokens[i]] = i;
            }
            for (const auto& [x, y] : merges) {
                list.push_back(x + " " + y);
            }
            const Tokenizer tok = Tokenizer::fromJson(
                nlohmann::json{{"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", list}}}}
                    .dump(),
                "/m/tokenizer.json");
            for (int w = 0; w < 20; ++w) {
                std::string word;
                for (std::size_t n = 1 + gen() % 60; n > 0; --n) {
                    word.push_back(char('a' + gen() % 3));
                }
                std::vector<std::string> symbols; // the definition: rescan after every merge
                for (char ch : word) {
                    symbols.emplace_back(1, ch);
                }
                for (;;) {
                    std::size_t best = merges.size(), at = 0;
                    for (std::size_t i = 0; i + 1 < symbols.size(); ++i) {
                        for (std::size_t r = 0; r < best; ++r) {
                            if (merges[r].first == symbols[i] &&
                                merges[r].second == symbols[i + 1]) {
                                best = r;
                                at = i;
                                break;
                            }
                        }
                    }
                    if (best == merges.size()) {
                        break;
                    }
                    symbols[at] += symbols[at + 1];
                    symbols.erase(symbols.begin() + std::ptrdiff_t(at) + 1);
                }
                std::vector<std::int32_t> expected;
                for (const auto& sym : symbols) {
                    expected.push_back(vocab[sym].get<std::int32_t>());
                }
                const auto got = tok.encode(word).ids;
                QVERIFY2(got == expected, qPrintable(QString::fromStdString(word) + ": " +
                                                     show(got) + " vs " + show(expected)));
            }
        }
    }

    // A one-megabyte word: BPE (merging by rescanning was quadratic: hours) and WordPiece with
    // an absurd max_input_chars_per_word (trying every length was cubic) both finish.
    void aMegabyteWordTokenizes() {
        nlohmann::json vocab = nlohmann::json::object(), merges = nlohmann::json::array();
        std::string t = "a";
        vocab[t] = 0;
        for (int k = 1; k <= 10; ++k) { // a, aa, aaaa, ..., 1,024 a's
            merges.push_back(t + " " + t);
            t += t;
            vocab[t] = k;
        }
        const Tokenizer bpe = Tokenizer::fromJson(
            nlohmann::json{{"model", {{"type", "BPE"}, {"vocab", vocab}, {"merges", merges}}}}
                .dump(),
            "/m/tokenizer.json");
        const std::string word(std::size_t(1) << 20, 'a');
        const auto ids = bpe.encode(word).ids;
        QCOMPARE(ids.size(), std::size_t(1024));
        QVERIFY(std::all_of(ids.begin(), ids.end(), [](std::int32_t i) { return i == 10; }));
        const Tokenizer wp = Tokenizer::fromJson(
            "{\"model\":{\"type\":\"WordPiece\",\"max_input_chars_per_word\":1000000000,"
            "\"vocab\":{\"[UNK]\":0,\"a\":1,\"##a\":2}}}",
            "/m/tokenizer.json");
        const auto pieces = wp.encode(word).ids;
        QCOMPARE(pieces.size(), word.size());
        QCOMPARE(pieces.front(), 1);
        QCOMPARE(pieces.back(), 2);
    }

    void refusesInvalidUtf8() {
        const Tokenizer tok = load(QStringLiteral("tiny-bert"));
        try {
            tok.encode(std::string("ok \xC3\x28 bad", 8));
            QFAIL("accepted invalid UTF-8");
        } catch (const Error& e) {
            QVERIFY2(
                QString::fromLatin1(e.what()).contains(QStringLiteral("not valid UTF-8 at byte 3")),
                e.what());
        }
    }
};

QTEST_GUILESS_MAIN(TestTokenizer)
#include "test_tokenizer.moc"
