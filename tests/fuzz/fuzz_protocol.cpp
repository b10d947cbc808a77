// libFuzzer: a stream of engine protocol lines is read as `probaudit engine` reads its input
// (a line limit, the rest of a longer line dropped) and every line decoded into a request or
// refused with a RequestError carrying the request's id when it has one. Nothing else may be
// thrown, and the reply (the id and the message) is written as the engine writes it (invalid
// UTF-8 of a quoted input replaced).
#include "core/common/protocol_request.h"

#include <cstdint>
#include <sstream>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    std::stringbuf in(std::string(reinterpret_cast<const char*>(data), size));
    std::string line;
    for (;;) {
        const auto got = probaudit::protocol::readRequestLine(in, line, 4096);
        if (got == probaudit::protocol::LineRead::End) {
            break;
        }
        if (got == probaudit::protocol::LineRead::TooLong ||
            line.find_first_not_of(" \t\r") == std::string::npos) {
            continue;
        }
        try {
            const auto r = probaudit::protocol::decodeRequest(line);
            (void)nlohmann::json{{"id", r.id}, {"method", r.method}}.dump(
                -1, ' ', false, nlohmann::json::error_handler_t::replace);
        } catch (const probaudit::protocol::RequestError& e) {
            (void)nlohmann::json{{"id", e.id()}, {"message", e.what()}}.dump(
                -1, ' ', false, nlohmann::json::error_handler_t::replace);
        }
    }
    return 0;
}
