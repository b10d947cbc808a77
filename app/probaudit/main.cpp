// probaudit: the command-line interface and headless engine (Qt-free).
#include "app/probaudit/command.h"

#include <cstdio>
#include <cstdlib>
#include <iostream>

int main(int argc, char** argv) {
    const int code = probaudit::app::runCli(argc, argv);
    // Everything of ours is closed and written when runCli returns (ledgers, runners, children,
    // temporary files: all scoped). What is left are the libraries' static destructors, and
    // libtorch's and CUDA's page in about 120 MB of their code to run (a peak of 483 MB against
    // 360 MB while working, measured with `probaudit --version`): the process ends without them.
    // The sanitizers' builds keep them, as their leak check runs there.
    std::cout.flush();
    std::cerr.flush();
    std::fflush(nullptr);
#if !defined(__SANITIZE_ADDRESS__)
    std::_Exit(code);
#else
    return code;
#endif
}
