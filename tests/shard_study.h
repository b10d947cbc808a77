#pragma once
// A small sharded study for the shard and sweep tests (test_shards, test_sweep): 37 items of
// different lengths, tiny-bert with a mean-pooled adapter, three configs whose batches depend
// on the order of all items; and what two ledgers recorded, per config, to compare them.
#include "cli_support.h"
#include "core/ledger/ledger.h"

#include <QDir>
#include <QTest>

#include <map>
#include <string>
#include <vector>

namespace probaudit::test {

inline const QString kFixtures = QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/fixtures");

inline void write(const QString& path, const QByteArray& bytes) {
    QVERIFY(probaudit::test::writeFile(path, bytes));
}

// 37 items of different lengths: the batches of 4 and of 8 do not divide them evenly.
inline void writeDataset(const QString& path, int n) {
    QByteArray data;
    const char* words[] = {"good", "bad", "food", "service", "slow", "great", "never", "again"};
    for (int i = 0; i < n; ++i) {
        QByteArray text;
        for (int w = 0; w <= (i * 5) % 11; ++w) {
            text += QByteArray(words[(i + w * 3) % 8]) + ' ';
        }
        text += QByteArray::number(i);
        data += "{\"id\":\"item-" + QByteArray::number(i) + "\",\"text\":\"" + text +
                "\",\"label\":" + QByteArray::number(i % 2) + "}\n";
    }
    write(path, data);
}

// Configs whose batches depend on the order of all items: shuffled, by length, padded to the
// longest of the batch.
inline QString writeStudy(const QDir& dir, const QString& name, const QString& extra = QString()) {
    writeDataset(dir.filePath("data.jsonl"), 37);
    const QString study = dir.filePath(name + ".study.json");
    write(study, QStringLiteral("{\"name\":\"%2\",\"model\":{\"path\":\"%1/tiny-bert\"},"
                                "\"heads\":{\"mean\":{\"kind\":\"adapter\",\"path\":\"%1/adapters/"
                                "tiny-bert-mean.safetensors\"}},"
                                "\"dataset\":{\"path\":\"data.jsonl\"},\"capture\":\"hashes\","
                                "\"configs\":{\"ref\":{\"batch_size\":1},"
                                "\"b4\":{\"batch_size\":4,\"order\":\"shuffled\",\"order_seed\":5},"
                                "\"b8\":{\"batch_size\":8,\"order\":\"by_length\"}%3},"
                                "\"reference\":\"ref\"}")
                     .arg(kFixtures, name, extra)
                     .toUtf8());
    return study;
}

// Per config: numerics digest, and the records without their wall times.
struct Recorded {
    std::string numerics;
    std::vector<ledger::Record> records;
};
inline std::map<std::string, Recorded> recorded(const QString& path) {
    const ledger::Ledger led(path.toStdString(), ledger::Ledger::Mode::Read);
    std::map<std::string, Recorded> out;
    for (const auto& r : led.runs()) {
        auto recs = led.records(r.id, true);
        for (auto& rec : recs) {
            rec.batch_seconds = 0;
        }
        out[r.config_name] = {r.numerics_sha256, std::move(recs)};
    }
    return out;
}

inline bool sameRecord(const ledger::Record& a, const ledger::Record& b) {
    return a.item == b.item && a.tokens == b.tokens && a.probs == b.probs && a.logits == b.logits &&
           a.decision == b.decision && a.batch == b.batch && a.row == b.row &&
           a.padded_length == b.padded_length && a.layer_hashes == b.layer_hashes;
}

// A merged sweep or set of shards is the one-node run: per config the same numerics digest
// and, record for record, the same numbers, batches, rows and padding (QVERIFY inside: call it
// as QVERIFY(sameAsOneNode(...)) so a failure stops the caller too).
inline bool sameAsOneNode(const QString& oneNode, const QString& merged) {
    const auto whole = recorded(oneNode);
    const auto joined = recorded(merged);
    [&] {
        QCOMPARE(joined.size(), whole.size());
        for (const auto& [config, w] : whole) {
            QVERIFY2(joined.count(config) == 1, config.c_str());
            const Recorded& m = joined.at(config);
            QVERIFY2(m.numerics == w.numerics, config.c_str());
            QCOMPARE(m.records.size(), w.records.size());
            for (std::size_t k = 0; k < w.records.size(); ++k) {
                QVERIFY2(sameRecord(m.records[k], w.records[k]), config.c_str());
            }
        }
    }();
    return !QTest::currentTestFailed();
}

} // namespace probaudit::test
