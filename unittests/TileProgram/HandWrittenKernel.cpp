//===- HandWrittenKernel.cpp - tile programs written out by hand ----------===//

#include "HandWrittenKernel.h"

#include <algorithm>
#include <sstream>

using namespace vnm::tile_test;

namespace {

class KernelWriter {
public:
  explicit KernelWriter(const SpmmCase &c) : c(c) {}

  std::string write(bool pipelined);
  std::string writeWarpSpecialized();

private:
  int64_t groups() const { return (c.cols + c.m - 1) / c.m; }
  int64_t pairs() const { return (groups() + 15) / 16; }
  /// The threads that copy B: the block's, or its producer warpgroup's.
  int64_t threads() const {
    if (warpSpecialized)
      return kProducers;
    return 32 * (c.blockRows / c.warpRows) * c.warpsN;
  }
  static constexpr int64_t kProducers = 128;
  std::string fresh(const std::string &stem) {
    return "%" + stem + std::to_string(counter++);
  }
  std::string constant(int64_t value) {
    std::string name = fresh("c");
    body << "    " << name << " = arith.constant " << value << " : i32\n";
    return name;
  }
  std::string binary(const char *op, const std::string &x,
                     const std::string &y) {
    std::string name = fresh("v");
    body << "    " << name << " = arith." << op << " " << x << ", " << y
         << " : i32\n";
    return name;
  }
  std::string loadColLoc(const std::string &pair) {
    std::string name = fresh("cl");
    body << "    " << name << " = vnm_gpu.load_colloc %colidx[%row, " << pair
         << "] {matrix = !w} : memref<?xi32> -> !colloc\n";
    return name;
  }
  /// Starts the copy of `pair`'s rows of B into `slot`.
  void copy(const std::string &pair, const std::string &slot,
            const std::string &colloc) {
    if (c.m == 4) {
      std::string row = binary("muli", pair, constant(64));
      std::string rowBound = constant(c.cols);
      body << "    vnm_gpu.copy_tile %rhs[" << row << ", %col] bounds("
           << rowBound << ", %n) ld(%ldb) into %ring[" << slot
           << "] {layout = " << copyLayout() << "} : memref<?x" << c.element
           << ">, !ring\n";
      return;
    }
    body << "    vnm_gpu.gather %rhs[" << pair << ", %col] via " << colloc
         << " bounds(%n) ld(%ldb) into %ring[" << slot
         << "] {matrix = !w} : memref<?x" << c.element << ">, !colloc, !ring\n";
  }
  std::string loadA(const std::string &pair) {
    std::string name = fresh("a");
    body << "    " << name << " = vnm_gpu.load_sparse_a %values, %meta[%row, "
         << pair << "] {matrix = !w} : memref<?x" << c.element
         << ">, memref<?xi32> -> !a\n";
    return name;
  }
  void wait(int64_t pending) {
    body << "    vnm_gpu.wait %ring pending(" << pending << ") : !ring\n";
  }
  /// The two MMA steps of a pair whose B rows are in `slot`.
  std::string compute(const std::string &a, const std::string &slot,
                      std::string acc) {
    for (int step = 0; step < 2; ++step) {
      std::string b = fresh("b");
      body << "    " << b << " = vnm_gpu.load_b %ring[" << slot << "] offset("
           << 32 * step << ") : !ring -> !b\n";
      std::string next = fresh("acc");
      body << "    " << next << " = vnm_gpu.mma_sp " << a << "[" << step
           << "], " << b << ", " << acc << " : !a, !b, !acc\n";
      acc = next;
    }
    return acc;
  }
  std::string copyLayout() const {
    // A slot of 64 rows of 256 bytes: 1024 chunks of 16 bytes.
    return "#vnm_gpu.copy<threads = " + std::to_string(threads()) +
           ", rows_per_thread = " + std::to_string(1024 / threads()) + ">";
  }
  std::string plainLoop();
  std::string pipelinedLoop();
  std::string warpSpecializedLoop();
  /// The kernel's header up to its body: type aliases (`aliases` after the
  /// common ones), launch contract, signature.
  std::string header(const std::string &mma, const std::string &ring,
                     const std::string &aliases, int64_t blockThreads);
  /// Block ids, %row, %col; the epilogue of `result` and the module's end.
  void prologue();
  void epilogue(const std::string &result);

  const SpmmCase &c;
  bool warpSpecialized = false;
  std::ostringstream body;
  int counter = 0;
};

std::string KernelWriter::plainLoop() {
  body << "    %res = scf.for %p = %i0 to %ipairs step %i1 iter_args(%acc = "
          "%zero) -> (!acc) {\n";
  body << "    %pair = arith.index_cast %p : index to i32\n";
  std::string slot = binary("remui", "%pair", constant(c.stages));
  copy("%pair", slot, c.m == 4 ? "" : loadColLoc("%pair"));
  std::string a = loadA("%pair");
  wait(0);
  std::string acc = compute(a, slot, "%acc");
  body << "    scf.yield " << acc << " : !acc\n";
  body << "    }\n";
  return "%res";
}

std::string KernelWriter::pipelinedLoop() {
  const int64_t s = c.stages, total = pairs();
  // Prologue: the gathers of pairs 0 .. S - 2 and the fragments of pair 0.
  for (int64_t q = 0; q < std::min(s - 1, total); ++q) {
    std::string pair = constant(q);
    copy(pair, pair, c.m == 4 ? "" : loadColLoc(pair));
  }
  std::string a0 = loadA(constant(0));
  std::string colloc0 = c.m == 4 ? "" : loadColLoc(constant(s - 1));
  // Steady state, iteration i: pair i has landed once all but the S - 2
  // later gathers have; gather pair i + S - 1 into the slot pair i - 1 was
  // read from (the wait's barrier ordered those reads), compute pair i,
  // load what the next iteration needs.
  int64_t iterations = std::max<int64_t>(total - s + 1, 0);
  body << "    %steady = arith.constant " << iterations << " : index\n";
  std::string carried = "!acc, !a" + std::string(c.m == 4 ? "" : ", !colloc");
  body << "    %loop:" << (c.m == 4 ? 2 : 3)
       << " = scf.for %i = %i0 to %steady step %i1 iter_args(%acc = %zero, "
          "%a_it = "
       << a0 << (c.m == 4 ? "" : ", %cl_it = " + colloc0) << ") -> (" << carried
       << ") {\n";
  body << "    %it = arith.index_cast %i : index to i32\n";
  wait(s - 2);
  std::string gathered = binary("addi", "%it", constant(s - 1));
  std::string gatherSlot = binary("remui", gathered, constant(s));
  copy(gathered, gatherSlot, "%cl_it");
  std::string nextColloc =
      c.m == 4 ? "" : loadColLoc(binary("addi", "%it", constant(s)));
  std::string slot = binary("remui", "%it", constant(s));
  std::string acc = compute("%a_it", slot, "%acc");
  std::string nextA = loadA(binary("addi", "%it", constant(1)));
  body << "    scf.yield " << acc << ", " << nextA
       << (c.m == 4 ? "" : ", " + nextColloc) << " : " << carried << "\n";
  body << "    }\n";
  // Epilogue: the last S - 1 pairs (or all, with fewer pairs than that),
  // each waiting exactly for itself: the gathers after it stay pending.
  acc = "%loop#0";
  std::string a = "%loop#1";
  for (int64_t j = iterations; j < total; ++j) {
    wait(total - 1 - j);
    acc = compute(a, constant(j % s), acc);
    if (j + 1 < total)
      a = loadA(constant(j + 1));
  }
  return acc;
}

std::string KernelWriter::header(const std::string &mma,
                                 const std::string &ring,
                                 const std::string &aliases,
                                 int64_t blockThreads) {
  std::ostringstream module;
  module << "!w = tensor<" << c.rows << "x" << c.cols << "x" << c.element
         << ", #vnm.encoding<v = " << c.v << ", n = 2, m = " << c.m << ">>\n"
         << "!ring = " << ring << "\n"
         << "!colloc = !vnm_gpu.colloc<16, " << copyLayout() << ">\n"
         << "!a = !vnm_gpu.sparse_a<" << c.blockRows << "x64x" << c.element
         << ", " << mma << ">\n"
         << "!acc = !vnm_gpu.acc<" << c.blockRows << "x128xf32, " << mma
         << ">\n"
         << aliases;
  int64_t gridY = (c.rows + c.blockRows - 1) / c.blockRows;
  module << "module attributes {gpu.container_module, vnm.launch_contracts = "
            "[{kernel = \"spmm_0\", module = \"vnm_kernels\", grid_x_divisor "
            "= 128 : i64, grid_y = "
         << gridY << " : i64}]} {\n"
         << "  gpu.module @vnm_kernels {\n"
         << "  gpu.func @spmm_0(%values: memref<?x" << c.element
         << ">, %meta: memref<?xi32>, %colidx: memref<?xi32>, %rhs: memref<?x"
         << c.element << ">, %out: memref<?x" << c.result
         << ">, %bias: memref<?x" << c.result
         << ">, %n: i32, %ldb: i32, %ldc: i32) kernel attributes "
            "{known_block_size = array<i32: "
         << blockThreads << ", 1, 1>} {\n";
  return module.str();
}

void KernelWriter::prologue() {
  body << "    %i0 = arith.constant 0 : index\n"
       << "    %i1 = arith.constant 1 : index\n"
       << "    %ipairs = arith.constant " << pairs() << " : index\n"
       << "    %by = gpu.block_id y\n"
       << "    %bx = gpu.block_id x\n"
       << "    %by32 = arith.index_cast %by : index to i32\n"
       << "    %bx32 = arith.index_cast %bx : index to i32\n";
  std::string row = binary("muli", "%by32", constant(c.blockRows));
  std::string col = binary("muli", "%bx32", constant(128));
  // Named, so that the ops below read as in the dialect's examples.
  std::string zero = constant(0);
  body << "    %row = arith.addi " << row << ", " << zero << " : i32\n"
       << "    %col = arith.addi " << col << ", " << zero << " : i32\n";
}

void KernelWriter::epilogue(const std::string &result) {
  body << "    vnm_gpu.epilogue " << result << " into %out[%row, %col] bounds("
       << c.rows << ", %n) ld(%ldc)";
  if (c.bias)
    body << " bias(%bias : memref<?x" << c.result << ">)";
  std::string attributes;
  if (c.accumulate)
    attributes = "accumulate";
  if (c.activation != "none")
    attributes += std::string(attributes.empty() ? "" : ", ") +
                  "activation = #vnm.activation<" + c.activation + ">";
  if (!attributes.empty())
    body << " {" << attributes << "}";
  body << " : !acc, memref<?x" << c.result << ">\n"
       << "    gpu.return\n  }\n  }\n}\n";
}

std::string KernelWriter::write(bool pipelined) {
  const std::string mma = "#vnm_gpu.mma<mma_sp_m16n8k32, warps = [" +
                          std::to_string(c.blockRows / c.warpRows) + ", " +
                          std::to_string(c.warpsN) + "]>";
  std::string module =
      header(mma,
             "!vnm_gpu.ring<" + std::to_string(c.stages) + "x64x128x" +
                 c.element + ", #vnm_gpu.swizzle<chunk = 16, period = 8>>",
             "!b = !vnm_gpu.b_frag<32x128x" + c.element + ", " + mma + ">\n",
             threads());
  prologue();
  body << "    %ring = vnm_gpu.alloc_ring : !ring\n"
       << "    %zero = vnm_gpu.zero : !acc\n";
  std::string result = pipelined ? pipelinedLoop() : plainLoop();
  epilogue(result);
  return module + body.str();
}

/// The produce region copies pair %pair's B rows into %slot and stages its
/// A fragments; the consume region reads both and runs the pair's two
/// wgmma.sp steps in one group, left running into the next pair.
std::string KernelWriter::warpSpecializedLoop() {
  std::string first = constant(0);
  body << "    %npairs = arith.constant " << pairs() << " : i32\n"
       << "    %res = vnm_gpu.produce_consume " << first
       << " to %npairs stages(" << c.stages
       << ") producers(128, registers = 40) consumer_registers(232) "
          "iter_args(%zero : !acc)\n"
       << "      produce {\n"
       << "      ^bb0(%pair: i32, %slot: i32):\n";
  copy("%pair", "%slot", c.m == 4 ? "" : loadColLoc("%pair"));
  body << "    vnm_gpu.stage_sparse_a %values, %meta[%row, %pair] into "
          "%aring[%slot] {layout = #vnm_gpu.copy<threads = 128, "
          "rows_per_thread = 1>, matrix = !w} : memref<?x"
       << c.element << ">, memref<?xi32>, !aring\n"
       << "        vnm_gpu.yield\n"
       << "      } consume {\n"
       << "      ^bb0(%pair2: i32, %slot2: i32, %sum: !acc):\n"
       << "        %a = vnm_gpu.load_staged_a %aring[%slot2] : !aring -> !a\n"
       << "        %s0 = vnm_gpu.wgmma_sp %a[0], %ring[%slot2] offset(0), "
          "%sum : !a, !ring, !acc\n"
       << "        %s1 = vnm_gpu.wgmma_sp %a[1], %ring[%slot2] offset(32), "
          "%s0 pending(1) : !a, !ring, !acc\n"
       << "        vnm_gpu.yield %s1 : !acc\n"
       << "      } -> !acc\n";
  return "%res";
}

std::string KernelWriter::writeWarpSpecialized() {
  warpSpecialized = true;
  const std::string mma = "#vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [" +
                          std::to_string(c.blockRows / 16) + ", 1]>";
  // The canonical 128-byte-swizzled layout wgmma.sp reads: 128 columns of
  // 16-bit values are two 128-byte column blocks.
  std::string module = header(
      mma,
      "!vnm_gpu.ring<" + std::to_string(c.stages) + "x64x128x" + c.element +
          ", #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>>",
      "!aring = !vnm_gpu.a_ring<" + std::to_string(c.stages) + ", !a>\n",
      2 * c.blockRows + kProducers);
  prologue();
  body << "    %ring = vnm_gpu.alloc_ring {alignment = 1024 : i64} : !ring\n"
       << "    %aring = vnm_gpu.alloc_ring : !aring\n"
       << "    %zero = vnm_gpu.zero : !acc\n";
  epilogue(warpSpecializedLoop());
  return module + body.str();
}

} // namespace

std::string vnm::tile_test::writeHandKernel(const SpmmCase &c, bool pipelined) {
  return KernelWriter(c).write(pipelined);
}

std::string vnm::tile_test::writeWarpSpecializedKernel(const SpmmCase &c) {
  return KernelWriter(c).writeWarpSpecialized();
}
