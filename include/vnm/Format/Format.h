//===- Format.h - V:N:M sparse format library -------------------*- C++ -*-===//

#ifndef VNM_FORMAT_FORMAT_H
#define VNM_FORMAT_FORMAT_H

#include "vnm/Format/ElementType.h"
#include "vnm/Format/Encoding.h"
#include "vnm/Format/FloatBits.h"
#include "vnm/Format/FragmentLayout.h"
#include "vnm/Format/LogicalStorage.h"
#include "vnm/Format/Prune.h"
#include "vnm/Format/Quantize.h"
#include "vnm/Format/Status.h"
#include "vnm/Format/StorageShape.h"

#endif // VNM_FORMAT_FORMAT_H
