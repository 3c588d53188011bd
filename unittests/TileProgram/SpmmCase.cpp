//===- SpmmCase.cpp - the case matrix -------------------------------------===//

#include "SpmmCase.h"

#include "llvm/ADT/STLExtras.h"

using namespace vnm::tile_test;

std::string SpmmCase::name() const {
  std::string text =
      "v" + std::to_string(v) + "_m" + std::to_string(m) + "_" + element;
  if (weightType() != element)
    text += "_w" + weightType();
  if (groupSize)
    text += "_g" + std::to_string(groupSize);
  if (result != element)
    text += "_to_" + result;
  if (accumulate)
    text += "_acc";
  if (bias)
    text += "_bias";
  if (activation != "none")
    text += "_" + activation;
  text += "_r" + std::to_string(rows) + "_k" + std::to_string(cols) + "_n" +
          std::to_string(n) + "_b" + std::to_string(blockRows) + "_w" +
          std::to_string(warpRows) + "x" + std::to_string(warpsN) + "_s" +
          std::to_string(stages);
  if (unroll)
    text += "_u" + std::to_string(unroll);
  if (kSplits)
    text += "_ks" + std::to_string(kSplits);
  if (stagedA)
    text += "_stageda";
  if (tokenMajor)
    text += "_tokenmajor";
  if (tokenMajorOut)
    text += "_outtokenmajor";
  if (extraLdb || extraLdc)
    text += "_pitch";
  if (chip != "sm_90")
    text += "_" + chip;
  if (blockCols)
    text += "_c" + std::to_string(blockCols);
  if (chip == "sm_90a" && recipe != "wgmma-sp")
    text += "_ws"; // recipe wgmma-sp-ws
  if (as24)
    text += "_as24";
  switch (source) {
  case ProgramSource::Generated:
    break;
  case ProgramSource::HandPlain:
    text += "_handplain";
    break;
  case ProgramSource::HandPipelined:
    text += "_handpipelined";
    break;
  case ProgramSource::HandWarpSpecialized:
    text += "_handws";
    break;
  }
  return text;
}

std::vector<SpmmCase> vnm::tile_test::getCaseMatrix() {
  // bench/cases.py's families: V in {64, 128} with M in {8, 16, 32}, and
  // 2:4 (M = 4) with V in {16, 64, 128}.
  const std::pair<int64_t, int64_t> families[] = {
      {64, 8},   {64, 16}, {64, 32}, {128, 8}, {128, 16},
      {128, 32}, {16, 4},  {64, 4},  {128, 4}};
  const char *results[] = {"f16", "bf16", "f32"};
  const char *activations[] = {"none", "relu", "gelu"};
  // k-tile pairs per case: fewer than the stages (prologue and epilogue
  // only) as well as several steady-state iterations.
  const int64_t pairs[] = {3, 2, 5, 7, 4};
  std::vector<SpmmCase> cases;
  int family = 0;
  for (auto [v, m] : families) {
    bool tallBlocks = m == 4 || v % 128 == 0;
    // Five cases per family: stages 2 .. 6, and every value of every other
    // option at least once (128-row blocks where the format allows them).
    for (int i = 0; i < 5; ++i) {
      SpmmCase c;
      c.v = v;
      c.m = m;
      c.stages = 2 + i;
      c.blockRows = tallBlocks && i % 2 == 0 ? 128 : 64;
      c.warpRows = i % 2 == 1 || i == 4 ? 64 : 32;
      c.warpsN = i % 2 == 1 ? 4 : 2;
      c.element = (i + family) % 2 ? "bf16" : "f16";
      c.result = results[(i + family) % 3];
      c.accumulate = i % 2 == 0;
      c.bias = (i + family) % 2 == 1;
      c.activation = activations[(i + 2 * family) % 3];
      // Ragged everywhere: R not a multiple of 128 (nor of V), K not a
      // multiple of M, N not a multiple of 8.
      c.rows = 200 + 37 * i + 11 * family;
      c.cols = 16 * m * (pairs[i] - 1) + 8 * m + 3;
      c.n = 130 + 41 * i;
      if (i == 2) {
        c.extraLdb = 8;
        c.extraLdc = 16;
      }
      // Every case runs the tile program vnm-lower-to-gpu and
      // vnm-pipeline-kernels generate. Three families also run hand-written
      // programs of the same kernel, plain and pipelined: the mutation check
      // (scripts/mutate_tile_program.py) perturbs those by name.
      c.source = ProgramSource::Generated;
      cases.push_back(c);
      if (family == 0 || family == 1 || family == 6) {
        c.source =
            i == 1 ? ProgramSource::HandPlain : ProgramSource::HandPipelined;
        cases.push_back(c);
      }
    }
    ++family;
  }
  // W8A8: the i8 kernels on token-major activations (M = 4 copies them,
  // M = 8 selects the kept bytes in load_b), exact i32 results and
  // dequantized float results.
  const char *integerResults[] = {"i32", "f16", "bf16", "f32", "f16"};
  const std::pair<int64_t, int64_t> integerFamilies[] = {
      {16, 4}, {64, 4}, {128, 4}, {64, 8}, {128, 8}};
  for (auto [v, m] : integerFamilies)
    for (int i = 0; i < 5; ++i) {
      SpmmCase c;
      c.v = v;
      c.m = m;
      c.element = "i8";
      c.result = integerResults[(i + v / 16 + m / 8) % 5];
      c.stages = 2 + i;
      c.blockRows = i % 2 == 0 && (m == 4 || v % 128 == 0) ? 128 : 64;
      c.warpRows = i % 2 == 1 || i == 4 ? 64 : 32;
      c.warpsN = i % 2 == 1 ? 4 : 2;
      c.accumulate = i % 2 == 0;
      bool floatResult = c.result != "i32";
      c.bias = floatResult && i % 2 == 1;
      c.activation = floatResult ? activations[(i + v / 16) % 3] : "none";
      c.rows = 190 + 37 * i + v / 16;
      c.cols = 16 * m * (pairs[i] - 1) + 8 * m + 3 + 8 * (i % 2);
      c.n = 120 + 41 * i;
      if (i == 2) {
        c.extraLdb = 16;
        c.extraLdc = 16;
      }
      // y token-major (a quantized linear layer's result), i32 and float.
      c.tokenMajorOut = i >= 3;
      c.source = ProgramSource::Generated;
      cases.push_back(c);
    }
  // W4A8: i4 weights (packed nibbles, widened to i8 in registers) on the
  // W8A8 kernels, both M.
  for (auto [v, m] : {std::pair<int64_t, int64_t>{64, 4}, {128, 8}})
    for (int i = 0; i < 3; ++i) {
      SpmmCase c;
      c.v = v;
      c.m = m;
      c.element = "i8";
      c.weight = "i4";
      c.result = integerResults[(2 * i + m / 4) % 5];
      c.stages = 2 + 2 * i;
      c.blockRows = i == 1 && m == 4 ? 128 : 64;
      c.warpRows = i == 2 ? 64 : 32;
      c.warpsN = i == 1 ? 4 : 2;
      bool floatResult = c.result != "i32";
      c.accumulate = i != 1;
      c.bias = floatResult && i == 2;
      c.activation = floatResult ? activations[i] : "none";
      c.rows = 170 + 45 * i + v / 16;
      c.cols = 16 * m * (pairs[i] - 1) + 8 * m + 5 + 16 * (i % 2);
      c.n = 100 + 37 * i;
      if (i == 1)
        c.extraLdb = 32;
      c.tokenMajorOut = i == 0;
      c.source = ProgramSource::Generated;
      cases.push_back(c);
    }
  // A family of cases: the weight's element type (empty: rhs's), rhs's,
  // and the format.
  struct Operands {
    const char *weight, *element;
    int64_t v, m;
  };
  // W8A16 and W4A16: i8/i4 weights in the 16-bit fragment class,
  // dequantized to the f16/bf16 MMA in registers, per-row weight scales.
  const Operands weightOnly[] = {{"i8", "f16", 64, 8},
                                 {"i4", "bf16", 128, 8},
                                 {"i8", "bf16", 64, 4},
                                 {"i4", "f16", 64, 16}};
  int index = 0;
  for (const Operands &w : weightOnly) {
    for (int i = 0; i < 2; ++i) {
      SpmmCase c;
      c.v = w.v;
      c.m = w.m;
      c.weight = w.weight;
      c.element = w.element;
      c.result = results[(i + index) % 3];
      c.stages = 2 + i + index;
      c.blockRows = i == 1 && (w.m == 4 || w.v % 128 == 0) ? 128 : 64;
      c.warpRows = i == 0 ? 32 : 64;
      c.warpsN = 2 + 2 * ((i + index) % 2);
      c.accumulate = i == 0;
      c.bias = i == 1;
      c.activation = activations[(i + index) % 3];
      c.rows = 150 + 29 * i + 13 * index;
      c.cols = 16 * w.m * (pairs[i + index] - 1) + 8 * w.m + 5;
      c.n = 70 + 33 * i + 9 * index;
      c.source = ProgramSource::Generated;
      cases.push_back(c);
      // The same with per-group scales: groups of one and of two k-tile
      // pairs (16 M and 32 M columns), the last one ragged.
      c.groupSize = 16 * w.m * (1 + i);
      c.cols += 16 * w.m;
      cases.push_back(c);
    }
    ++index;
  }
  // f16/bf16 rhs read token-major (x[N][K]): M = 4 copies each token's K
  // values, M = 8 copies its groups whole and selects the kept values in
  // load_b; float and dequantized weights, K a multiple of 8.
  const Operands tokenMajor[] = {{"", "f16", 16, 4},   {"", "bf16", 128, 4},
                                 {"", "f16", 64, 8},   {"", "bf16", 128, 8},
                                 {"i8", "f16", 64, 8}, {"i4", "bf16", 64, 4}};
  index = 0;
  for (const Operands &t : tokenMajor) {
    for (int i = 0; i < 2; ++i) {
      SpmmCase c;
      c.tokenMajor = true;
      c.v = t.v;
      c.m = t.m;
      c.weight = t.weight;
      c.element = t.element;
      c.result = results[(i + index) % 3];
      c.stages = 2 + (i + 2 * index) % 5;
      c.blockRows =
          i == 0 && (t.m == 4 || t.v % 128 == 0) && !*t.weight ? 128 : 64;
      c.warpRows = (i + index) % 2 ? 64 : 32;
      c.warpsN = i == 1 ? 4 : 2;
      c.accumulate = i == 1;
      c.bias = i == 0;
      c.activation = activations[(i + index) % 3];
      c.rows = 140 + 31 * i + 17 * index;
      c.cols = 16 * t.m * (pairs[(i + index) % 5] - 1) + 8 * t.m + 8 * i;
      c.n = 90 + 35 * i + 11 * index;
      if (i == 1)
        c.extraLdb = 8;
      // y token-major too (a linear layer's whole token-major form), with
      // and without accumulation.
      c.tokenMajorOut = i == index % 2;
      c.source = ProgramSource::Generated;
      cases.push_back(c);
    }
    ++index;
  }
  // sm_90a: the wgmma.sp tile programs, one warpgroup (64-row tiles) and
  // two (128-row tiles, where the format allows them), every family.
  int hopper = 0;
  for (auto [v, m] : families) {
    for (int i = 0; i < 2; ++i) {
      SpmmCase c;
      c.chip = "sm_90a";
      c.v = v;
      c.m = m;
      c.stages = 2 + (hopper + i) % 5;
      c.blockRows = i == 1 && (m == 4 || v % 128 == 0) ? 128 : 64;
      c.element = (hopper + i) % 2 ? "bf16" : "f16";
      c.result = results[(hopper + i) % 3];
      c.accumulate = i == 0;
      c.bias = i == 1;
      c.activation = activations[(hopper + 2 * i) % 3];
      c.rows = 190 + 29 * i + 7 * hopper;
      c.cols = 16 * m * (pairs[(hopper + i) % 5] - 1) + 8 * m + 3;
      c.n = 120 + 37 * i + 5 * hopper;
      if (i == 1)
        c.extraLdb = 8;
      c.tokenMajorOut = (hopper + i) % 3 == 1;
      c.source = ProgramSource::Generated;
      cases.push_back(c);
    }
    ++hopper;
  }
  // A producer warpgroup feeding wgmma.sp consumers (one or two
  // warpgroups), written out by hand: gathered and copied B, A staged
  // through an A ring, every stage count of the ring.
  const std::pair<int64_t, int64_t> splitFamilies[] = {
      {64, 4}, {64, 8}, {128, 8}, {128, 16}, {64, 32}};
  int split = 0;
  for (auto [v, m] : splitFamilies) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.v = v;
    c.m = m;
    c.stages = 2 + split % 4;
    c.blockRows = m == 4 || v % 128 == 0 ? 128 : 64;
    c.element = split % 2 ? "bf16" : "f16";
    c.result = results[split % 3];
    c.accumulate = split == 1;
    c.bias = split % 2 == 0;
    c.activation = activations[split % 3];
    c.rows = 150 + 43 * split;
    c.cols = 16 * m * (pairs[split % 5] - 1) + 8 * m + 5;
    c.n = 100 + 29 * split;
    c.source = ProgramSource::HandWarpSpecialized;
    cases.push_back(c);
    ++split;
  }
  // The generated warp-specialized kernels (recipe wgmma-sp-ws, M = 4):
  // a producer warpgroup copies B by the TMA and stages A by bulk copies;
  // one or two computing warpgroups, 128 and 256 columns, 2 to 4 stages,
  // ragged R, K and N, every epilogue.
  for (int i = 0; i < 4; ++i) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.recipe = "wgmma-sp-ws";
    c.v = i % 2 ? 16 : 64;
    c.m = 4;
    // At most 4 stages of 256 columns (wgmma_sp_tiling C4).
    c.stages = std::min(2 + i, 4);
    c.blockRows = i == 2 ? 64 : 128;
    c.blockCols = i % 2 ? 256 : 128;
    c.element = i % 2 ? "bf16" : "f16";
    c.result = results[i % 3];
    c.accumulate = i == 1;
    c.bias = i != 1;
    c.activation = activations[i % 3];
    c.rows = 170 + 41 * i;
    c.cols = 16 * 4 * pairs[i % 5] + 4 * (i + 1) + 1;
    c.n = 90 + 67 * i;
    if (i == 3)
      c.extraLdb = 8;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // V:2:8 and V:2:16 run as 2:4 on the warp-specialized kernel (as-2-4=1):
  // pruned as V:2:M, packed as V:2:4, B copied densely.
  for (int i = 0; i < 2; ++i) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.recipe = "wgmma-sp-ws";
    c.as24 = true;
    c.v = i ? 128 : 64;
    c.m = i ? 16 : 8;
    c.stages = 3 + i;
    c.blockRows = 128;
    c.blockCols = i ? 256 : 128;
    c.element = i ? "bf16" : "f16";
    c.result = results[2 - i];
    c.accumulate = i == 0;
    c.bias = i == 1;
    c.activation = activations[1 + i];
    c.rows = 190 + 67 * i;
    c.cols = 16 * c.m * (pairs[i] - 1) + 4 * c.m + 3;
    c.n = 140 + 83 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // The warp-specialized kernels reading x[N][K] token-major: B as K-major
  // TMA boxes of each block's tokens (K a multiple of 8), 2:4 and V:2:8 as
  // 2:4, y token-major or R x N, ragged R, K and N.
  for (int i = 0; i < 3; ++i) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.recipe = "wgmma-sp-ws";
    c.tokenMajor = true;
    c.as24 = i == 2;
    c.v = i == 1 ? 16 : 64;
    c.m = i == 2 ? 8 : 4;
    c.stages = 2 + i;
    c.blockRows = i == 1 ? 64 : 128;
    c.blockCols = i == 0 ? 256 : 128;
    c.element = i == 1 ? "bf16" : "f16";
    c.result = results[(i + 1) % 3];
    c.accumulate = i == 1;
    c.bias = i != 1;
    c.activation = activations[(i + 2) % 3];
    c.rows = 180 + 37 * i;
    c.cols = 16 * c.m * pairs[(i + 1) % 5] + 8 * (i + 1);
    c.n = 110 + 59 * i;
    if (i == 1)
      c.extraLdb = 8;
    c.tokenMajorOut = i != 1;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // W8A8 and W4A8 2:4 on the warp-specialized kernel's s8 wgmma.sp
  // (m64nNk64): the TMA copies each block's tokens as 64-byte rows in its
  // 64-byte swizzle, the producer stages one k64 tile of A per pair (W4A8:
  // its packed nibbles, half the bytes, which the consumers widen); exact
  // i32 sums and dequantized float results, one and two computing
  // warpgroups, 128 and 256 columns, 2 to 4 stages, ragged R, K and N.
  const struct {
    int64_t v;
    const char *weight, *result, *activation;
    int64_t stages, blockRows, blockCols;
    bool accumulate, bias, tokenMajorOut;
    int64_t extraLdb;
  } s8Wgmma[] = {
      {64, "", "i32", "none", 2, 128, 128, true, false, false, 0},
      {128, "", "f16", "relu", 3, 64, 128, false, false, true, 0},
      {64, "", "bf16", "gelu", 4, 128, 256, true, true, false, 0},
      {128, "", "f32", "none", 2, 128, 256, false, false, false, 16},
      {64, "i4", "f16", "gelu", 3, 64, 128, false, true, true, 0},
      {128, "i4", "i32", "none", 4, 128, 256, true, false, false, 0},
  };
  for (auto [i, q] : llvm::enumerate(s8Wgmma)) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.recipe = "wgmma-sp-ws";
    c.v = q.v;
    c.m = 4;
    c.element = "i8";
    c.weight = q.weight;
    c.result = q.result;
    c.activation = q.activation;
    c.stages = q.stages;
    c.blockRows = q.blockRows;
    c.blockCols = q.blockCols;
    c.accumulate = q.accumulate;
    c.bias = q.bias;
    c.tokenMajorOut = q.tokenMajorOut;
    c.extraLdb = q.extraLdb;
    c.rows = 150 + 43 * i;
    c.cols = 16 * 4 * (pairs[i % 5] - 1) + 8 * 4 + 3 + 8 * i;
    c.n = 100 + 53 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // 256-column wgmma.sp tiles (m64n256k32), one and two warpgroups.
  for (int i = 0; i < 2; ++i) {
    SpmmCase c;
    c.chip = "sm_90a";
    c.blockCols = 256;
    c.v = i ? 128 : 64;
    c.m = i ? 16 : 8;
    c.stages = 3;
    c.blockRows = i ? 128 : 64;
    c.element = i ? "bf16" : "f16";
    c.result = results[i + 1];
    c.bias = i == 1;
    c.activation = activations[2 * i];
    c.rows = 201 + 53 * i;
    c.cols = 16 * c.m * 3 + 8 * c.m + 5;
    c.n = 300 + 61 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // K loops long enough to unroll: vnm-unroll-kernel-loops unrolls the
  // pipelined loop by the ring's stages (the default for 32-row warp tiles
  // reading B as K x N; asked for here, so that the i8 kernels, which read
  // it token-major, are unrolled too), with the leftover iterations after
  // it (3 stages, 11 pairs: 8 iterations, two unrolled and two left over;
  // 2 stages, 10 pairs: 4 and none; 4 stages, 11 pairs: 7, one and three
  // left over). The gathers, the dense copies (M = 4) and the i8 kernels.
  const struct {
    int64_t v, m, stages, pairs;
    const char *element;
  } unrolled[] = {{64, 8, 3, 11, "f16"},  {128, 16, 2, 10, "bf16"},
                  {64, 32, 4, 11, "f16"}, {16, 4, 3, 11, "bf16"},
                  {64, 8, 3, 11, "i8"},   {128, 4, 4, 11, "i8"}};
  for (auto [i, u] : llvm::enumerate(unrolled)) {
    SpmmCase c;
    c.v = u.v;
    c.m = u.m;
    c.element = u.element;
    c.stages = u.stages;
    c.unroll = u.stages;
    c.blockRows = u.m == 4 || u.v % 128 == 0 ? 128 : 64;
    c.warpRows = 32;
    c.warpsN = 2;
    bool integer = c.element == "i8";
    c.result = integer ? (i % 2 ? "i32" : "f32") : results[i % 3];
    c.accumulate = i % 2 == 0;
    c.bias = !integer && i % 2 == 1;
    c.activation = integer ? "none" : activations[i % 3];
    c.rows = 150 + 29 * i;
    c.cols = 16 * c.m * (u.pairs - 1) + 8 * c.m + 3;
    c.n = 90 + 23 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // K split over a cluster of blocks (k-splits): every rank runs its pairs,
  // the last sums the partial tiles and runs the epilogue. The gather, the
  // dense copy (M = 4), per-group scales (a split's pairs are whole groups),
  // the i8 kernel's i32 sums, an unrolled loop, and a split with fewer
  // pairs than stages (not pipelined); ragged R, K and N throughout.
  const struct {
    int64_t v, m, splits, pairs, stages;
    const char *element, *weight, *result;
    int64_t unroll, groupPairs;
  } splitCases[] = {
      {64, 8, 4, 8, 3, "f16", "", "f16", 0, 0},
      {128, 4, 2, 6, 4, "bf16", "", "f32", 0, 0},
      {64, 8, 3, 6, 2, "f16", "i4", "f16", 0, 1},
      {128, 8, 2, 8, 3, "bf16", "i8", "bf16", 0, 2},
      {64, 8, 2, 10, 5, "i8", "", "i32", 0, 0},
      {64, 4, 8, 16, 3, "i8", "i4", "f16", 0, 0},
      {64, 16, 2, 12, 3, "f16", "", "f16", 3, 0},
      {64, 8, 4, 4, 3, "f16", "", "f32", 0, 0},
  };
  for (auto [i, k] : llvm::enumerate(splitCases)) {
    SpmmCase c;
    c.v = k.v;
    c.m = k.m;
    c.element = k.element;
    c.weight = k.weight;
    c.result = k.result;
    c.kSplits = k.splits;
    c.stages = k.stages;
    c.unroll = k.unroll;
    c.blockRows = k.v % 128 == 0 ? 128 : 64;
    c.groupSize = 16 * k.m * k.groupPairs;
    bool integer = c.element == "i8";
    c.accumulate = i % 2 == 1;
    c.bias = !integer && i % 3 == 0;
    c.activation = integer ? "none" : activations[i % 3];
    c.rows = 130 + 37 * i;
    // The last pair ragged: 8 M + 3 of its 16 M columns.
    c.cols = 16 * c.m * (k.pairs - 1) + 8 * c.m + 3;
    c.n = 70 + 41 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  // A fragments staged through a shared A ring (staged-a=1): copied with B
  // in each pair's slot, counted by the waits with B's copies, read after
  // them. Every V and M family, 2 to 6 stages, rolled and unrolled loops,
  // 64- and 128-row blocks, 64-row warp tiles, four columns of warps, the
  // i8 and packed i4 weights of the i8 MMA, a token-major rhs, a K split;
  // ragged R, K and N throughout.
  const struct {
    int64_t v, m, stages, pairs, blockRows, warpRows, warpsN, unroll, splits;
    const char *element, *weight, *result;
    bool tokenMajor;
  } stagedCases[] = {
      {64, 8, 3, 9, 64, 32, 2, 0, 0, "f16", "", "f16", false},
      {128, 16, 4, 7, 128, 32, 2, 0, 0, "bf16", "", "f32", false},
      {64, 32, 6, 5, 64, 32, 4, 0, 0, "f16", "", "f16", false},
      {16, 4, 5, 11, 128, 32, 2, 5, 0, "bf16", "", "bf16", false},
      {128, 8, 2, 9, 128, 64, 2, 0, 0, "f16", "", "f32", false},
      {64, 16, 3, 11, 64, 32, 2, 3, 0, "bf16", "", "bf16", false},
      {128, 4, 3, 7, 64, 32, 2, 0, 0, "f16", "", "f16", true},
      {64, 8, 3, 8, 64, 32, 2, 0, 0, "i8", "", "i32", false},
      {64, 4, 4, 9, 64, 32, 2, 0, 0, "i8", "i4", "f16", false},
      {64, 8, 3, 8, 64, 32, 2, 0, 2, "f16", "", "f16", false},
  };
  for (auto [i, s] : llvm::enumerate(stagedCases)) {
    SpmmCase c;
    c.v = s.v;
    c.m = s.m;
    c.element = s.element;
    c.weight = s.weight;
    c.result = s.result;
    c.stages = s.stages;
    c.unroll = s.unroll;
    c.kSplits = s.splits;
    c.blockRows = s.blockRows;
    c.warpRows = s.warpRows;
    c.warpsN = s.warpsN;
    c.tokenMajor = s.tokenMajor;
    c.stagedA = true;
    bool integer = c.element == "i8";
    c.accumulate = i % 2 == 1;
    c.bias = !integer && i % 3 == 0;
    c.activation = integer ? "none" : activations[i % 3];
    c.rows = 140 + 31 * i;
    c.cols = 16 * c.m * (s.pairs - 1) + 8 * c.m + 5;
    if (c.tokenMajor) // an f16/bf16 token's K values in whole 16-byte chunks
      c.cols = (c.cols + 7) / 8 * 8;
    c.n = 80 + 37 * i;
    c.source = ProgramSource::Generated;
    cases.push_back(c);
  }
  return cases;
}

const SpmmCase *vnm::tile_test::findCase(const std::string &name) {
  static const std::vector<SpmmCase> cases = getCaseMatrix();
  for (const SpmmCase &c : cases)
    if (c.name() == name)
      return &c;
  return nullptr;
}
