# Third-party packages: libtorch from the pinned PyPI wheel (scripts/deps.txt), the rest from
# Debian 12. Every version pin lives in scripts/deps.txt; this file reads the torch pin from it.

# The torch version scripts/setup installs, for the env test.
file(STRINGS "${CMAKE_SOURCE_DIR}/scripts/deps.txt" _probaudit_torch_pin REGEX "^venv torch==")
string(REGEX REPLACE "^venv torch==([^ ]+).*$" "\\1" PROBAUDIT_TORCH_PIN "${_probaudit_torch_pin}")

# Locate libtorch through the wheel's own answer (torch.utils.cmake_prefix_path).
if(NOT PROBAUDIT_PYTHON)
    if(EXISTS "${CMAKE_SOURCE_DIR}/.venv/bin/python")
        set(PROBAUDIT_PYTHON "${CMAKE_SOURCE_DIR}/.venv/bin/python")
    else()
        find_program(PROBAUDIT_PYTHON NAMES python3 REQUIRED)
    endif()
endif()
execute_process(
    COMMAND "${PROBAUDIT_PYTHON}" -c
            "import os, torch; print(torch.utils.cmake_prefix_path); print(os.path.dirname(os.path.dirname(torch.__file__)))"
    OUTPUT_VARIABLE _probaudit_torch_paths
    RESULT_VARIABLE _probaudit_torch_rc
    OUTPUT_STRIP_TRAILING_WHITESPACE)
if(NOT _probaudit_torch_rc EQUAL 0)
    message(FATAL_ERROR "No torch in ${PROBAUDIT_PYTHON}: run ./scripts/setup first "
                        "(or pass -DPROBAUDIT_PYTHON=/path/to/python with torch installed)")
endif()
string(REPLACE "\n" ";" _probaudit_torch_paths "${_probaudit_torch_paths}")
list(GET _probaudit_torch_paths 0 _probaudit_torch_prefix)
list(GET _probaudit_torch_paths 1 PROBAUDIT_SITE_PACKAGES)
list(APPEND CMAKE_PREFIX_PATH "${_probaudit_torch_prefix}")

# A CUDA build of the wheel needs the CUDA toolkit to configure; its shared libraries must
# still be the wheel's own (nvidia/*/lib), never the toolkit's, or the engine would audit a
# different cuBLAS/cuDNN than the one torch ships. Those directories go first in every RPATH.
set(PROBAUDIT_TORCH_RPATH "")
foreach(_d torch/lib nvidia/cu13/lib nvidia/cudnn/lib nvidia/nccl/lib nvidia/cusparselt/lib
           nvidia/nvshmem/lib)
    if(EXISTS "${PROBAUDIT_SITE_PACKAGES}/${_d}")
        list(APPEND PROBAUDIT_TORCH_RPATH "${PROBAUDIT_SITE_PACKAGES}/${_d}")
    endif()
endforeach()
set(CMAKE_BUILD_RPATH "${PROBAUDIT_TORCH_RPATH}")

# torch's CMake config would otherwise try to run a program on the local GPU to pick the
# architectures; build machines have none. Match kernels/ (Ampere and Hopper).
if(NOT TORCH_CUDA_ARCH_LIST)
    set(TORCH_CUDA_ARCH_LIST "8.0;9.0")
endif()
# ...and it warns when CMAKE_CUDA_ARCHITECTURES is set (a re-configure has it cached); the
# project sets its own architectures after this (CMakeLists.txt).
unset(CMAKE_CUDA_ARCHITECTURES CACHE)
find_package(Torch REQUIRED)
set(Torch_VERSION_STRING "${Torch_VERSION}")

find_package(nlohmann_json 3.11 REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
# PCRE2 and utf8proc through pkg-config; where there is none (the bare GPU machine of
# scripts/gpu-check.sh, which stages headers and libraries into its prefix), by path.
find_package(PkgConfig)
if(PKG_CONFIG_FOUND)
    pkg_check_modules(PCRE2 IMPORTED_TARGET libpcre2-8)
    pkg_check_modules(UTF8PROC IMPORTED_TARGET libutf8proc)
endif()
foreach(_pa_lib PCRE2:pcre2.h:pcre2-8 UTF8PROC:utf8proc.h:utf8proc)
    string(REPLACE ":" ";" _pa_parts "${_pa_lib}")
    list(GET _pa_parts 0 _pa_name)
    list(GET _pa_parts 1 _pa_header)
    list(GET _pa_parts 2 _pa_so)
    if(NOT TARGET PkgConfig::${_pa_name})
        find_path(PROBAUDIT_${_pa_name}_INCLUDE ${_pa_header} REQUIRED)
        find_library(PROBAUDIT_${_pa_name}_LIB ${_pa_so} REQUIRED)
        add_library(PkgConfig::${_pa_name} INTERFACE IMPORTED)
        set_target_properties(PkgConfig::${_pa_name} PROPERTIES
            INTERFACE_INCLUDE_DIRECTORIES "${PROBAUDIT_${_pa_name}_INCLUDE}"
            INTERFACE_LINK_LIBRARIES "${PROBAUDIT_${_pa_name}_LIB}")
    endif()
endforeach()

# The GPU check builds only the kernels, the engine and the `gpu` suites: no Qt, no ledger.
if(PROBAUDIT_GPU_CHECK)
    return()
endif()
find_package(CLI11 REQUIRED)
# Endpoint runs (core/endpoint): libcurl's multi interface (Debian libcurl4-openssl-dev).
find_package(CURL 7.85 REQUIRED)

# Qt Core and QuaZip: the audit bundle (core/bundle), which the CLI links too; the rest of Qt
# only for the workbench, the report writer and the tests.
find_package(Qt6 6.4 REQUIRED COMPONENTS Core)
find_package(QuaZip-Qt6 REQUIRED)
if(PROBAUDIT_BUILD_GUI OR PROBAUDIT_BUILD_TESTS)
    find_package(Qt6 6.4 REQUIRED COMPONENTS Core Gui Widgets Charts Concurrent Test LinguistTools)
endif()

# The ledger: SQLite through SQLiteCpp (Debian libsqlitecpp-dev); datasets: libcsv (libcsv-dev).
find_package(SQLite3 REQUIRED)
find_package(SQLiteCpp REQUIRED)
find_path(PROBAUDIT_CSV_INCLUDE csv.h REQUIRED)
find_library(PROBAUDIT_CSV_LIB csv REQUIRED)
