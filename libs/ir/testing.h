// For libs/ir's tests: modules read from text that a test expects to
// read, failing the test (and giving an empty module) when it does not.
#ifndef TESSEL_LIBS_IR_TESTING_H_
#define TESSEL_LIBS_IR_TESTING_H_

#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "libs/ir/node.h"
#include "libs/ir/syntax.h"
#include "libs/support/source.h"

namespace tessel::ir {

// `text` read as m.tir (names resolved, not verified).
inline Module ReadOk(const std::string& text) {
  auto module = ReadText(MakeSource("m.tir", text));
  EXPECT_TRUE(module.ok()) << module.status();
  return module.ok() ? *std::move(module) : Module();
}

}  // namespace tessel::ir

#endif  // TESSEL_LIBS_IR_TESTING_H_
