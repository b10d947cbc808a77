// libFuzzer: dataset files (JSONL and CSV) are read into items or refused with
// probaudit::Error naming the bad lines. The first byte picks the format, whether bad lines are
// skipped, whether labels are class names or indexes, and whether ids come from a field; the
// rest is the file.
#include "core/common/error.h"
#include "core/study/dataset.h"

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::uint8_t how = data[0];
    probaudit::study::DatasetSpec spec;
    spec.format = how & 1 ? "csv" : "jsonl";
    const std::string path =
        "/tmp/probaudit-fuzz-dataset-" + std::to_string(getpid()) + "." + spec.format;
    if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
        std::fwrite(data + 1, 1, size - 1, f);
        std::fclose(f);
    } else {
        return 0;
    }
    spec.paths = {path};
    if (how & 4) {
        spec.labels = {"negative", "positive", "neutral"};
    }
    if (how & 8) {
        spec.id_field.clear();
    }
    if (how & 16) {
        spec.label_field.clear();
    }
    if (how & 32) {
        spec.limit = 3;
        spec.seed = how >> 6;
    }
    try {
        const auto d = probaudit::study::loadDataset(spec, (how & 2) != 0);
        for (const auto& item : d.items) {
            (void)item.text.size();
        }
    } catch (const probaudit::Error&) {
    }
    std::remove(path.c_str());
    return 0;
}
