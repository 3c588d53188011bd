//===- vnm-tile-check.cpp - run one case's tile program from a file -------===//
//
//   vnm-tile-check --list
//   vnm-tile-check --print <case>            the case's tile program
//   vnm-tile-check --run <case> [<program>]  run it (or the program in the
//                                            file) and check it
//
// Exit status of --run: 0 when the result matches the reference, 1 when it
// does not or the program does not compile, 2 for a bad command line; a
// failed run-time check of the CPU execution aborts the process.
// scripts/mutate_tile_program.py uses it to show that perturbed tile programs
// fail.
//
//===----------------------------------------------------------------------===//

#include "SpmmCase.h"
#include "TileRunner.h"

#include <fstream>
#include <iostream>
#include <sstream>

using namespace vnm::tile_test;

int main(int argc, char **argv) {
  std::string mode = argc > 1 ? argv[1] : "";
  if (mode == "--list") {
    for (const SpmmCase &c : getCaseMatrix())
      std::cout << c.name() << "\n";
    return 0;
  }
  if ((mode != "--print" && mode != "--run") || argc < 3) {
    std::cerr << "usage: vnm-tile-check --list | --print <case> | --run "
                 "<case> [<program.mlir>]\n";
    return 2;
  }
  const SpmmCase *c = findCase(argv[2]);
  if (!c) {
    std::cerr << "no case " << argv[2] << " (see --list)\n";
    return 2;
  }
  std::string program;
  if (mode == "--run" && argc > 3) {
    std::ifstream file(argv[3]);
    std::stringstream text;
    text << file.rdbuf();
    program = text.str();
  } else {
    llvm::Expected<std::string> built = buildTileProgram(*c);
    if (!built) {
      std::cerr << llvm::toString(built.takeError()) << "\n";
      return 2;
    }
    program = std::move(*built);
  }
  if (mode == "--print") {
    std::cout << program;
    return 0;
  }
  std::string failure = runAndCheck(*c, program);
  std::cout << (failure.empty() ? "passed\n" : failure);
  return failure.empty() ? 0 : 1;
}
