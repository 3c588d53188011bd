//===- VNMGPUAttrs.td - vnm_gpu layout attributes ----------*- tablegen -*-===//
//
// Layouts of tile values and shared-memory tiles. Constraint numbers refer to
// docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNMGPU_IR_VNMGPUATTRS_TD
#define VNM_DIALECT_VNMGPU_IR_VNMGPUATTRS_TD

include "vnm/Dialect/VNMGPU/IR/VNMGPUDialect.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "vnm/Dialect/VNM/IR/VNMInterfaces.td"

class VNMGPU_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<VNMGPU_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
  let genVerifyDecl = 1;
}

def VNMGPU_MmaSpM16N8K32 : I32EnumAttrCase<"mma_sp_m16n8k32", 0>;
def VNMGPU_MmaSpM16N8K64 : I32EnumAttrCase<"mma_sp_m16n8k64", 1>;
def VNMGPU_WgmmaSpM64NNK32 : I32EnumAttrCase<"wgmma_sp_m64nNk32", 2>;
def VNMGPU_WgmmaSpM64NNK64 : I32EnumAttrCase<"wgmma_sp_m64nNk64", 3>;
def VNMGPU_MmaGeometry : I32EnumAttr<"MmaGeometry",
    "sparse MMA instruction shape",
    [VNMGPU_MmaSpM16N8K32, VNMGPU_MmaSpM16N8K64, VNMGPU_WgmmaSpM64NNK32,
     VNMGPU_WgmmaSpM64NNK64]> {
  let genSpecializedAttr = 0;
  let cppNamespace = "::vnm::vnm_gpu";
}

def VNMGPU_MmaLayoutAttr : VNMGPU_Attr<"MmaLayout", "mma"> {
  let summary = "how a block tile is spread over warps, lanes and registers";
  let description = [{
    The layout of the fragment and accumulator values of a block tile: the
    sparse MMA instruction (`mma_sp_m16n8k32`: `mma.sp::ordered_metadata`
    m16n8k32 with f16/bf16 operands and f32 accumulators; `mma_sp_m16n8k64`:
    m16n8k64 with s8 operands and s32 accumulators; `wgmma_sp_m64nNk32`:
    `wgmma.mma_async.sp` m64nNk32 of sm_90a, f16/bf16 operands, f32
    accumulators, N the tile's columns; `wgmma_sp_m64nNk64`: its m64nNk64
    with s8 operands and s32 accumulators) and the grid of warps
    (`warps = [rows, columns]`) that splits the tile into equal warp tiles.
    Inside a warp tile, m16 x n8 instruction tiles are held in the lane
    order of the PTX ISA (../docs/gpu.md, "Fragment layouts"). A
    `wgmma.sp` warpgroup's four warps hold 16 rows each in the `mma.sp`
    m16n8k32 layout (m16n8k64 for s8; docs/hopper.md), so its layout is
    `warps = [4 W, 1]` for W warpgroups, with warp tiles of 16 rows.

    ```mlir
    #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>
    #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [4, 1]>
    #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>
    ```
  }];
  let parameters = (ins EnumParameter<VNMGPU_MmaGeometry>:$geometry,
                        "int64_t":$warpsM, "int64_t":$warpsN);
  let assemblyFormat = [{
    `<` $geometry `,` `warps` `=` `[` $warpsM `,` $warpsN `]` `>`
  }];
  let extraClassDeclaration = [{
    int64_t getThreads() const { return 32 * getWarpsM() * getWarpsN(); }
    /// Rows, columns and (dense) depth of one instruction tile.
    int64_t getInstrM() const { return 16; }
    int64_t getInstrN() const { return 8; }
    int64_t getInstrK() const { return instrKForOperandBits(getOperandBits()); }
    /// Bits of one operand element (16 for f16/bf16, 8 for s8).
    int64_t getOperandBits() const;
    /// Dense depth of one instruction for operands of `bits` bits: 32 for
    /// the f16/bf16 MMAs, 64 for the s8 ones (each reads 512 bits of a row).
    static int64_t instrKForOperandBits(int64_t bits) {
      return bits == 8 ? 64 : 32;
    }
    /// Whether the MMA is a warpgroup's wgmma.mma_async.sp (B read from
    /// shared memory through a descriptor, not from registers).
    bool isWarpgroupMma() const {
      return getGeometry() == MmaGeometry::wgmma_sp_m64nNk32 ||
             getGeometry() == MmaGeometry::wgmma_sp_m64nNk64;
    }
  }];
}

def VNMGPU_SwizzleAttr : VNMGPU_Attr<"Swizzle", "swizzle"> {
  let summary = "XOR swizzle of a shared-memory tile's rows";
  let description = [{
    Chunk `c` (of `chunk` bytes) of row `r` of a shared tile is stored at
    chunk `c ^ ((r / rows) % period)`; `period = 1` is no swizzle, and
    `rows` (default 1) is how many consecutive rows share one XOR term.
    With `column_blocks = B` (default 1) a row's bytes are split into B
    equal blocks and each block of all the tile's rows is stored
    contiguously, one after another (the swizzle acts inside a block): with
    128-byte blocks, 16-byte chunks and a period of 8 this is the canonical
    128-byte-swizzled MN-major layout that `wgmma` reads through a
    descriptor (docs/hopper.md). With
    16-byte chunks and a period of 8, the eight 128-byte-or-longer rows one
    `ldmatrix` phase reads fall into eight different bank groups; 64-byte
    rows (two per 128 bytes) take a period of 4 over pairs of rows
    (`rows = 2`) for the same effect.

    ```mlir
    #vnm_gpu.swizzle<chunk = 16, period = 8>
    #vnm_gpu.swizzle<chunk = 16, period = 4, rows = 2>
    #vnm_gpu.swizzle<chunk = 16, period = 8, column_blocks = 2>
    ```
  }];
  let parameters = (ins "int64_t":$chunkBytes, "int64_t":$period,
                        DefaultValuedParameter<"int64_t", "1">:$rowsPerPhase,
                        DefaultValuedParameter<"int64_t", "1">:$columnBlocks);
  let hasCustomAssemblyFormat = 1;
  let builders = [
    AttrBuilder<(ins "int64_t":$chunkBytes, "int64_t":$period), [{
      return $_get($_ctxt, chunkBytes, period, 1, 1);
    }]>,
    AttrBuilder<(ins "int64_t":$chunkBytes, "int64_t":$period,
                     "int64_t":$rowsPerPhase), [{
      return $_get($_ctxt, chunkBytes, period, rowsPerPhase, 1);
    }]>
  ];
  let extraClassDeclaration = [{
    /// Byte offset of byte `byteInRow` of row `row` in a tile of `rows`
    /// rows of `rowBytes` bytes.
    int64_t getByteOffset(int64_t row, int64_t byteInRow, int64_t rowBytes,
                          int64_t rows) const;
  }];
}

def VNMGPU_CopyLayoutAttr : VNMGPU_Attr<"CopyLayout", "copy"> {
  let summary = "how the threads of a block share an asynchronous tile copy";
  let description = [{
    A tile copied into shared memory in 16-byte chunks: thread `tid` of
    `threads` copies chunk `tid % (row bytes / 16)` of `rows_per_thread`
    consecutive rows starting at row `(tid / (row bytes / 16)) *
    rows_per_thread`. Column-loc values (`!vnm_gpu.colloc`) follow the same
    layout: a thread holds the column-locs of the groups its rows belong to.

    ```mlir
    #vnm_gpu.copy<threads = 256, rows_per_thread = 4>
    ```
  }];
  let parameters = (ins "int64_t":$threads, "int64_t":$rowsPerThread);
  let assemblyFormat = [{
    `<` `threads` `=` $threads `,` `rows_per_thread` `=` $rowsPerThread `>`
  }];
}

def VNMGPU_MmaSpTilingAttr : VNMGPU_Attr<"MmaSpTiling", "mma_sp_tiling",
    [DeclareAttrInterfaceMethods<VNM_KernelTilingAttrInterface>]> {
  let summary = "tiling of the mma.sp spmm kernel";
  let description = [{
    The recipe of the `mma.sp` m16n8k32 spmm kernels (sm_80, sm_90), put on
    `vnm.spmm` or `vnm.storage.spmm` as the discardable attribute
    `vnm.config`: a block tile of `block` rows and columns, a grid of
    `warps`, a ring of `stages` slots, the resident blocks per
    multiprocessor asked of ptxas (0: its choice), and the factor by which
    `vnm-unroll-kernel-loops` unrolls the pipelined K loop (1: not
    unrolled; a multiple of `stages` makes every ring slot a constant).
    With `k_splits = S` the blocks of S consecutive grid rows split a tile's
    K loop. With `staged_a = true` the block's threads copy each pair's A
    fragments and metadata with `cp.async` into an A ring next to B's
    (`vnm_gpu.stage_sparse_a` with a copy layout), which the MMAs read from
    shared memory, instead of loading them from global memory one pair
    ahead into registers. `vnm-choose-config` sets it where it is missing; `vnm-lower-to-gpu`
    builds the tile program from it. See docs/spec.md (section 5) and
    docs/gpu.md.

    ```mlir
    #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0>
    #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, unroll = 3>
    #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 3, blocks_per_sm = 0, k_splits = 4>
    #vnm_gpu.mma_sp_tiling<block = [64, 128], warps = [2, 2], stages = 4, blocks_per_sm = 0, staged_a = true>
    ```
  }];
  let parameters = (ins "int64_t":$blockRows, "int64_t":$blockCols,
                        "int64_t":$warpsM, "int64_t":$warpsN,
                        "int64_t":$stages, "int64_t":$blocksPerSM,
                        DefaultValuedParameter<"int64_t", "1">:$unroll,
                        DefaultValuedParameter<"int64_t", "1">:$kSplits,
                        DefaultValuedParameter<"bool", "false">:$stagedA);
  // Three optional trailing fields, each after a comma: a declarative format
  // could not tell them apart.
  let hasCustomAssemblyFormat = 1;
}

def VNMGPU_WgmmaSpTilingAttr : VNMGPU_Attr<"WgmmaSpTiling", "wgmma_sp_tiling",
    [DeclareAttrInterfaceMethods<VNM_KernelTilingAttrInterface>]> {
  let summary = "tiling of the sm_90a wgmma.sp spmm kernel";
  let description = [{
    The recipe of the `wgmma.mma_async.sp` spmm kernels (sm_90a), as
    `vnm.config`: a block tile of `block` rows and columns computed by
    `warpgroups` warpgroups of 64 rows each (one `wgmma.sp` m64nNk32 with
    N = the block's columns per K step), and a ring of `stages` slots
    filled by the block's threads with `cp.async` in the canonical
    128-byte-swizzled layout the MMA's descriptor names. With `producers =
    1` the block has one more warpgroup, which fills the ring (B by the TMA,
    A and its metadata by bulk copies) while the others compute: the
    warp-specialized loop of `vnm_gpu.produce_consume`, for M = 4. With
    `cluster_rows = 2` (4, 8) the grid's row blocks are launched in clusters
    of two (four, eight) consecutive ones (`.reqnctapercluster 1, 2, 1`):
    blocks that read the same B tiles are scheduled together on one GPC.
    They share nothing else; the grid's row blocks must be a multiple of
    it. With `as_2_4 = true` (warp-specialized only) a V:2:M weight of
    M > 4 runs as a 2:4 matrix over its original columns: every group of
    four columns holds at most two of its nonzeros, so the kernel reads B
    as a dense tile (no column-loc gather) and issues M / 4 times the MMAs;
    its fragment arrays are those of the V:2:4 packing (the launch
    contract's `m` is 4 and `op_m` the op's M). See
    docs/spec.md (section 5) and docs/hopper.md.

    ```mlir
    #vnm_gpu.wgmma_sp_tiling<block = [64, 128], warpgroups = 1, stages = 4>
    #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2>
    #vnm_gpu.wgmma_sp_tiling<block = [128, 256], warpgroups = 2, stages = 4, producers = 1, cluster_rows = 2, as_2_4 = true>
    ```
  }];
  let parameters = (ins "int64_t":$blockRows, "int64_t":$blockCols,
                        "int64_t":$warpgroups, "int64_t":$stages,
                        DefaultValuedParameter<"int64_t", "0">:$producers,
                        DefaultValuedParameter<"int64_t", "1">:$cluster_rows,
                        DefaultValuedParameter<"bool", "false">:$as_2_4);
  let assemblyFormat = [{
    `<` `block` `=` `[` $blockRows `,` $blockCols `]` `,`
    struct($warpgroups, $stages, $producers, $cluster_rows, $as_2_4) `>`
  }];
}

#endif // VNM_DIALECT_VNMGPU_IR_VNMGPUATTRS_TD
