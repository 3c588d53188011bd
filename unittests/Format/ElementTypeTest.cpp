//===- ElementTypeTest.cpp ------------------------------------------------===//

#include "TestData.h"

#include <gtest/gtest.h>

using namespace vnm::format;
using namespace vnm::format::test;

namespace {

TEST(ElementTypeTest, NamesRoundTrip) {
  for (ElementType type : kAllTypes) {
    EXPECT_TRUE(isValidElementType(type));
    EXPECT_EQ(parseElementType(getElementTypeName(type)), type);
  }
  EXPECT_STREQ(getElementTypeName(ElementType::BF16), "bf16");
  EXPECT_EQ(parseElementType("i4"), ElementType::I4);
  EXPECT_EQ(parseElementType("F16"), std::nullopt);
  EXPECT_EQ(parseElementType(""), std::nullopt);
  EXPECT_EQ(parseElementType("f64"), std::nullopt);
}

TEST(ElementTypeTest, ByteSizes) {
  EXPECT_EQ(getElementByteSize(ElementType::F16), 2);
  EXPECT_EQ(getElementByteSize(ElementType::BF16), 2);
  EXPECT_EQ(getElementByteSize(ElementType::F32), 4);
  EXPECT_EQ(getElementByteSize(ElementType::I8), 1);
  EXPECT_EQ(getElementByteSize(ElementType::I4), 1);
}

TEST(ElementTypeTest, InvalidValues) {
  for (int raw : {-1, 5, 42}) {
    const auto type = static_cast<ElementType>(raw);
    EXPECT_FALSE(isValidElementType(type));
    EXPECT_STREQ(getElementTypeName(type), "invalid");
    EXPECT_EQ(getElementByteSize(type), 0);
  }
}

TEST(StatusTest, SuccessAndError) {
  const Status ok = Status::success();
  EXPECT_TRUE(ok.ok());
  EXPECT_TRUE(ok.message().empty());
  const Status bad = Status::error("broken");
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.message(), "broken");
  EXPECT_FALSE(Status::error("").ok());
}

} // namespace
