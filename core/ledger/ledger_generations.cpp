// Generation outputs (a generation head's runs) and an endpoint run's exchanges with its
// server (ledger.h): written with the run's progress in one transaction, read back checked.
#include "core/ledger/ledger_internal.h"

#include <cstdint>

namespace probaudit::ledger {

namespace {

void checkGeneration(const GenerationRecord& g, std::int64_t items) {
    if (g.item < 0 || g.item >= items) {
        throw RowProblem("item index " + std::to_string(g.item) + " is outside the study's " +
                         std::to_string(items) + " items");
    }
    const std::size_t steps = g.tokens.size();
    if (g.logits.size() != steps || g.gaps.size() != steps || g.batch.size() != steps) {
        throw RowProblem("its per-step values disagree on the number of steps (" +
                         std::to_string(steps) + " tokens, " + std::to_string(g.logits.size()) +
                         " logits, " + std::to_string(g.gaps.size()) + " gaps, " +
                         std::to_string(g.batch.size()) + " batch sizes)");
    }
    if (g.top_tokens.size() != g.top_logprobs.size() ||
        (!g.top_tokens.empty() &&
         (steps == 0 || g.top_tokens.size() % steps != 0 || g.top_tokens.size() / steps > 20))) {
        throw RowProblem("its top-K lists (" + std::to_string(g.top_tokens.size()) + " tokens, " +
                         std::to_string(g.top_logprobs.size()) +
                         " log-probabilities) are not up to 20 per step for " +
                         std::to_string(steps) + " steps");
    }
}

} // namespace

void Ledger::appendGenerations(std::int64_t run, const std::vector<GenerationRecord>& outputs) {
    try {
        Unit t(*m->db);
        SQLite::Statement ins(
            *m->db, "INSERT INTO generations(run, item, prompt_tokens, text, finish, arrival, "
                    "tokens, logits, gaps, batch, top_tokens, top_logprobs) VALUES (?, ?, ?, ?, "
                    "?, ?, ?, ?, ?, ?, ?, ?)");
        for (const GenerationRecord& g : outputs) {
            ins.bind(1, run);
            ins.bind(2, g.item);
            ins.bind(3, g.prompt_tokens);
            ins.bind(4, g.text);
            ins.bind(5, g.finish);
            ins.bind(6, g.arrival);
            bindVector(ins, 7, g.tokens);
            bindVector(ins, 8, g.logits);
            bindVector(ins, 9, g.gaps);
            bindVector(ins, 10, g.batch);
            bindVector(ins, 11, g.top_tokens);
            bindVector(ins, 12, g.top_logprobs);
            ins.exec();
            ins.reset();
        }
        SQLite::Statement upd(*m->db, "UPDATE runs SET items_done = items_done + ? WHERE id = ?");
        upd.bind(1, static_cast<std::int64_t>(outputs.size()));
        upd.bind(2, run);
        upd.exec();
        t.commit();
    } catch (const std::exception& e) {
        m->fail(m_path, e);
    }
}

void Ledger::appendEndpointItems(std::int64_t run, const std::vector<Record>& records,
                                 const std::vector<GenerationRecord>& outputs,
                                 const std::vector<RequestRecord>& requests) {
    atomically([&] {
        if (!records.empty()) {
            appendBatch(run, records);
        }
        if (!outputs.empty()) {
            appendGenerations(run, outputs);
        }
        try {
            SQLite::Statement ins(*m->db, "INSERT INTO requests(run, item, json) VALUES (?, ?, ?)");
            for (const RequestRecord& r : requests) {
                ins.bind(1, run);
                ins.bind(2, r.item);
                ins.bind(3, r.json);
                ins.exec();
                ins.reset();
            }
        } catch (const std::exception& e) {
            m->fail(m_path, e);
        }
    });
}

std::vector<GenerationRecord> readGenerations(SQLite::Database& db, const std::string& path,
                                              std::int64_t run) {
    std::vector<GenerationRecord> out;
    SQLite::Statement st(db, "SELECT item, prompt_tokens, text, finish, arrival, tokens, "
                             "logits, gaps, batch, top_tokens, top_logprobs FROM generations "
                             "WHERE run = ? ORDER BY item");
    st.bind(1, run);
    const std::int64_t items = itemsIn(db);
    while (st.executeStep()) {
        GenerationRecord g;
        g.item = st.getColumn(0).getInt64();
        try {
            storedInt(st.getColumn(0));
            g.prompt_tokens = storedInt(st.getColumn(1));
            g.text = storedText(st.getColumn(2));
            g.finish = storedText(st.getColumn(3));
            g.arrival = storedInt(st.getColumn(4));
            g.tokens = storedBlob<std::int32_t>(st.getColumn(5), true);
            g.logits = storedBlob<float>(st.getColumn(6), true);
            g.gaps = storedBlob<float>(st.getColumn(7), true);
            g.batch = storedBlob<std::int32_t>(st.getColumn(8), true);
            g.top_tokens = storedBlob<std::int32_t>(st.getColumn(9), true);
            g.top_logprobs = storedBlob<float>(st.getColumn(10), true);
            checkGeneration(g, items);
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, g.item, e);
        }
        out.push_back(std::move(g));
    }
    return out;
}

std::vector<GenerationRecord> Ledger::generations(std::int64_t run) const {
    return guard([&] { return readGenerations(*m->db, m_path, run); });
}

std::vector<RequestRecord> readRequests(SQLite::Database& db, const std::string& path,
                                        std::int64_t run) {
    std::vector<RequestRecord> out;
    SQLite::Statement st(db, "SELECT item, json FROM requests WHERE run = ? ORDER BY item");
    st.bind(1, run);
    const std::int64_t items = itemsIn(db);
    while (st.executeStep()) {
        RequestRecord r;
        r.item = st.getColumn(0).getInt64();
        try {
            storedInt(st.getColumn(0));
            if (r.item < 0 || r.item >= items) {
                throw RowProblem("item index " + std::to_string(r.item) +
                                 " is outside the study's " + std::to_string(items) + " items");
            }
            r.json = storedText(st.getColumn(1));
        } catch (const RowProblem& e) {
            throw malformedRow(path, run, r.item, e);
        }
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<RequestRecord> Ledger::requests(std::int64_t run) const {
    return guard([&] { return readRequests(*m->db, m_path, run); });
}

} // namespace probaudit::ledger
