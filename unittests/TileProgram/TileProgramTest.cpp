//===- TileProgramTest.cpp - tile programs run on the CPU -----------------===//
//
// Every case of the matrix: the kernel's tile program through
// convert-vnm-gpu-to-loops, JIT-compiled, on fresh random data, against
// the float64 reference. Then the hand-pipelined program with a wait that
// leaves one more copy pending than it may, the same for a kernel that
// stages A with B, and a K-split kernel whose clusters a launch cuts short,
// none of which may pass.
//
//===----------------------------------------------------------------------===//

#include "CaseData.h"
#include "HandWrittenKernel.h"
#include "SpmmCase.h"
#include "TileRunner.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <regex>

#include <unistd.h>

using namespace vnm::tile_test;

namespace {

class TileProgramTest : public testing::TestWithParam<SpmmCase> {};

TEST_P(TileProgramTest, MatchesDenseReference) {
  const SpmmCase &c = GetParam();
  auto program = buildTileProgram(c);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(runAndCheck(c, *program), "");
}

INSTANTIATE_TEST_SUITE_P(CaseMatrix, TileProgramTest,
                         testing::ValuesIn(getCaseMatrix()),
                         [](const testing::TestParamInfo<SpmmCase> &info) {
                           return info.param.name();
                         });

/// The steady-state wait of the hand-pipelined program with one more copy
/// left pending: pair i has not landed when it is read.
std::string withLooserWait(const SpmmCase &c) {
  std::string program = writeHandKernel(c, /*pipelined=*/true);
  std::string steady = "pending(" + std::to_string(c.stages - 2) + ")";
  std::string looser = "pending(" + std::to_string(c.stages - 1) + ")";
  size_t loop = program.find("scf.for %i");
  size_t at = program.find(steady, loop);
  EXPECT_NE(at, std::string::npos);
  return program.replace(at, steady.size(), looser);
}

bool failedRun(int status) { return !testing::ExitedWithCode(0)(status); }

TEST(TileProgramWaitTest, OneMorePendingCopyFails) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SpmmCase c;
  c.rows = 130;
  c.cols = 16 * 8 * 4 + 5;
  c.n = 70;
  c.stages = 3;
  std::string program = withLooserWait(c);
  // The run either stops at the read of a slot whose copy has not landed or
  // gives a wrong result; it must not pass.
  EXPECT_EXIT(
      {
        std::string failure = runAndCheck(c, program);
        std::exit(failure.empty() ? 0 : 1);
      },
      failedRun, "");
}

TEST(TileProgramWaitTest, CorrectWaitPasses) {
  SpmmCase c;
  c.rows = 130;
  c.cols = 16 * 8 * 4 + 5;
  c.n = 70;
  c.stages = 3;
  EXPECT_EQ(runAndCheck(c, writeHandKernel(c, /*pipelined=*/true)), "");
}

/// A K-split kernel launched with one block fewer along y than its
/// contract says: the last tile's cluster is cut short, and the next column
/// of blocks starts at rank 0 where rank 3 was due.
TEST(TileProgramSplitTest, ClusterCutShortStops) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SpmmCase c;
  c.rows = 130;
  c.cols = 16 * 8 * 7 + 8 * 8 + 3;
  c.n = 200;
  c.kSplits = 4;
  c.source = ProgramSource::Generated;
  llvm::Expected<std::string> program = buildTileProgram(c);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(runAndCheck(c, *program), "");
  std::string full = "grid_y = 12 : i64";
  size_t at = program->find(full);
  ASSERT_NE(at, std::string::npos);
  std::string cut = program->replace(at, full.size(), "grid_y = 11 : i64");
  // The generated code prints its message to stdout; the death test reads
  // stderr.
  EXPECT_DEATH(
      {
        std::fflush(stdout);
        dup2(STDERR_FILENO, STDOUT_FILENO);
        std::string failure = runAndCheck(c, cut);
        std::exit(failure.empty() ? 0 : 1);
      },
      "runs a rank out of order");
}

/// A kernel that stages A with B (staged-a=1): its K loop's wait leaves
/// the two copies of the next pair in flight, B's and A's. Leaving one more
/// (the current pair's A) must not pass: the A ring's copies land only at
/// a wait that counts them.
TEST(TileProgramStagedATest, OneMorePendingCopyFails) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  SpmmCase c;
  c.rows = 130;
  c.cols = 16 * 8 * 6 + 5;
  c.n = 70;
  c.stages = 3;
  c.stagedA = true;
  c.source = ProgramSource::Generated;
  llvm::Expected<std::string> program = buildTileProgram(c);
  ASSERT_TRUE(static_cast<bool>(program))
      << llvm::toString(program.takeError());
  EXPECT_EQ(runAndCheck(c, *program), "");
  size_t loop = program->find("scf.for");
  size_t at = program->find("pending(2)", loop);
  ASSERT_NE(at, std::string::npos);
  std::string looser = program->replace(at, 10, "pending(3)");
  EXPECT_EXIT(
      {
        std::string failure = runAndCheck(c, looser);
        std::exit(failure.empty() ? 0 : 1);
      },
      failedRun, "");
}

} // namespace
