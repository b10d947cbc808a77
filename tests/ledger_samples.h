#pragma once
// Small ledgers for the ledger tests: items, records with layers, sealed runs, raw SQL edits.
#include "core/ledger/ledger.h"

#include <sqlite3.h>

#include <QString>
#include <QTest>

#include <cmath>
#include <string>
#include <vector>

namespace probaudit::testing {

using ledger::Ledger;
using ledger::Record;

inline std::vector<ledger::Item> someItems(int n) {
    std::vector<ledger::Item> items;
    for (int i = 0; i < n; ++i) {
        items.push_back({i, "id" + std::to_string(i), "text " + std::to_string(i), i % 2, i + 1});
    }
    return items;
}

inline Record someRecord(std::int64_t item, int layers, int hidden, std::uint64_t salt) {
    Record r;
    r.item = item;
    r.tokens = 5 + item;
    r.probs = {0.25f + float(item) * 1e-3f, 0.75f - float(item) * 1e-3f};
    r.logits = {-1.5f, std::nextafter(2.0f, 3.0f)};
    r.decision = 1;
    r.margin = r.logits[1] - r.logits[0];
    r.batch = item / 4;
    r.row = item % 4;
    r.padded_length = 12;
    r.batch_seconds = 0.125;
    for (int l = 0; l <= layers; ++l) {
        r.layer_hashes.push_back(0x9e3779b97f4a7c15ULL * std::uint64_t(l + 1) ^ salt ^
                                 std::uint64_t(item));
    }
    if (hidden > 0) {
        r.hidden = hidden;
        for (int i = 0; i < (layers + 1) * hidden; ++i) {
            r.layer_vectors.push_back(float(i) * 0.5f - float(item));
        }
    }
    return r;
}

// A run of `n` items recorded in batches of 4 and sealed.
inline std::int64_t recordRun(Ledger& led, const std::string& config, int n, std::uint64_t salt,
                              bool finish = true) {
    led.putConfig(config, config, nlohmann::json{{"batch_size", 4}});
    const std::string env = led.putEnvironment(nlohmann::json{{"cpu", "test"}});
    const auto run = led.beginRun("h", nlohmann::json{{"kind", "classifier"}}, config, config, env,
                                  "vectors", n);
    for (int b = 0; b < n; b += 4) {
        std::vector<Record> batch;
        for (int i = b; i < std::min(n, b + 4); ++i) {
            batch.push_back(someRecord(i, 3, 4, salt));
        }
        led.appendBatch(run, batch);
    }
    if (finish) {
        led.finishRun(run);
    }
    return run;
}

inline void sql(const QString& path, const char* statement) {
    sqlite3* db = nullptr;
    QCOMPARE(sqlite3_open(path.toUtf8().constData(), &db), SQLITE_OK);
    char* err = nullptr;
    const int rc = sqlite3_exec(db, statement, nullptr, nullptr, &err);
    const QString msg = err != nullptr ? QString::fromUtf8(err) : QString();
    sqlite3_free(err);
    sqlite3_close(db);
    QVERIFY2(rc == SQLITE_OK, qPrintable(msg));
}

} // namespace probaudit::testing
