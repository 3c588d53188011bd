//===- StorageChecks.cpp --------------------------------------------------===//

#include "StorageChecks.h"

namespace vnm::format::detail {

std::string indexName(const char *array, int64_t i, int64_t j) {
  return std::string(array) + "[" + std::to_string(i) + "][" +
         std::to_string(j) + "]";
}

Status checkColidx(const StorageShape &shape, int64_t m,
                   const uint8_t *colidx) {
  for (int64_t b = 0; b < shape.blocks; ++b) {
    for (int64_t g = 0; g < shape.groups; ++g) {
      const uint8_t *entry = colidx + (b * shape.groups + g) * 4;
      for (int i = 0; i < 4; ++i) {
        auto name = [&] {
          return indexName("colidx", b, g) + "[" + std::to_string(i) + "]";
        };
        if (entry[i] >= m)
          return Status::error(name() + " = " + std::to_string(entry[i]) +
                               " is not below m = " + std::to_string(m));
        if (i > 0 && entry[i] <= entry[i - 1])
          return Status::error(name() + " = " + std::to_string(entry[i]) +
                               " is not greater than the previous offset " +
                               std::to_string(entry[i - 1]));
      }
    }
  }
  return Status::success();
}

Status checkMeta(const StorageShape &shape, const uint8_t *meta) {
  const int64_t cc = shape.compressedCols;
  for (int64_t i = 0; i < shape.metaCount; ++i) {
    if (meta[i] > 3)
      return Status::error(indexName("meta", i / cc, i % cc) + " = " +
                           std::to_string(meta[i]) +
                           " is not a position in 0..3");
    if (i % 2 == 1 && meta[i] <= meta[i - 1])
      return Status::error(indexName("meta", i / cc, i % cc) + " = " +
                           std::to_string(meta[i]) +
                           " is not greater than the first position of its "
                           "pair " +
                           std::to_string(meta[i - 1]));
  }
  return Status::success();
}

} // namespace vnm::format::detail
