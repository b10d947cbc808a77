// probaudit: the command-line interface and headless engine (Qt-free).
#include "app/probaudit/command.h"

int main(int argc, char** argv) {
    return probaudit::app::runCli(argc, argv);
}
