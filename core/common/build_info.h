#pragma once
// Engine version and the git commit the binary was built from (generated at build time by
// cmake/WriteBuildInfo.cmake).

namespace probaudit {

const char* engineVersion();
const char* gitCommit(); // 40 hex digits, or "unknown" outside a git checkout
bool gitDirty();         // tracked files differed from the commit at build time

} // namespace probaudit
