// The chain head, keys and signatures of a ledger, and `verify` that checks all of them.
#include "app/probaudit/ledger_cmds.h"
#include "core/common/error.h"
#include "core/ledger/ledger.h"
#include "core/ledger/merge.h"
#include "core/ledger/signing.h"
#include "core/ledger/trust.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

namespace probaudit::app {

using ledger::Ledger;
using nlohmann::json;

namespace {

// Creates `path` with `mode`, refusing to replace anything there.
void writeNewFile(const std::string& path, const std::string& text, mode_t mode) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
    if (fd < 0) {
        throw Error(path, errno == EEXIST ? std::string("already exists; nothing was written")
                                          : std::string("cannot create: ") + std::strerror(errno));
    }
    const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
    ::close(fd);
    if (!ok) {
        ::unlink(path.c_str());
        throw Error(path, "cannot write the key");
    }
}

json verifyJson(const ledger::Trust& t, bool trustAsked) {
    const auto& v = t.verify;
    json j{{"ok", v.ok && (!trustAsked || t.trusted)},
           {"state", t.stateName()},
           {"sealed_runs", v.sealed},
           {"state_links", v.state_links},
           {"unsealed_runs", v.unsealed}};
    if (v.head) {
        j["head"] = v.head->text();
    }
    if (t.state == ledger::Trust::State::Signed) {
        j["signed_by"] = t.fingerprint;
    }
    if (trustAsked) {
        j["trusted"] = t.trusted;
    }
    if (!t.problem.empty()) {
        j["problem"] = t.problem;
    }
    if (v.first_bad) {
        j["first_bad_run"] = *v.first_bad;
    }
    return j;
}

} // namespace

// A key file: a regular file (a directory reads as empty, a FIFO would block) that is not empty
// and no larger than a PEM key. A trust option never passes on a key that is not there.
std::string readKeyFile(const std::string& path) {
    std::error_code ec;
    const auto status = std::filesystem::status(path, ec);
    if (ec || !std::filesystem::exists(status)) {
        throw Error(path, "cannot open the key");
    }
    if (!std::filesystem::is_regular_file(status)) {
        throw Error(path, "is not a regular file; a key is a PEM file");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        throw Error(path, "cannot open the key");
    }
    std::string text(16 * 1024 + 1, '\0');
    in.read(text.data(), static_cast<std::streamsize>(text.size()));
    text.resize(static_cast<std::size_t>(in.gcount()));
    if (text.size() > 16 * 1024) {
        throw Error(path, "is larger than any PEM key (16 KiB); not a key");
    }
    if (text.empty()) {
        throw Error(path, "is empty; not a key");
    }
    return text;
}

int verifyLedger(const VerifyOptions& o) {
    const Ledger led(o.ledger, Ledger::Mode::Read);
    std::optional<ledger::ChainHead> expected;
    if (!o.head.empty()) {
        expected = ledger::ChainHead::parse(o.head);
    }
    const std::string trusted = o.trust.empty() ? std::string() : readKeyFile(o.trust);
    if (!trusted.empty()) {
        ledger::keyFingerprint(trusted, o.trust); // a file that is no public key: exit 1
    }
    const ledger::Trust t = ledger::assessTrust(led, trusted, expected);
    const bool trustAsked = !trusted.empty();
    const bool ok = t.state != ledger::Trust::State::Tampered && (!trustAsked || t.trusted);
    if (o.json) {
        std::cout << verifyJson(t, trustAsked).dump(2) << "\n";
        return ok ? 0 : 2;
    }
    if (t.state == ledger::Trust::State::Tampered) {
        std::cerr << o.ledger << ": TAMPERED: " << t.problem << "\n";
        return 2;
    }
    const auto& v = t.verify;
    std::cout << o.ledger << ": intact: " << v.sealed << " sealed run" << (v.sealed == 1 ? "" : "s")
              << " and " << v.state_links << " seal" << (v.state_links == 1 ? "" : "s")
              << " of the study and settings verified";
    if (!v.unsealed.empty()) {
        std::cout << "; " << v.unsealed.size() << " unfinished (not sealed yet)";
    }
    std::cout << (expected ? "; contains head " + expected->text() : std::string()) << "\n";
    if (trustAsked && !t.trusted) {
        std::cerr << o.ledger << ": NOT TRUSTED: " << t.problem << "\n";
        return 2;
    }
    if (t.state == ledger::Trust::State::Signed) {
        std::cout << o.ledger << ": " << t.line() << (t.trusted ? " (the trusted key)" : "")
                  << "\n";
    } else {
        std::cerr << o.ledger << ": " << t.line() << "\n";
    }
    return 0;
}

int mergeLedgers(const std::vector<std::string>& shards, const std::string& out,
                 const std::string& trustFile) {
    const std::string trusted = trustFile.empty() ? std::string() : readKeyFile(trustFile);
    const ledger::MergeResult m = ledger::mergeShards(shards, out, trusted);
    std::cout << out << ": " << m.shards << " shards merged, " << m.runs << " runs of " << m.items
              << " items, sealed"
              << (m.signer.empty() ? std::string() : ", each shard signed by " + m.signer) << "\n";
    if (m.signer.empty()) {
        std::cerr << out << ": the shards were not checked against a key: their chains verify, "
                  << "but a shard edited and sealed again would verify too; sign each shard "
                  << "where it was recorded (probaudit sign) and merge with --trust KEY.pub\n";
    }
    return 0;
}

int printHead(const std::string& path) {
    const Ledger led(path, Ledger::Mode::Read);
    const auto head = led.head();
    if (!head) {
        throw Error(path, "the ledger has no chain yet (nothing was recorded in it)");
    }
    std::cout << head->text() << "\n";
    return 0;
}

int generateKey(const std::string& keyPath) {
    if (std::filesystem::exists(keyPath + ".pub")) {
        throw Error(keyPath + ".pub", "already exists; nothing was written");
    }
    const ledger::KeyPair k = ledger::generateSigningKey();
    writeNewFile(keyPath, k.private_pem, 0600);
    try {
        writeNewFile(keyPath + ".pub", k.public_pem, 0644);
    } catch (const Error&) {
        ::unlink(keyPath.c_str());
        throw;
    }
    std::cout << keyPath << ": Ed25519 key " << ledger::keyFingerprint(k.public_pem, keyPath)
              << " (public key: " << keyPath << ".pub)\n";
    return 0;
}

int signLedger(const std::string& path, const std::string& keyPath) {
    const std::string key = readKeyFile(keyPath);
    const std::string pub = ledger::publicKeyOf(key, keyPath);
    Ledger led(path, Ledger::Mode::Write);
    const ledger::Trust t = ledger::assessTrust(led);
    if (t.state == ledger::Trust::State::Tampered) {
        std::cerr << path << ": TAMPERED: " << t.problem << "; refusing to sign it\n";
        return 2;
    }
    if (!t.verify.head) {
        throw Error(path, "the ledger has no chain yet (nothing was recorded in it)");
    }
    led.addSignature(*t.verify.head, pub, ledger::signHead(key, *t.verify.head, keyPath));
    std::cout << path << ": head " << t.verify.head->text() << " signed by "
              << ledger::keyFingerprint(pub, keyPath) << "\n";
    return 0;
}

} // namespace probaudit::app
