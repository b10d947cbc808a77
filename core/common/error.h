#pragma once
// The core throws; the boundary (CLI, engine protocol) catches and turns the error into a
// status and one line for the user. Messages name the file (when there is one) and the problem.
#include <stdexcept>
#include <string>

namespace probaudit {

class Error : public std::runtime_error {
public:
    explicit Error(const std::string& message) : std::runtime_error(message) {}
    Error(const std::string& file, const std::string& problem)
        : std::runtime_error(file + ": " + problem) {}
};

} // namespace probaudit
