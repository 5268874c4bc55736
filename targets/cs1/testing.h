// For tests of the CS-1 level: the target library's text
// (targets/cs1/cs1.tir), which a CS-1 module is concatenated with. Tests
// that use it depend on //targets/cs1:testing, which brings the file (a
// module missing its instructions fails to read, naming them).
#ifndef TESSEL_TARGETS_CS1_TESTING_H_
#define TESSEL_TARGETS_CS1_TESTING_H_

#include <fstream>
#include <sstream>
#include <string>

namespace tessel::cs1 {

inline std::string LibraryText() {
  std::ifstream file("targets/cs1/cs1.tir");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

}  // namespace tessel::cs1

#endif  // TESSEL_TARGETS_CS1_TESTING_H_
