/*===- Support.h - vnm C API: strings, status, version ------------*- C -*-===*\
|*                                                                            *|
|* Types shared by every part of the vnm C API. The C API follows the        *|
|* conventions of upstream `mlir-c`: handles are structs holding one pointer, *|
|* strings are passed as (pointer, length) pairs, names are `vnm<Noun><Verb>`.*|
|*                                                                            *|
|* Fallible calls return a VnmStatus instead of printing or aborting: the C   *|
|* API is meant to be embedded (Python through ctypes, other compilers), and  *|
|* the embedder decides what to do with a message.                            *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/

#ifndef VNM_C_SUPPORT_H
#define VNM_C_SUPPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Marks the C API's entry points as exported, so that they stay visible
 * if the library is ever built with hidden visibility. */
#if defined(_WIN32) || defined(__CYGWIN__)
#define VNM_CAPI_EXPORTED
#else
#define VNM_CAPI_EXPORTED __attribute__((visibility("default")))
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* Incremented whenever a declaration of the C API changes incompatibly or
 * functions are added that the Python package calls, so that a dynamic
 * loader (the package) can refuse a stale library instead of calling it
 * with the wrong signature or failing on a missing symbol. Version 2 adds
 * the fragment classes (vnmFormatPackFragmentsAs, ...UnpackFragmentsAs),
 * version 3 the GPU kernel launcher (vnm-c/GPURuntime.h). */
#define VNM_CAPI_VERSION 3

/// Returns VNM_CAPI_VERSION as the library was built.
VNM_CAPI_EXPORTED int vnmGetCAPIVersion(void);

//===----------------------------------------------------------------------===//
// Strings
//===----------------------------------------------------------------------===//

/// A borrowed string: not owned, not necessarily NUL-terminated (strings
/// returned by the API are NUL-terminated at `data[length]`).
typedef struct VnmStringRef {
  const char *data;
  size_t length;
} VnmStringRef;

/// Returns a VnmStringRef over a NUL-terminated string (length without NUL).
VNM_CAPI_EXPORTED VnmStringRef vnmStringRefCreateFromCString(const char *str);

/// A string owned by the caller, allocated by the library; release it with
/// vnmStringDestroy. `data[length]` is NUL, but the contents may hold NULs
/// (bytecode), so use `length`.
typedef struct VnmString {
  char *data;
  size_t length;
} VnmString;

/// Releases a string returned by the library; a null `data` is a no-op.
VNM_CAPI_EXPORTED void vnmStringDestroy(VnmString string);

//===----------------------------------------------------------------------===//
// Status
//===----------------------------------------------------------------------===//

/// The result of a fallible call. A null `ptr` is success. A failure owns a
/// message, which the caller must release with vnmStatusDestroy (as LLVM's C
/// API does with LLVMErrorRef).
typedef struct VnmStatus {
  void *ptr;
} VnmStatus;

/// True for success.
VNM_CAPI_EXPORTED bool vnmStatusIsOk(VnmStatus status);

/// The failure's message (NUL-terminated, valid until vnmStatusDestroy); the
/// empty string for success.
VNM_CAPI_EXPORTED VnmStringRef vnmStatusGetMessage(VnmStatus status);

/// Releases a status; a success is a no-op.
VNM_CAPI_EXPORTED void vnmStatusDestroy(VnmStatus status);

#ifdef __cplusplus
}
#endif

#endif // VNM_C_SUPPORT_H
