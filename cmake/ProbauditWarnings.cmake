# Warnings for project code only. Third-party headers (torch, Qt) come in as SYSTEM includes
# through their imported targets, so they do not count against "-Wall -Wextra clean".
add_library(probaudit_warnings INTERFACE)
target_compile_options(probaudit_warnings INTERFACE
    $<$<COMPILE_LANGUAGE:CXX>:-Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor>
    $<$<COMPILE_LANGUAGE:CUDA>:-Xcompiler=-Wall,-Wextra>)
