//===- VNMGPUTypes.td - vnm_gpu types ----------------------*- tablegen -*-===//
//
// Tile values (whole-block tiles with a lane layout) and the shared-memory
// ring. Constraint numbers refer to docs/spec.md (section vnm_gpu).
//
//===----------------------------------------------------------------------===//

#ifndef VNM_DIALECT_VNMGPU_IR_VNMGPUTYPES_TD
#define VNM_DIALECT_VNMGPU_IR_VNMGPUTYPES_TD

include "vnm/Dialect/VNMGPU/IR/VNMGPUAttrs.td"
include "mlir/IR/AttrTypeBase.td"

class VNMGPU_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<VNMGPU_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
  let genVerifyDecl = 1;
}

def VNMGPU_RingType : VNMGPU_Type<"Ring", "ring"> {
  let summary = "a ring of shared-memory tiles filled by asynchronous copies";
  let description = [{
    `stages` slots of `rows` x `cols` elements in the block's shared memory,
    rows laid out as the swizzle says. Copies into a slot (`vnm_gpu.gather`,
    `vnm_gpu.copy_tile`) land at a later `vnm_gpu.wait`.

    ```mlir
    !vnm_gpu.ring<3x64x128xf16, #vnm_gpu.swizzle<chunk = 16, period = 8>>
    ```
  }];
  let parameters = (ins "int64_t":$stages, "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType,
                        "::vnm::vnm_gpu::SwizzleAttr":$swizzle);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    int64_t getElementBytes() const;
    int64_t getRowBytes() const { return getCols() * getElementBytes(); }
    int64_t getSlotBytes() const { return getRows() * getRowBytes(); }
    int64_t getTotalBytes() const { return getStages() * getSlotBytes(); }
    /// The width in bytes of the canonical swizzle that the TMA writes and
    /// wgmma reads through a descriptor, if the slot has that layout: 128
    /// for 128-byte column blocks of 16-byte chunks XOR-ed over 8 rows, 64
    /// for 64-byte rows of 16-byte chunks XOR-ed over pairs of rows (period
    /// 4); 0 for any other layout.
    int64_t getCanonicalSwizzleBytes() const;
  }];
}

def VNMGPU_ColLocType : VNMGPU_Type<"ColLoc", "colloc"> {
  let summary = "the column-locs of consecutive groups of one V block";
  let description = [{
    The four selected column offsets of each of `groups` consecutive column
    groups of one V block, spread over the threads of the block as the
    layout says: a `#vnm_gpu.copy` layout spreads them as a gather's copy
    (each thread holds those of the groups its gathered rows belong to); an
    8-bit `#vnm_gpu.mma` layout as the B fragments of one instruction step
    (lane l holds groups 4 j + l mod 4, those its B registers j select
    from). `vnm_gpu.load_colloc` reads them, `vnm_gpu.gather` and
    `vnm_gpu.load_b ... via` use them.

    ```mlir
    !vnm_gpu.colloc<16, #vnm_gpu.copy<threads = 256, rows_per_thread = 4>>
    !vnm_gpu.colloc<16, #vnm_gpu.mma<mma_sp_m16n8k64, warps = [4, 2]>>
    ```
  }];
  let parameters = (ins "int64_t":$groups, "::mlir::Attribute":$layout);
  let assemblyFormat = "`<` $groups `,` $layout `>`";
  let extraClassDeclaration = [{
    /// The gather distribution, or null.
    ::vnm::vnm_gpu::CopyLayoutAttr getCopyLayout() const {
      return ::llvm::dyn_cast<::vnm::vnm_gpu::CopyLayoutAttr>(getLayout());
    }
    /// The B-fragment distribution, or null.
    ::vnm::vnm_gpu::MmaLayoutAttr getMmaLayout() const {
      return ::llvm::dyn_cast<::vnm::vnm_gpu::MmaLayoutAttr>(getLayout());
    }
    /// The threads the column-locs are spread over.
    int64_t getThreads() const;
  }];
}

class VNMGPU_TileType<string name, string typeMnemonic, string what>
    : VNMGPU_Type<name, typeMnemonic> {
  let parameters = (ins "int64_t":$rows, "int64_t":$cols,
                        "::mlir::Type":$elementType,
                        "::vnm::vnm_gpu::MmaLayoutAttr":$layout);
  let hasCustomAssemblyFormat = 1;
  let summary = what;
}

def VNMGPU_SparseAType : VNMGPU_TileType<"SparseA", "sparse_a",
    "the block's sparse A fragments and metadata for a span of K"> {
  let description = [{
    The compressed A values of `rows` rows over `cols` columns of K (the
    dense extent; half of it is stored), with the 2-bit metadata that
    places them, in the registers the sparse MMA of the layout reads. For
    `mma_sp_m16n8k32` a value covers a k-tile pair (64 columns): the pair's
    two k-tiles share one metadata register per m16 tile (selectors 0, 1).

    ```mlir
    !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
    ```
  }];
}

def VNMGPU_BFragType : VNMGPU_TileType<"BFrag", "b_frag",
    "the block's dense B operand fragments for one MMA step"> {
  let description = [{
    `rows` (K) x `cols` (N) elements of the dense operand, in the registers
    of the layout's MMA (for `mma_sp_m16n8k32`: 32 x the block's columns).

    ```mlir
    !vnm_gpu.b_frag<32x128xf16, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
    ```
  }];
}

def VNMGPU_AccType : VNMGPU_TileType<"Acc", "acc",
    "the block's accumulator tile"> {
  let description = [{
    `rows` x `cols` accumulators (f32 for float operands, i32 for integer
    ones) in the C/D registers of the layout's MMA.

    ```mlir
    !vnm_gpu.acc<128x128xf32, #vnm_gpu.mma<mma_sp_m16n8k32, warps = [4, 2]>>
    ```
  }];
}

def VNMGPU_ARingType : VNMGPU_Type<"ARing", "a_ring"> {
  let summary = "a ring of shared-memory slots holding sparse A fragments";
  let description = [{
    `stages` slots in the block's shared memory, each holding one k-tile
    pair of a `!vnm_gpu.sparse_a` tile in the order its threads read it:
    for each 16-row tile the pair's k-tiles of value words (32 lanes x 16
    bytes each; two k32 tiles of f16/bf16, one k64 tile of i8), then for
    each 16-row tile its metadata words (32 lanes x 4 bytes). With
    `value_bits = 4` an i8 tile's values are staged as the packed nibbles
    of an i4 weight (W4A8: 8 bytes per lane and k-tile), which
    `vnm_gpu.load_staged_a` widens to the i8 registers. `vnm_gpu.stage_sparse_a` fills a slot (the producer of a
    `vnm_gpu.produce_consume`), `vnm_gpu.load_staged_a` reads it.

    ```mlir
    !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<128x64xf16, #vnm_gpu.mma<wgmma_sp_m64nNk32, warps = [8, 1]>>>
    !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>>
    !vnm_gpu.a_ring<4, !vnm_gpu.sparse_a<64x64xi8, #vnm_gpu.mma<wgmma_sp_m64nNk64, warps = [4, 1]>>, value_bits = 4>
    ```
  }];
  let parameters = (ins "int64_t":$stages,
                        "::vnm::vnm_gpu::SparseAType":$tile,
                        DefaultValuedParameter<"int64_t", "0">:$valueBits);
  let builders = [
    TypeBuilder<(ins "int64_t":$stages, "::vnm::vnm_gpu::SparseAType":$tile), [{
      return $_get($_ctxt, stages, tile, 0);
    }]>
  ];
  let assemblyFormat =
      "`<` $stages `,` qualified($tile) (`,` `value_bits` `=` $valueBits^)? `>`";
  let extraClassDeclaration = [{
    /// 16-row tiles of a slot.
    int64_t getRowTiles() const { return getTile().getRows() / 16; }
    /// Bytes of one k-tile of a row tile's value words (32 lanes x 16).
    static constexpr int64_t kValueBytesPerKTile = 32 * 16;
    /// Bytes of one row tile's metadata words (32 lanes x 4).
    static constexpr int64_t kMetaBytesPerRowTile = 32 * 4;
    /// K-tiles of the pair: 64 columns of K over the MMA's depth.
    int64_t getKTiles() const {
      return getTile().getCols() / getTile().getLayout().getInstrK();
    }
    /// Bits of a staged value: the tile's element width, or 4 for packed
    /// nibbles (`value_bits = 4`).
    int64_t getStagedValueBits() const {
      return getValueBits() ? getValueBits()
                            : getTile().getElementType().getIntOrFloatBitWidth();
    }
    /// Bytes of one row tile's value words (all of the pair's k-tiles).
    int64_t getValueBytesPerRowTile() const {
      return getKTiles() * getKTileValueBytes();
    }
    /// Bytes of one k-tile's values of a row tile: 32 lanes x 16 bytes, or
    /// x 8 of packed nibbles.
    int64_t getKTileValueBytes() const {
      return kTileValueBytes(getTile().getElementType().getIntOrFloatBitWidth(),
                             getStagedValueBits());
    }
    int64_t getMetaOffset() const {
      return getRowTiles() * getValueBytesPerRowTile();
    }
    int64_t getSlotBytes() const {
      return slotBytes(getRowTiles(), getValueBytesPerRowTile());
    }
    int64_t getTotalBytes() const { return getStages() * getSlotBytes(); }
    /// The sizes above for a ring not built yet (the tiling's checks): a
    /// k-tile's values of `elementBits`-bit elements staged as
    /// `stagedBits`-bit ones, and a slot of `rowTiles` row tiles.
    static int64_t kTileValueBytes(int64_t elementBits, int64_t stagedBits) {
      return kValueBytesPerKTile * stagedBits / elementBits;
    }
    static int64_t slotBytes(int64_t rowTiles, int64_t valueBytesPerRowTile) {
      return rowTiles * (valueBytesPerRowTile + kMetaBytesPerRowTile);
    }
  }];
}

#endif // VNM_DIALECT_VNMGPU_IR_VNMGPUTYPES_TD
