# Engine version and git commit, regenerated at every build (not only at configure time), so a
# binary never reports a commit it was not built from. The generated file is rewritten only
# when its content changes, so an unchanged commit costs no recompilation.
set(PROBAUDIT_BUILD_INFO_CPP "${CMAKE_BINARY_DIR}/generated/build_info.cpp")
add_custom_target(probaudit_build_info_gen
    COMMAND "${CMAKE_COMMAND}"
            -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
            -DOUTPUT=${PROBAUDIT_BUILD_INFO_CPP}
            -DVERSION=${PROJECT_VERSION}
            -P "${CMAKE_SOURCE_DIR}/cmake/WriteBuildInfo.cmake"
    BYPRODUCTS "${PROBAUDIT_BUILD_INFO_CPP}"
    COMMENT "Recording engine version and git commit"
    VERBATIM)
