#pragma once
// The core throws; the boundary (CLI, engine protocol) catches and turns the error into a
// status and one line for the user. Messages name the file (when there is one) and the problem.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>

namespace probaudit {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    Error(const std::string& file, const std::string& problem)
        : std::runtime_error(file + ": " + problem) {}
};

// Outside text (a server's error message, a runner's or a remote host's line, a file name) as it
// may be quoted in a message: every control character (C0, DEL) written as \xNN, so that it
// can neither move the terminal's cursor nor start a line of its own. `keep` names control
// characters left as they are (the CLI keeps its own messages' line breaks).
inline std::string escapeControls(std::string_view text, std::string_view keep = {}) {
    std::string out;
    out.reserve(text.size());
    for (const char ch : text) {
        const auto c = static_cast<unsigned char>(ch);
        if ((c < 0x20 || c == 0x7f) && keep.find(ch) == std::string_view::npos) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", c);
            out += buf;
        } else {
            out += ch;
        }
    }
    return out;
}

} // namespace probaudit
