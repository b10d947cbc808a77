#pragma once
// Reading a ledger: `probaudit runs LEDGER [--json]`, `probaudit export LEDGER --run ID
// --format csv|jsonl [--output FILE]`, `probaudit verify LEDGER [--head H] [--trust PUB]
// [--json]`; its chain head and signatures: `head`, `keygen`, `sign` (trust_cmds.cpp).
#include <string>
#include <vector>

namespace probaudit::app {

int listRuns(const std::string& ledger, bool asJson);
int exportRun(const std::string& ledger, long long run, const std::string& format,
              const std::string& output);
struct VerifyOptions {
    std::string ledger;
    std::string head;  // SEQ:DIGEST recorded earlier, or ""
    std::string trust; // public key file, or ""
    bool json = false;
};
// Exit 0 when intact (and, with --trust, signed by that key over the current head), else 2.
int verifyLedger(const VerifyOptions& o);
int printHead(const std::string& ledger);
int generateKey(const std::string& keyPath);
int signLedger(const std::string& ledger, const std::string& keyPath);
// A key file's text (bounded: a PEM key is a few hundred bytes); Error naming it otherwise.
std::string readKeyFile(const std::string& path);
int migrateLedger(const std::string& ledger);
// `merge` and `sweep --merge`: the shards joined into `out` (ledger/merge.h), every shard signed
// by the key in `trustFile` when one is given; says so, or that no key was given, and exits 0.
int mergeLedgers(const std::vector<std::string>& shards, const std::string& out,
                 const std::string& trustFile);
// Runs a helper executable that lives next to `probaudit` (such as the Qt-based report writer),
// waits for it and returns its exit code. Throws probaudit::Error when it is missing.
// `quiet`: its standard output goes to /dev/null (its errors still reach the terminal).
int runSibling(const std::string& name, const std::vector<std::string>& args, bool quiet = false);

} // namespace probaudit::app
