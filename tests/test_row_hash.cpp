// CPU reference of the pa64 row hash: agreement with an independent Python implementation
// (tests/golden/row_hash.json), and the properties capture relies on.
#include "kernels/row_hash.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QTest>

#include <cstring>
#include <set>
#include <stdexcept>
#include <vector>

using probaudit::kernels::hashBytes;
using probaudit::kernels::hashBytesWith;
using probaudit::kernels::HashIsa;
using probaudit::kernels::hashIsaName;
using probaudit::kernels::hashIsaSupported;
using probaudit::kernels::rowHashCpu;
using probaudit::kernels::RowHashParams;

namespace {
std::vector<unsigned char> pattern(int n, int length) {
    std::vector<unsigned char> b(static_cast<size_t>(length));
    for (int k = 0; k < length; ++k) {
        b[static_cast<size_t>(k)] = static_cast<unsigned char>((k * 37 + 11 * n) % 256);
    }
    return b;
}
} // namespace

class TestRowHash : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void matchesIndependentImplementation_data() {
        QTest::addColumn<int>("caseIndex");
        QTest::addColumn<int>("length");
        QTest::addColumn<QString>("expected");
        QFile f(QStringLiteral(PROBAUDIT_SOURCE_DIR "/tests/golden/row_hash.json"));
        QVERIFY(f.open(QIODevice::ReadOnly));
        const auto cases = QJsonDocument::fromJson(f.readAll()).object()[u"cases"].toArray();
        QVERIFY(cases.size() >= 10);
        for (const auto& c : cases) {
            const auto o = c.toObject();
            const int n = o[u"case"].toInt();
            QTest::addRow("case %d, %d bytes", n, o[u"bytes"].toInt())
                << n << o[u"bytes"].toInt() << o[u"hash"].toString();
        }
    }
    void matchesIndependentImplementation() {
        QFETCH(int, caseIndex);
        QFETCH(int, length);
        QFETCH(QString, expected);
        const auto bytes = pattern(caseIndex, length);
        const quint64 h = hashBytes(bytes.data(), bytes.size());
        QCOMPARE(QStringLiteral("%1").arg(h, 16, 16, QLatin1Char('0')), expected);
        // Each instruction-set build of the hash this CPU runs: the same bits.
        for (const HashIsa isa : {HashIsa::Plain, HashIsa::Avx2, HashIsa::Avx512}) {
            if (!hashIsaSupported(isa)) {
                QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                         hashBytesWith(isa, bytes.data(), bytes.size()));
                continue;
            }
            const quint64 hi = hashBytesWith(isa, bytes.data(), bytes.size());
            QVERIFY2(QStringLiteral("%1").arg(hi, 16, 16, QLatin1Char('0')) == expected,
                     hashIsaName(isa));
        }
    }

    // Every single-bit change of a 1536-byte row (384 floats) changes its hash.
    void everyBitFlipChangesTheHash() {
        auto row = pattern(3, 1536);
        const auto base = hashBytes(row.data(), row.size());
        std::set<quint64> seen{base};
        for (size_t byte = 0; byte < row.size(); byte += 7) {
            for (int bit = 0; bit < 8; ++bit) {
                row[byte] ^= static_cast<unsigned char>(1u << bit);
                const auto h = hashBytes(row.data(), row.size());
                row[byte] ^= static_cast<unsigned char>(1u << bit);
                QVERIFY2(h != base,
                         qPrintable(QStringLiteral("byte %1 bit %2").arg(byte).arg(bit)));
                seen.insert(h);
            }
        }
        QCOMPARE(seen.size(), size_t(1) + 8 * ((row.size() + 6) / 7));
    }

    // Position matters: swapping two different words changes the hash (a plain sum would not).
    void swappingWordsChangesTheHash() {
        std::vector<float> v = {1.0f, 2.0f, 3.0f, 4.0f};
        const auto a = hashBytes(v.data(), v.size() * sizeof(float));
        std::swap(v[0], v[3]);
        QVERIFY(hashBytes(v.data(), v.size() * sizeof(float)) != a);
    }

    // -0.0 and +0.0 compare equal as floats but are different bits: bit-identical means bits.
    void signedZeroIsABitDifference() {
        const float pz = 0.0f;
        const float nz = -0.0f;
        QVERIFY(hashBytes(&pz, 4) != hashBytes(&nz, 4));
    }

    // The strided batch form equals hashing each row on its own, and ignores stride padding.
    void stridedRowsMatchSingleRows() {
        const int rows = 5;
        const int rowBytes = 384 * 4;
        const int stride = rowBytes + 64;
        std::vector<unsigned char> buf(static_cast<size_t>(rows * stride));
        auto* rng = QRandomGenerator::global();
        for (auto& b : buf) {
            b = static_cast<unsigned char>(rng->bounded(256));
        }
        std::vector<std::uint64_t> out(rows, 0);
        rowHashCpu(RowHashParams{buf.data(), rows, rowBytes, stride, out.data()});
        for (int r = 0; r < rows; ++r) {
            QCOMPARE(out[size_t(r)], hashBytes(buf.data() + r * stride, size_t(rowBytes)));
            buf[size_t(r * stride + rowBytes + 3)] ^= 0xFF; // padding byte: not hashed
        }
        std::vector<std::uint64_t> again(rows, 0);
        rowHashCpu(RowHashParams{buf.data(), rows, rowBytes, stride, again.data()});
        QVERIFY(out == again);
    }

    void rejectsInconsistentParameters() {
        std::uint64_t out = 0;
        unsigned char data[8] = {};
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 rowHashCpu(RowHashParams{data, 1, 8, 4, &out}));
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument,
                                 rowHashCpu(RowHashParams{data, 1, 8, 8, nullptr}));
    }
};

QTEST_GUILESS_MAIN(TestRowHash)
#include "test_row_hash.moc"
