//===- Quantization.cpp - the quantization choice of a weight -------------===//

#include "vnm/Dialect/VNM/IR/Quantization.h"

using namespace vnm;

std::optional<QuantizationChoice> vnm::parseQuantization(llvm::StringRef spec,
                                                         std::string &error) {
  auto fail = [&](const std::string &why) -> std::optional<QuantizationChoice> {
    error = "invalid quantization '" + spec.str() + "': " + why +
            " (expected w8a8, w4a8, w8a16 or w4a16, optionally with "
            "-g<group size>, e.g. w4a16-g128)";
    return std::nullopt;
  };
  auto [kind, group] = spec.split('-');
  QuantizationChoice choice;
  if (kind == "w8a8" || kind == "w4a8")
    choice.quantizeActivations = true;
  else if (kind != "w8a16" && kind != "w4a16")
    return fail("unknown form '" + kind.str() + "'");
  choice.weightBits = kind.starts_with("w4") ? 4 : 8;
  if (spec.contains('-')) {
    if (!group.consume_front("g") || group.getAsInteger(10, choice.groupSize) ||
        choice.groupSize <= 0)
      return fail("the group size must be -g followed by a positive integer");
  }
  return choice;
}
