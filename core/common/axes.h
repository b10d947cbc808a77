#pragma once
// The runtime configuration's axes (DESIGN.md, "Runtime configuration axes"): one table with
// each axis's name, kind, allowed values and the diagnosis suspect it belongs to. The study
// parser (RunConfig::fromJson), the config editor, the report's limits and the diagnosis read
// it; nothing else lists axes or their values. Defaults are RunConfig's member initialisers.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace probaudit {

enum class AxisKind {
    Choice,  // one of `values`
    Integer, // min <= v <= max
    Boolean,
    Device, // cpu | cuda:N
    Name,   // a name the study defines ("" = none): the runner environment of $.environments
};

// What an axis is a setting of: the built-in engine's computation, the requests an endpoint run
// sends to a server, or both. A server's own settings (its dtype, kernels, batching) are not
// axes of an endpoint study: the study declares them in $.model.labels.
enum class Scope { Engine, Endpoint, Both };

// Which rung of the diagnosis ladder an axis belongs to: the batch's shape (batch size,
// padding, order, truncation), the computation path (kernels, dtype, threads, flags), or the
// environment (which runner computes, in which Python environment: its torch build and kernel
// libraries), or the model itself (a variant: other weights).
enum class Suspect { Shape, Kernels, Environment, Model };

struct Axis {
    std::string_view name;
    AxisKind kind = AxisKind::Choice;
    std::vector<std::string_view> values; // Choice: allowed values; Device: suggestions
    std::int64_t min = 0;                 // Integer
    Suspect suspect = Suspect::Kernels;
    Scope scope = Scope::Engine;
    // The report's limits name every value of this axis that no config of a study tried.
    bool untried_in_report = false;
    std::int64_t max = INT64_MAX; // Integer: the largest value a run can honour
};

// Every axis, in the canonical JSON's key order (sorted by name).
const std::vector<Axis>& configAxes();
// Whether an axis is a setting of an endpoint study's runs (`endpoint`) or of the engine's.
bool axisApplies(const Axis& axis, bool endpoint);
// The values an axis offers as text: Choice and Device their list, Boolean "false" and "true",
// Integer none.
std::vector<std::string> axisValues(const Axis& axis);
// The axis called `name`, or null.
const Axis* findAxis(std::string_view name);
// "shape", "kernels" or "environment": the suspect an axis difference points to (unknown axes:
// "kernels").
std::string suspectOf(std::string_view axis);
std::string_view suspectName(Suspect s);

} // namespace probaudit
