//===- VerifyStorage.h - Typed storage verification -------------*- C++ -*-===//

#ifndef VNM_LIB_FORMAT_VERIFYSTORAGE_H
#define VNM_LIB_FORMAT_VERIFYSTORAGE_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/StorageShape.h"

#include <cstdint>

namespace vnm::format::detail {

/// verifyStorage once the shape and the buffers have been checked, so that
/// decompress does not repeat those checks.
Status verifyArrays(const Encoding &encoding, ElementType type,
                    const StorageShape &shape, const void *values,
                    const uint8_t *colidx, const uint8_t *meta);

/// Shape and null-pointer checks shared by verifyStorage and decompress.
Status checkStorageArguments(const Encoding &encoding, ElementType type,
                             const void *values, const uint8_t *colidx,
                             const uint8_t *meta, int64_t rows, int64_t cols,
                             StorageShape &shape);

} // namespace vnm::format::detail

#endif // VNM_LIB_FORMAT_VERIFYSTORAGE_H
