// GPU: the CUDA row hash gives the CPU reference's bits, and writes nothing outside its output.
// Skips cleanly where no CUDA device is usable.
#include "kernels/row_hash.h"

#include <QRandomGenerator>
#include <QTest>

#include <cuda_runtime.h>

#include <vector>

using namespace probaudit::kernels;

class TestRowHashGpu : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        int n = 0;
        if (cudaGetDeviceCount(&n) != cudaSuccess || n == 0) {
            QSKIP("no CUDA device");
        }
    }

    void matchesCpuReference_data() {
        QTest::addColumn<int>("rows");
        QTest::addColumn<int>("rowBytes");
        QTest::addColumn<int>("stride");
        QTest::newRow("empty rows") << 3 << 0 << 0;
        QTest::newRow("tail bytes") << 7 << 13 << 16;
        QTest::newRow("minilm row fp32") << 64 << 384 * 4 << 384 * 4;
        QTest::newRow("smollm row bf16, strided") << 33 << 576 * 2 << 576 * 2 + 128;
        QTest::newRow("item 128 tok x 576 fp32") << 8 << 128 * 576 * 4 << 128 * 576 * 4;
    }
    void matchesCpuReference() {
        QFETCH(int, rows);
        QFETCH(int, rowBytes);
        QFETCH(int, stride);
        std::vector<unsigned char> host(size_t(rows) * size_t(stride) + 1);
        for (auto& b : host) {
            b = static_cast<unsigned char>(QRandomGenerator::global()->bounded(256));
        }
        std::vector<std::uint64_t> cpu(static_cast<size_t>(rows));
        rowHashCpu(RowHashParams{host.data(), rows, rowBytes, stride, cpu.data()});

        // Output with sentinel words on both sides to catch stray writes.
        constexpr std::uint64_t kSentinel = 0xA5A5A5A5DEADBEEFull;
        std::vector<std::uint64_t> gpu(size_t(rows) + 2, kSentinel);
        unsigned char* dData = nullptr;
        std::uint64_t* dOut = nullptr;
        QCOMPARE(cudaMalloc(&dData, host.size()), cudaSuccess);
        QCOMPARE(cudaMalloc(&dOut, gpu.size() * sizeof(std::uint64_t)), cudaSuccess);
        QCOMPARE(cudaMemcpy(dData, host.data(), host.size(), cudaMemcpyHostToDevice), cudaSuccess);
        QCOMPARE(cudaMemcpy(dOut, gpu.data(), gpu.size() * 8, cudaMemcpyHostToDevice), cudaSuccess);
        rowHashCuda(RowHashParams{dData, rows, rowBytes, stride, dOut + 1}, nullptr);
        QCOMPARE(cudaDeviceSynchronize(), cudaSuccess);
        QCOMPARE(cudaMemcpy(gpu.data(), dOut, gpu.size() * 8, cudaMemcpyDeviceToHost), cudaSuccess);
        cudaFree(dData);
        cudaFree(dOut);
        QCOMPARE(gpu.front(), kSentinel);
        QCOMPARE(gpu.back(), kSentinel);
        for (int r = 0; r < rows; ++r) {
            QCOMPARE(gpu[size_t(r) + 1], cpu[size_t(r)]);
        }
    }
};

QTEST_GUILESS_MAIN(TestRowHashGpu)
#include "test_row_hash_gpu.moc"
