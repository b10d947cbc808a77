#include "core/runner/remote_stream.h"

#include "core/common/error.h"
#include "core/common/json_read.h"
#include "core/common/vocabulary.h"

#include <algorithm>

namespace probaudit::runner {

void RunStream::onLine(const std::string& line) {
    if (m_copying) { // the ledger's bytes, cut at its newline bytes
        const auto n = std::min<std::uint64_t>(m_remaining, line.size());
        m_out.write(line.data(), std::streamsize(n));
        m_remaining -= n;
        return;
    }
    auto parsed = tryParseJson(line);
    if (!parsed || !parsed->is_object() || !parsed->contains("event")) {
        sayLater(line.substr(0, line.find('\n')));
        return;
    }
    nlohmann::json& e = *parsed;
    if (const auto message = fieldString(e, "message")) {
        e["message"] = escapeControls(*message);
    }
    m_started = true;
    if (eventKind(e) == EventKind::Snapshot) {
        const auto bytes = fieldInt64(e, "bytes");
        if (!bytes || *bytes < 0) { // no copy follows that could be read: said at the end
            sayLater("a ledger copy was announced without its size");
            return;
        }
        m_out.open(m_copy, std::ios::binary | std::ios::trunc);
        m_remaining = std::uint64_t(*bytes);
        m_copying = true;
    } else if (eventKind(e) == EventKind::Done) { // the local ledger is done later
        m_done = e;
    } else {
        m_events.emit(e);
    }
}

void RunStream::sayLater(const std::string& line) {
    std::string cut(line, 0, std::min<std::size_t>(line.size(), 300));
    if (cut.size() < line.size()) {
        cut.append("...");
    }
    m_text.push_back(escapeControls(cut));
    if (m_text.size() > 20) {
        m_text.erase(m_text.begin());
    }
}

bool RunStream::copied() {
    m_out.close();
    return m_copying && m_remaining == 0 && !m_out.fail();
}

} // namespace probaudit::runner
