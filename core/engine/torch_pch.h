#pragma once
// Precompiled header for the engine's torch translation units (see core/CMakeLists.txt).
#include <ATen/ATen.h>
#include <ATen/Parallel.h>
#include <ATen/Version.h>
#include <c10/core/InferenceMode.h>
