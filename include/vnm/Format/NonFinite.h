//===- NonFinite.h - How pruning treats NaN and infinite weights -*- C++
//-*-===//

#ifndef VNM_FORMAT_NONFINITE_H
#define VNM_FORMAT_NONFINITE_H

namespace vnm::format {

/// A NaN or an infinity in a weight is almost always a bug upstream (a
/// diverged training run, a bad conversion), and it would decide the column
/// choice of its whole V x M block: pruning and compression refuse it
/// unless asked to keep it. Kept, NaN ranks above infinity, which ranks
/// above every number (docs/format.md).
enum class NonFinite { Reject, Keep };

} // namespace vnm::format

#endif // VNM_FORMAT_NONFINITE_H
