//===- NVVMTargets.cpp - the GPU targets vnm compiles for -----------------===//

#include "vnm/Pipelines/NVVMTargets.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

using namespace llvm;

namespace {

// The kernels use mma.sp::ordered_metadata (sm_80+, PTX 8.5) and cp.async
// (sm_80+). sm_80 and sm_90 are the chips they are tested on; sm_90a is
// sm_90 plus its arch-specific instructions, which the Hopper kernels will
// use, and LLVM 22 writes it from PTX 8.0 on. Other sm_8x/sm_9x chips are
// left out until tested (their shared memory per block differs); the
// sm_100 family needs PTX 8.6 or newer and kernels of its own.
constexpr unsigned kOrderedMetadataPTX = 85;
constexpr unsigned kOldestKernelChip = 80;
constexpr unsigned kBlackwellChip = 100;

const vnm::NVVMChip kChips[] = {
    {"sm_80", kOrderedMetadataPTX},
    {"sm_90", kOrderedMetadataPTX},
    {"sm_90a", kOrderedMetadataPTX},
};

// LLVM 22's NVPTX backend knows PTX versions up to 9.0 (`llc -march=nvptx64
// -mcpu=help`); these are the ones from 8.5 on.
const StringLiteral kPTXFeatures[] = {"+ptx85", "+ptx86", "+ptx87", "+ptx88",
                                      "+ptx90"};

std::string chipList() {
  return join(
      map_range(kChips,
                [](const vnm::NVVMChip &chip) { return chip.name.str(); }),
      ", ");
}

std::string featureList() {
  return join(map_range(kPTXFeatures,
                        [](StringLiteral feature) { return feature.str(); }),
              ", ");
}

/// The number of `sm_<number>[a|f]`, or std::nullopt for any other name.
std::optional<unsigned> smNumber(StringRef chip) {
  if (!chip.consume_front("sm_"))
    return std::nullopt;
  chip.consume_back("a") || chip.consume_back("f");
  unsigned number;
  if (chip.empty() || chip.getAsInteger(10, number))
    return std::nullopt;
  return number;
}

std::optional<std::string> checkChip(StringRef chip) {
  if (llvm::is_contained(map_range(kChips,
                                   [](const vnm::NVVMChip &supported) {
                                     return StringRef(supported.name);
                                   }),
                         chip))
    return std::nullopt;
  std::string reason;
  if (chip.empty()) {
    reason = "chip is empty";
  } else if (std::optional<unsigned> number = smNumber(chip); !number) {
    reason =
        formatv("chip '{0}' is not an NVIDIA GPU architecture (sm_NN)", chip);
  } else if (*number < kOldestKernelChip) {
    reason = formatv("chip '{0}' cannot run the kernels: "
                     "mma.sp::ordered_metadata and cp.async need sm_80 or "
                     "newer",
                     chip);
  } else if (*number >= kBlackwellChip) {
    reason = formatv("chip '{0}' is not supported: there are no kernels for "
                     "the sm_100 generation and later yet, and they would "
                     "need PTX 8.6 or newer",
                     chip);
  } else {
    reason = formatv("chip '{0}' is not supported: the kernels are "
                     "generated and tested for the chips listed",
                     chip);
  }
  return reason + "; supported chips: " + chipList();
}

std::optional<std::string> checkFeatures(const vnm::NVVMChip &chip,
                                         StringRef features) {
  SmallVector<StringRef> parts;
  features.split(parts, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string reason;
  if (parts.empty()) {
    reason = formatv("features is empty, so the NVVM target would write PTX "
                     "6.0, and mma.sp::ordered_metadata needs PTX 8.5 "
                     "(+ptx85)");
  } else if (parts.size() > 1) {
    reason = formatv("features '{0}' must be one PTX version", features);
  } else {
    StringRef feature = parts.front().trim();
    unsigned version = 0;
    bool isPTX = feature.starts_with("+ptx") &&
                 !feature.drop_front(4).getAsInteger(10, version);
    if (!isPTX)
      reason = formatv("features '{0}' is not a PTX version (+ptxNN)", feature);
    else if (version < chip.minPTX)
      reason = formatv("{0} needs PTX {1}.{2} or newer "
                       "(mma.sp::ordered_metadata), got {3}",
                       chip.name, chip.minPTX / 10, chip.minPTX % 10, feature);
    else if (!llvm::is_contained(kPTXFeatures, feature))
      reason = formatv("features '{0}' is not a PTX version LLVM 22 writes",
                       feature);
    else
      return std::nullopt;
  }
  return reason + "; supported features: " + featureList();
}

} // namespace

ArrayRef<vnm::NVVMChip> vnm::getSupportedNVVMChips() { return kChips; }

ArrayRef<StringLiteral> vnm::getSupportedPTXFeatures() { return kPTXFeatures; }

std::optional<std::string> vnm::checkNVVMTarget(StringRef chip,
                                                StringRef features) {
  if (std::optional<std::string> reason = checkChip(chip))
    return reason;
  const NVVMChip *supported = llvm::find_if(
      kChips, [&](const NVVMChip &entry) { return entry.name == chip; });
  return checkFeatures(*supported, features);
}
