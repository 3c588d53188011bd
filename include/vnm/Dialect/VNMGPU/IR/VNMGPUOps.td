//===- VNMGPUOps.td - vnm_gpu tile ops ---------------------*- tablegen -*-===//
//
// One op per step of a kernel's tile program. Constraint numbers (Cn) refer
// to docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNMGPU_IR_VNMGPUOPS_TD
#define VNM_DIALECT_VNMGPU_IR_VNMGPUOPS_TD

include "vnm/Dialect/VNMGPU/IR/VNMGPUTypes.td"
include "vnm/Dialect/VNM/IR/VNMAttrs.td"
include "mlir/IR/OpBase.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

class VNMGPU_Op<string mnemonic, list<Trait> traits = []>
    : Op<VNMGPU_Dialect, mnemonic, traits> {
  let hasVerifier = 1;
}

def VNMGPU_FlatBuffer : MemRefRankOf<[AnyType], [1]>;
def VNMGPU_MatrixAttr : TypeAttrOf<AnyRankedTensor>;

def VNMGPU_AllocRingOp : VNMGPU_Op<"alloc_ring", [MemoryEffects<[MemAlloc]>]> {
  let summary = "the block's shared-memory ring";
  let description = [{
    Reserves the ring (a B ring or an A ring) in the block's shared memory
    (static while the kernel's rings fit 48 KiB together; beyond, a ring
    larger than that and otherwise the kernel's first ring live in dynamic
    shared memory), its first slot aligned to `alignment` bytes (default 128; the canonical 128-byte-swizzled layout
    of `vnm_gpu.wgmma_sp` needs 1024). Its contents are undefined until a
    copy into a slot has landed.

    ```mlir
    %ring = vnm_gpu.alloc_ring
        : !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    ```
  }];
  let arguments = (ins DefaultValuedAttr<I64Attr, "128">:$alignment);
  let results = (outs AnyTypeOf<[VNMGPU_RingType, VNMGPU_ARingType]>:$ring);
  let assemblyFormat = "attr-dict `:` qualified(type($ring))";
  let extraClassDeclaration = [{
    /// Whether the ring lives in dynamic shared memory.
    bool isDynamic();
    /// Shared-memory bytes the ring takes: a dynamic ring aligned beyond
    /// 128 bytes is aligned at run time, in `alignment` more bytes.
    int64_t getReservedBytes();
  }];
}

def VNMGPU_LoadColLocOp : VNMGPU_Op<"load_colloc", [MemoryEffects<[MemRead]>]> {
  let summary = "read the column-locs of a k-tile pair's groups";
  let description = [{
    Reads, from the logical `colidx` array of `matrix` (u8 offsets, four per
    group, read as 32-bit words), the column-locs of groups `16 pair` ..
    `16 pair + groups - 1` of the V block holding row `row` (the block
    tile's first row). Groups past the last read the last group's
    column-loc: the gather zero-fills their rows, which lie past K.

    ```mlir
    %cl = vnm_gpu.load_colloc %colidx[%row, %pair]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xi32> -> !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 128, rows_per_thread = 8>>
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$colidx, I32:$row, I32:$pair,
                   VNMGPU_MatrixAttr:$matrix);
  let results = (outs VNMGPU_ColLocType:$result);
  let assemblyFormat = [{
    $colidx `[` $row `,` $pair `]` attr-dict `:` type($colidx) `->`
    qualified(type($result))
  }];
}

def VNMGPU_GatherOp : VNMGPU_Op<"gather",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "gather a k-tile pair's rows of B through a column-loc";
  let description = [{
    Starts the asynchronous copy of the rows of the dense operand `rhs` that
    k-tile pair `pair` of `matrix` reads for the V block of `colloc`: row
    `4 j + i` of the slot is row `(16 pair + j) M + colloc[j][i]` of `rhs`,
    columns `col` .. `col + ring cols - 1` (row pitch `ld` elements). Rows
    past K and columns at or past `cols` are zero-filled. The copy forms one
    group that lands at a later `vnm_gpu.wait`.

    ```mlir
    vnm_gpu.gather %rhs[%pair, %col] via %cl bounds(%n) ld(%ldb)
        into %ring[%slot] {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, !colloc, !ring
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$rhs, I32:$pair, I32:$col,
                   VNMGPU_ColLocType:$colloc, I32:$cols, I32:$ld,
                   VNMGPU_RingType:$ring, I32:$slot,
                   VNMGPU_MatrixAttr:$matrix);
  let assemblyFormat = [{
    $rhs `[` $pair `,` $col `]` `via` $colloc `bounds` `(` $cols `)`
    `ld` `(` $ld `)` `into` $ring `[` $slot `]` attr-dict `:` type($rhs)
    `,` qualified(type($colloc)) `,` qualified(type($ring))
  }];
}

def VNMGPU_CopyTileOp : VNMGPU_Op<"copy_tile",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a dense tile of B into a ring slot";
  let description = [{
    Starts the asynchronous copy of rows `row` .. `row + ring rows - 1` and
    columns `col` .. `col + ring cols - 1` of `src` (row pitch `ld`) into
    slot `slot`, threads sharing the chunks as `layout` says. Rows at or
    past `row_bound` and 16-byte chunks that start at or past `cols` are
    zero-filled; a chunk that straddles `cols` is copied whole (`src` rows
    are readable up to `ld`). One group; it lands at a later
    `vnm_gpu.wait`. The M = 4 kernels use it: every group keeps its four
    columns, so a pair's rows are consecutive. A K x N operand has K as its
    row bound and N as `cols`; a token-major N x K operand (the i8 kernels'
    activations) the other way round.

    ```mlir
    vnm_gpu.copy_tile %rhs[%row, %col] bounds(%k, %n) ld(%ldb)
        into %ring[%slot] {layout = #vnm_gpu.copy<threads = 256, rows_per_thread = 4>}
        : memref<?xf16>, !ring
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$src, I32:$row, I32:$col,
                   I32:$rowBound, I32:$cols, I32:$ld,
                   VNMGPU_RingType:$ring, I32:$slot,
                   VNMGPU_CopyLayoutAttr:$layout);
  let assemblyFormat = [{
    $src `[` $row `,` $col `]` `bounds` `(` $rowBound `,` $cols `)`
    `ld` `(` $ld `)` `into` $ring `[` $slot `]` attr-dict `:` type($src)
    `,` qualified(type($ring))
  }];
}

def VNMGPU_TmaCopyTileOp : VNMGPU_Op<"tma_copy_tile",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a dense tile of B into a ring slot with the TMA";
  let description = [{
    Starts the copy of rows `row` .. `row + ring rows - 1` and columns
    `col` .. `col + ring cols - 1` of `src` (row pitch `ld`) into slot
    `slot` by the tensor memory accelerator: one box of the ring's rows by
    one 128-byte column block per column block of the slot, written in the
    slot's 128-byte swizzle (or one box of 64-byte rows in the 64-byte
    swizzle). Elements at or past `row_bound` or `cols` are
    zeros. The kernel parameter `src` is passed as a tensor map (the launch
    contract's `tensor_maps`) that the host makes from the buffer, the
    bounds and the pitch, so those must be values the host knows: constants
    or the kernel's own scalar parameters. Only the producer of a
    `vnm_gpu.produce_consume` copies this way; the copy lands on the slot's
    barrier before the consumers read the slot.

    ```mlir
    vnm_gpu.tma_copy_tile %rhs[%row, %col] bounds(%k, %n) ld(%ldb)
        into %ring[%slot] : memref<?xf16>, !ring
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$src, I32:$row, I32:$col,
                   I32:$rowBound, I32:$cols, I32:$ld,
                   VNMGPU_RingType:$ring, I32:$slot);
  let assemblyFormat = [{
    $src `[` $row `,` $col `]` `bounds` `(` $rowBound `,` $cols `)`
    `ld` `(` $ld `)` `into` $ring `[` $slot `]` attr-dict `:` type($src)
    `,` qualified(type($ring))
  }];
}

def VNMGPU_WaitOp : VNMGPU_Op<"wait", [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "wait for a ring's copies, then synchronize the block";
  let description = [{
    Waits until every copy into `ring` but the `pending` most recent ones
    has landed, then synchronizes the block's threads, so that the landed
    slots are visible to all of them and every read of a slot issued before
    the wait has finished before a copy issued after it overwrites the slot.

    With `async_proxy` the landed slots are read by the tensor cores'
    asynchronous proxy (`vnm_gpu.wgmma_sp`): each thread also fences its
    copies for that proxy before the barrier.

    ```mlir
    vnm_gpu.wait %ring pending(1) : !ring
    vnm_gpu.wait %ring pending(2) async_proxy : !ring
    ```
  }];
  let arguments = (ins VNMGPU_RingType:$ring, I64Attr:$pending,
                   UnitAttr:$asyncProxy);
  let assemblyFormat = [{
    $ring `pending` `(` $pending `)` (`async_proxy` $asyncProxy^)? attr-dict
    `:` qualified(type($ring))
  }];
}

def VNMGPU_LoadSparseAOp : VNMGPU_Op<"load_sparse_a",
    [MemoryEffects<[MemRead]>]> {
  let summary = "load the block's sparse A fragments for a k-tile pair";
  let description = [{
    Reads rows `row` .. `row + rows - 1` of `matrix` for k-tile pair `pair`
    from its fragment arrays (`values` and the 32-bit metadata words `meta`,
    both in the format library's fragment layout). Rows past the fragment
    arrays' padded rows (a tile of an M = 4 kernel that spans V blocks past
    R) read the last row tile; the epilogue never stores them.

    ```mlir
    %a = vnm_gpu.load_sparse_a %values, %meta[%row, %pair]
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32> -> !sparse_a
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$values, VNMGPU_FlatBuffer:$meta,
                   I32:$row, I32:$pair, VNMGPU_MatrixAttr:$matrix);
  let results = (outs VNMGPU_SparseAType:$result);
  let assemblyFormat = [{
    $values `,` $meta `[` $row `,` $pair `]` attr-dict `:` type($values)
    `,` type($meta) `->` qualified(type($result))
  }];
}

def VNMGPU_LoadBOp : VNMGPU_Op<"load_b", [MemoryEffects<[MemRead]>]> {
  let summary = "load B fragments from a ring slot";
  let description = [{
    Reads rows `offset` .. `offset + rows - 1` of B from slot `slot` into
    the registers of the result's layout. The slot holds B as K rows by N
    columns (all of its columns are read), or, with `k_contiguous`,
    transposed: its rows are B's columns and its columns B's rows, as a
    token-major `x[N][K]` is copied (columns `offset` .. of each of its
    rows are read). The 8-bit layouts need `k_contiguous`: sm_80 and sm_90
    have no byte-transposing `ldmatrix`.

    With `via %colloc` the gather happens here: each slot row (a token)
    holds the column-loc's G groups whole, M = slot columns / G bytes
    each, and B's row `offset + k` is slot column `q M + colloc[q][i]`
    with q = (offset + k) / 4, i = (offset + k) mod 4. A token-major
    operand cannot be gathered by rows: the kept columns of a group are
    bytes inside each token's row.

    ```mlir
    %b = vnm_gpu.load_b %ring[%slot] offset(32) : !ring -> !b_frag
    %b8 = vnm_gpu.load_b %ring8[%slot] offset(0) k_contiguous : !ring8 -> !b_frag8
    %g8 = vnm_gpu.load_b %ring8m8[%slot] offset(0) k_contiguous via %cl
        : !ring8m8, !colloc_mma8 -> !b_frag8
    ```
  }];
  let arguments = (ins VNMGPU_RingType:$ring, I32:$slot, I64Attr:$offset,
                   UnitAttr:$kContiguous,
                   Optional<VNMGPU_ColLocType>:$colloc);
  let results = (outs VNMGPU_BFragType:$result);
  let assemblyFormat = [{
    $ring `[` $slot `]` `offset` `(` $offset `)` (`k_contiguous` $kContiguous^)?
    (`via` $colloc^)? attr-dict `:` qualified(type($ring))
    (`,` qualified(type($colloc))^)? `->` qualified(type($result))
  }];
}

def VNMGPU_MmaSpOp : VNMGPU_Op<"mma_sp",
    [Pure, AllTypesMatch<["acc", "result"]>]> {
  let summary = "sparse MMA of one instruction-K step";
  let description = [{
    `result = acc + A[:, step] * b`, where `A[:, step]` is the `step`-th
    instruction-K span of `a` (k-tile `step` of the pair for
    `mma_sp_m16n8k32`, which also picks the metadata selector).

    ```mlir
    %acc1 = vnm_gpu.mma_sp %a[1], %b, %acc0 : !sparse_a, !b_frag, !acc
    ```
  }];
  let arguments = (ins VNMGPU_SparseAType:$a, I64Attr:$step,
                   VNMGPU_BFragType:$b, VNMGPU_AccType:$acc);
  let results = (outs VNMGPU_AccType:$result);
  let assemblyFormat = [{
    $a `[` $step `]` `,` $b `,` $acc attr-dict `:` qualified(type($a)) `,` qualified(type($b))
    `,` qualified(type($acc))
  }];
}

def VNMGPU_WgmmaSpOp : VNMGPU_Op<"wgmma_sp",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "a warpgroup sparse MMA of one K step, B read from a ring slot";
  let description = [{
    `result = acc + A[:, step] * B`, where `A[:, step]` is k-tile `step`
    of the pair `a` holds (which also picks the metadata selector) and B is
    rows `offset` .. `offset + D - 1` of slot `slot` (K rows by all of the
    slot's columns), D the instruction's depth: one `wgmma.mma_async.sp`
    m64nNk32 (f16, bf16; D = 32) or m64nNk64 (i8, i32 accumulators;
    D = 64) per warpgroup of the layout, N the tile's columns, B read
    through a descriptor of the ring's canonical layout (docs/hopper.md).
    With `k_contiguous` the slot holds B transposed (N rows by K columns, as
    token-major activations are stored) and B is the transpose of its
    columns `offset` .. `offset + D - 1` (the K-major layout, the only one
    of i8). The MMA runs asynchronously: with
    `pending` the op closes a group of MMAs (itself and the `wgmma_sp`s
    without `pending` just before it) and returns once at most `pending` of
    the thread's groups are still running, so a result with `pending = 1`
    may only feed the next `vnm_gpu.wgmma_sp`, which accumulates into the
    same registers. Without `pending` it joins the group the next
    `wgmma_sp` closes, and its result feeds only that one.

    ```mlir
    %acc1 = vnm_gpu.wgmma_sp %a[0], %ring[%slot] offset(0), %acc0 pending(1)
        : !sparse_a, !ring, !acc
    %t1 = vnm_gpu.wgmma_sp %a[1], %tring[%slot] offset(32) k_contiguous,
        %t0 pending(1) : !sparse_a, !tring, !acc
    ```
  }];
  let arguments = (ins VNMGPU_SparseAType:$a, I64Attr:$step,
                   VNMGPU_RingType:$ring, I32:$slot, I64Attr:$offset,
                   UnitAttr:$kContiguous, VNMGPU_AccType:$acc,
                   OptionalAttr<I64Attr>:$pending);
  let results = (outs VNMGPU_AccType:$result);
  let assemblyFormat = [{
    $a `[` $step `]` `,` $ring `[` $slot `]` `offset` `(` $offset `)`
    (`k_contiguous` $kContiguous^)? `,`
    $acc (`pending` `(` $pending^ `)`)? attr-dict `:` qualified(type($a)) `,`
    qualified(type($ring)) `,` qualified(type($acc))
  }];
}

def VNMGPU_GroupScaleOp : VNMGPU_Op<"group_scale",
    [MemoryEffects<[MemRead]>, AllTypesMatch<["acc", "part", "result", "resultPart"]>]> {
  let summary = "fold a finished scale group's sums into the accumulators";
  let description = [{
    Per-group weight scales (W8A16, W4A16 with `group_size`): the MMAs of
    k-tile pair `pair` accumulate into `part`, the sums of the current
    scale group. When `pair` ends a group (`(pair + 1) % pairs_per_group
    == 0`, or `pair == last_pair`), `result = acc + s[r][q] * part` for
    each row r = row + i (q = pair / pairs_per_group; `scales` is R x
    `groups` f32, row-major) and `result_part` is zeros; otherwise both
    pass through. Rows at or past R read row R - 1's scales (they are never
    stored).

    ```mlir
    %acc1, %part1 = vnm_gpu.group_scale %acc0, %part0, %scales[%row, %pair]
        {rows = 4096 : i64, groups = 32 : i64, pairs_per_group = 1 : i64,
         last_pair = 31 : i64} : !acc, memref<?xf32>
    ```
  }];
  let arguments = (ins VNMGPU_AccType:$acc, VNMGPU_AccType:$part,
                   VNMGPU_FlatBuffer:$scales, I32:$row, I32:$pair,
                   I64Attr:$rows, I64Attr:$groups, I64Attr:$pairs_per_group,
                   I64Attr:$last_pair);
  let results = (outs VNMGPU_AccType:$result, VNMGPU_AccType:$resultPart);
  let assemblyFormat = [{
    $acc `,` $part `,` $scales `[` $row `,` $pair `]` attr-dict `:`
    qualified(type($acc)) `,` type($scales)
  }];
}

def VNMGPU_ReduceKSplitsOp : VNMGPU_Op<"reduce_k_splits",
    [MemoryEffects<[MemRead, MemWrite]>, AllTypesMatch<["acc", "result"]>]> {
  let summary = "sum the partial tiles of a cluster that split the K loop";
  let description = [{
    Split K: the block is rank `rank` of a cluster of `splits` consecutive
    blocks along grid y that computed the same tile of Y over disjoint
    ranges of K. Every rank contributes `acc`; rank `splits - 1` gets the
    sum of all of them as `result`, the others their own `acc` back (they
    store nothing). The sum goes through the shared memory of every rank's
    `ring` (in as many rounds as the tile needs), which holds no copy in
    flight and is read no more (the K loop is done): the op synchronizes
    the block and the cluster. Integer tiles are summed exactly, float tiles in f32 in an
    unspecified order.

    ```mlir
    %sum = vnm_gpu.reduce_k_splits %acc rank(%rank) splits(4) through %ring
        : !acc, !ring
    ```
  }];
  let arguments = (ins VNMGPU_AccType:$acc, I32:$rank, I64Attr:$splits,
                   VNMGPU_RingType:$ring);
  let results = (outs VNMGPU_AccType:$result);
  let assemblyFormat = [{
    $acc `rank` `(` $rank `)` `splits` `(` $splits `)` `through` $ring
    attr-dict `:` qualified(type($acc)) `,` qualified(type($ring))
  }];
}

def VNMGPU_ZeroOp : VNMGPU_Op<"zero", [Pure]> {
  let summary = "an accumulator tile of zeros";
  let results = (outs VNMGPU_AccType:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
  let hasVerifier = 0;
}

def VNMGPU_EpilogueOp : VNMGPU_Op<"epilogue",
    [AttrSizedOperandSegments, MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "finish the block's accumulators and store them";
  let description = [{
    For each element (i, j) of the tile with `row + i < rows` and
    `col + j < cols`, with r = row + i and c = col + j:
    `x = acc[i][j] * row_scales[r] * col_scales[c]` (each scale if given,
    f32), `+ out[r ld + c]` if `accumulate`, `+ bias[r]` if given, then the
    activation, computed in f32 (i32 accumulators are converted first) and
    rounded once to the element type of `out`, stored at `out[r ld + c]`.
    With `transposed` the tile is stored as its transpose: element (r, c)
    goes to (and, accumulating, is read from) `out[c ld + r]`, i.e. out
    holds y[N][R] with row pitch ld, as a linear layer's result is
    token-major.

    ```mlir
    vnm_gpu.epilogue %acc into %y[%row, %col] bounds(4096, %n) ld(%ldc)
        bias(%bias : memref<?xf16>) {activation = #vnm.activation<relu>}
        : !acc, memref<?xf16>
    ```
  }];
  let arguments = (ins VNMGPU_AccType:$acc, VNMGPU_FlatBuffer:$out,
                   I32:$row, I32:$col, I64Attr:$rows, I32:$cols, I32:$ld,
                   Optional<VNMGPU_FlatBuffer>:$bias,
                   Optional<VNMGPU_FlatBuffer>:$rowScales,
                   Optional<VNMGPU_FlatBuffer>:$colScales,
                   UnitAttr:$accumulate, UnitAttr:$transposed,
                   DefaultValuedAttr<VNM_ActivationAttr,
                                     "::vnm::Activation::none">:$activation);
  let assemblyFormat = [{
    $acc `into` $out `[` $row `,` $col `]` `bounds` `(` $rows `,` $cols `)`
    `ld` `(` $ld `)`
    (`bias` `(` $bias^ `:` type($bias) `)`)?
    (`row_scales` `(` $rowScales^ `:` type($rowScales) `)`)?
    (`col_scales` `(` $colScales^ `:` type($colScales) `)`)?
    attr-dict `:` qualified(type($acc)) `,` type($out)
  }];
}

def VNMGPU_SampledStoreOp : VNMGPU_Op<"sampled_store",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "store the accumulators a V:N:M pattern keeps (SDDMM)";
  let description = [{
    The tile's columns are the selected columns of consecutive groups of
    `matrix`'s pattern: column 4q + i of the tile is the i-th column-loc of
    group `group + q` (the columns an SDDMM kernel gathers). For each row
    r = row + a below R, each group g = group + q below the pattern's G
    groups and each kept entry s < N of (r, g), with
    e = (r G + g) N + s (the logical storage's order):
    `values[e] = acc[a][4q + meta[e]]`, rounded once to `values`' type.
    Entries outside R x G are not written. The tile's columns are whole
    groups: an accumulator's columns are a multiple of 8.

    ```mlir
    vnm_gpu.sampled_store %acc into %values[%row, %group] meta(%meta)
        {matrix = tensor<4096x4096xf16, #vnm.encoding<v = 64, n = 2, m = 8>>}
        : !acc, memref<?xi8>, memref<?xf16>
    ```
  }];
  let arguments = (ins VNMGPU_AccType:$acc, VNMGPU_FlatBuffer:$values,
                   VNMGPU_FlatBuffer:$meta, I32:$row, I32:$group,
                   VNMGPU_MatrixAttr:$matrix);
  let assemblyFormat = [{
    $acc `into` $values `[` $row `,` $group `]` `meta` `(` $meta `)`
    attr-dict `:` qualified(type($acc)) `,` type($meta) `,` type($values)
  }];
}

def VNMGPU_StageSparseAOp : VNMGPU_Op<"stage_sparse_a",
    [MemoryEffects<[MemRead, MemWrite]>]> {
  let summary = "copy a k-tile pair's sparse A fragments into an A ring slot";
  let description = [{
    Starts the asynchronous copy of what `vnm_gpu.load_sparse_a` would read
    for rows `row` .. and k-tile pair `pair` (same arrays, same rules) into
    slot `slot` of an A ring, in the slot's layout. With `layout` its
    threads copy the slot's 16-byte chunks round-robin (`rows_per_thread =
    1`); without it one thread of the producers copies the slot's 16-row
    tiles of values and metadata, which land on the slot's barrier: one TMA
    box of each array when the arrays are kernel parameters (passed as
    tensor maps), else one bulk copy per tile and array.
    Only the producer of a `vnm_gpu.produce_consume` copies: the copy lands
    before the consumers read the slot.

    ```mlir
    vnm_gpu.stage_sparse_a %values, %meta[%row, %pair] into %aring[%slot]
        {layout = #vnm_gpu.copy<threads = 128, rows_per_thread = 1>,
         matrix = tensor<4096x4096xf16, #vnm.encoding<v = 128, n = 2, m = 8>>}
        : memref<?xf16>, memref<?xi32>, !a_ring
    ```
  }];
  let arguments = (ins VNMGPU_FlatBuffer:$values, VNMGPU_FlatBuffer:$meta,
                   I32:$row, I32:$pair, VNMGPU_ARingType:$ring, I32:$slot,
                   VNMGPU_MatrixAttr:$matrix,
                   OptionalAttr<VNMGPU_CopyLayoutAttr>:$layout);
  let assemblyFormat = [{
    $values `,` $meta `[` $row `,` $pair `]` `into` $ring `[` $slot `]`
    attr-dict `:` type($values) `,` type($meta) `,` qualified(type($ring))
  }];
}

def VNMGPU_LoadStagedAOp : VNMGPU_Op<"load_staged_a",
    [MemoryEffects<[MemRead]>]> {
  let summary = "load sparse A fragments from an A ring slot";
  let description = [{
    The sparse A tile that `vnm_gpu.stage_sparse_a` copied into slot
    `slot`, loaded into the registers of its layout (the consumers of a
    `vnm_gpu.produce_consume`).

    ```mlir
    %a = vnm_gpu.load_staged_a %aring[%slot] : !a_ring -> !sparse_a
    ```
  }];
  let arguments = (ins VNMGPU_ARingType:$ring, I32:$slot);
  let results = (outs VNMGPU_SparseAType:$result);
  let assemblyFormat = [{
    $ring `[` $slot `]` attr-dict `:` qualified(type($ring)) `->`
    qualified(type($result))
  }];
}

def VNMGPU_ProduceConsumeOp : VNMGPU_Op<"produce_consume",
    [RecursiveMemoryEffects]> {
  let summary = "a K loop split between a producer and consumer warpgroups";
  let description = [{
    Runs the k-tile pairs `lower` .. `upper - 1` of a block with its threads
    split in two roles: the last `producers` threads (a warpgroup) run the
    `produce` region for each pair, the others the `consume` region. Pair
    `p` uses slot `s = (p - lower) mod stages` of the rings its regions
    index; both regions receive `(p, s)`, and `consume` also the values it
    yielded for the previous pair (`iter_args` for the first).

    The op owns the protocol that makes this correct: the producer writes a
    slot only after the consumers have released it, and the consumers read
    it only after the producer's copies into it have landed (one `mbarrier`
    pair per slot on the GPU). The consumers release the slot of pair `p`
    after their region for pair `p + 1` has run, whose last `wgmma_sp`
    waited for all MMAs but that pair's. Each role's registers are set with
    `setmaxnreg` (`registers` for the producers, `consumer_registers` for
    the consumers). The results are the consumers' last yield.

    After the op only the consumers run: the producers leave the kernel. On
    the CPU the two regions run in lockstep, the produce region of a pair
    and then its consume region, one valid schedule of the protocol.

    ```mlir
    %acc = vnm_gpu.produce_consume %c0 to %pairs stages(4)
        producers(128, registers = 40) consumer_registers(232)
        iter_args(%zero : !acc)
      produce {
      ^bb0(%pair: i32, %slot: i32):
        vnm_gpu.copy_tile ... into %ring[%slot] ...
        vnm_gpu.stage_sparse_a ... into %aring[%slot] ...
        vnm_gpu.yield
      } consume {
      ^bb0(%pair: i32, %slot: i32, %acc: !acc):
        %a = vnm_gpu.load_staged_a %aring[%slot] : !a_ring -> !sparse_a
        %0 = vnm_gpu.wgmma_sp %a[0], %ring[%slot] offset(0), %acc : ...
        %1 = vnm_gpu.wgmma_sp %a[1], %ring[%slot] offset(32), %0 pending(1) : ...
        vnm_gpu.yield %1 : !acc
      } -> !acc
    ```
  }];
  let arguments = (ins I32:$lower, I32:$upper, Variadic<AnyType>:$inits,
                   I64Attr:$stages, I64Attr:$producers,
                   I64Attr:$producerRegisters, I64Attr:$consumerRegisters);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$produce, SizedRegion<1>:$consume);
  let assemblyFormat = [{
    $lower `to` $upper `stages` `(` $stages `)` `producers` `(` $producers
    `,` `registers` `=` $producerRegisters `)` `consumer_registers` `(`
    $consumerRegisters `)` (`iter_args` `(` $inits^ `:` type($inits) `)`)?
    `produce` $produce `consume` $consume attr-dict (`->` type($results)^)?
  }];
  let extraClassDeclaration = [{
    /// The block's consumer threads, when the kernel states its block size.
    std::optional<int64_t> getConsumerThreads();
  }];
}

def VNMGPU_YieldOp : VNMGPU_Op<"yield",
    [Pure, Terminator, ParentOneOf<["ProduceConsumeOp"]>]> {
  let summary = "end a region of vnm_gpu.produce_consume";
  let arguments = (ins Variadic<AnyType>:$values);
  let assemblyFormat = "($values^ `:` type($values))? attr-dict";
  let hasVerifier = 0;
}

#endif // VNM_DIALECT_VNMGPU_IR_VNMGPUOPS_TD
