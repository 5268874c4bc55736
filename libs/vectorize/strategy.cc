#include "libs/vectorize/strategy.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tessel::vectorize {
namespace {

// Register tiles fill a target's registers: rows * vectors accumulators,
// `vectors` loaded rows and a broadcast value, within 32 (AVX-512) or 16
// (AVX2) registers.
constexpr int64_t kMaxLanes = 64;
constexpr int64_t kMaxTile = 64;
constexpr int64_t kMaxDepth = int64_t{1} << 30;
constexpr int64_t kMaxCache = int64_t{1} << 40;
constexpr int64_t kMaxPrefetch = int64_t{1} << 20;

absl::Status LineError(absl::string_view path, int line,
                       absl::string_view message) {
  return absl::InvalidArgumentError(
      absl::StrCat(path, ":", line, ":1: error: ", message));
}

// `value` as an integer of `key` from `least` to `max`.
absl::StatusOr<int64_t> IntegerIn(absl::string_view value, int64_t least,
                                  int64_t max, absl::string_view key,
                                  absl::string_view path, int line) {
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n) || n < least || n > max) {
    return LineError(path, line,
                     absl::StrCat("'", key, "' takes an integer from ", least,
                                  " to ", max, ", not '", value, "'"));
  }
  return n;
}

// `value` as an integer of `key` from 1 to `max`.
absl::StatusOr<int64_t> Positive(absl::string_view value, int64_t max,
                                 absl::string_view key, absl::string_view path,
                                 int line) {
  return IntegerIn(value, 1, max, key, path, line);
}

// The index of `value` among `choices`, the values `key` takes.
absl::StatusOr<size_t> ChoiceOf(
    absl::string_view value, std::initializer_list<absl::string_view> choices,
    absl::string_view key, absl::string_view path, int line) {
  std::string listed;
  size_t index = 0;
  for (absl::string_view choice : choices) {
    if (value == choice) return index;
    absl::StrAppend(&listed,
                    index == 0                    ? ""
                    : index + 1 == choices.size() ? " or "
                                                  : ", ",
                    "'", choice, "'");
    ++index;
  }
  return LineError(
      path, line,
      absl::StrCat("'", key, "' is ", listed, ", not '", value, "'"));
}

}  // namespace

absl::StatusOr<Strategy> DefaultStrategy(absl::string_view target) {
  if (target == "avx512") {
    // 7 rows x 4 vectors of 16 lanes: 28 accumulators and 4 rows of B in
    // the 32 zmm registers, A broadcast from memory inside each FMA (6
    // rows ran 3 % slower on a 64^3 matmul and 6 % on a stride-2
    // convolution, as fast on larger matmuls; docs/vectorize.md). A panel
    // is packed where it is read 64 times (the default `pack_reads`): on
    // the AVX-512 machine (an Intel core, L2 of 1 MiB), a 9 x 9 x 512
    // layer's filter, read 7 times, ran at 0.82-0.85x oneDNN packed and
    // 0.79-0.93x in place; at 28 reads 0.95-0.96x and 0.96-0.99x;
    // matmul's B, read by 85 tiles of rows at 512, as fast either way, by
    // 170 at 1024 2.5 % faster packed, by 341 at 2048 1.9x.
    return Strategy{.width = 16,
                    .vectors = 4,
                    .rows = 7,
                    .fit = true,
                    .prefetch = 448,
                    .dot = 4};
  }
  if (target == "avx2") {
    // 6 rows x 2 vectors of 8 lanes: 12 accumulators, 2 rows of B and a
    // broadcast of A in the 16 ymm registers. A panel read 3 times ran
    // faster packed on the AVX2 machine (an AMD Zen 3 core, L2 of 512 KiB
    // in 8 ways), read twice slower (docs/vectorize.md, step 6); a
    // depthwise layer's filter packed by tiles of lanes 0-7 % faster where
    // its taps lie 256 bytes apart or more, 1-2 % slower at 128
    // ("Convolutions"); the AVX-512 machine's, unmeasured, stays. Its L3,
    // 32 MiB, serves the other cores of its complex too: matmul's packed
    // A ran 5-11 % faster at 2048 in blocks of 8 MiB or 4 MiB than in
    // one of 16 MiB (docs/vectorize.md, step 4).
    return Strategy{.width = 8,
                    .vectors = 2,
                    .rows = 6,
                    .registers = 16,
                    .fit = true,
                    .pack_reads = 3,
                    .pack_taps = 256,
                    .l3 = int64_t{16} << 20,
                    .prefetch = 448,
                    .nontemporal = int64_t{512} << 10,
                    .dot = 2};
  }
  return absl::InvalidArgumentError(
      absl::StrCat("unknown target '", target, "' (targets: avx512, avx2)"));
}

absl::StatusOr<Strategy> ParseStrategy(absl::string_view text,
                                       absl::string_view path, Strategy base) {
  Strategy strategy = base;
  int line_number = 0;
  int lowering_line = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++line_number;
    line = line.substr(0, line.find('#'));
    std::vector<absl::string_view> words =
        absl::StrSplit(line, absl::ByAnyChar(" \t\r"), absl::SkipEmpty());
    if (words.empty()) continue;
    absl::string_view key = words[0];
    if (key == "tile") {
      if (words.size() != 3) {
        return LineError(path, line_number,
                         "'tile' takes a loop and a size: "
                         "'tile LOOP SIZE'");
      }
      auto n = Positive(words[2], kMaxDepth, key, path, line_number);
      if (!n.ok()) return n.status();
      std::string loop(words[1]);
      auto& tiles = strategy.tiles;
      tiles.erase(
          std::remove_if(tiles.begin(), tiles.end(),
                         [&](const auto& t) { return t.first == loop; }),
          tiles.end());
      tiles.emplace_back(std::move(loop), *n);
      continue;
    }
    if (key == "interchange") {
      std::vector<std::string> loops(words.begin() + 1, words.end());
      std::vector<std::string> sorted = loops;
      std::sort(sorted.begin(), sorted.end());
      if (loops.size() < 2 ||
          std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) {
        return LineError(path, line_number,
                         "'interchange' takes two or more distinct loops, "
                         "outermost first");
      }
      strategy.interchange = std::move(loops);
      continue;
    }
    if (words.size() != 2) {
      return LineError(path, line_number,
                       "a line is 'KEY VALUE' (or a # comment)");
    }
    absl::string_view value = words[1];
    if (key == "width") {
      auto n = Positive(value, kMaxLanes, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.width = *n;
    } else if (key == "vectors") {
      auto n = Positive(value, kMaxTile, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.vectors = *n;
    } else if (key == "rows") {
      auto n = Positive(value, kMaxTile, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.rows = *n;
    } else if (key == "registers") {
      auto n = Positive(value, kMaxTile, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.registers = *n;
    } else if (key == "shape") {
      auto shape = ChoiceOf(value, {"fit", "fixed"}, key, path, line_number);
      if (!shape.ok()) return shape.status();
      strategy.fit = *shape == 0;
    } else if (key == "depth") {
      auto n = Positive(value, kMaxDepth, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.depth = *n;
    } else if (key == "tail") {
      auto tail =
          ChoiceOf(value, {"pad", "peel", "mask"}, key, path, line_number);
      if (!tail.ok()) return tail.status();
      strategy.tail = std::array{Tail::kPad, Tail::kPeel, Tail::kMask}[*tail];
    } else if (key == "contraction") {
      auto contraction =
          ChoiceOf(value, {"fma", "mul-add"}, key, path, line_number);
      if (!contraction.ok()) return contraction.status();
      strategy.contraction =
          std::array{Contraction::kFma, Contraction::kMulAdd}[*contraction];
    } else if (key == "lowering") {
      auto lowering = ChoiceOf(value, {"contract", "outer-product", "fma"}, key,
                               path, line_number);
      if (!lowering.ok()) return lowering.status();
      strategy.lowering =
          std::array{Lowering::kContract, Lowering::kOuterProduct,
                     Lowering::kFma}[*lowering];
      lowering_line = line_number;
    } else if (key == "pack") {
      auto pack =
          ChoiceOf(value, {"auto", "yes", "no"}, key, path, line_number);
      if (!pack.ok()) return pack.status();
      strategy.pack = std::array{Pack::kAuto, Pack::kYes, Pack::kNo}[*pack];
    } else if (key == "pack-reads") {
      auto n = Positive(value, kMaxDepth, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.pack_reads = *n;
    } else if (key == "pack-taps") {
      auto n = IntegerIn(value, 0, kMaxCache, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.pack_taps = *n;
    } else if (key == "window") {
      auto n = Positive(value, kMaxTile, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.window = *n;
    } else if (key == "prefetch") {
      auto n = IntegerIn(value, 0, kMaxPrefetch, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.prefetch = *n;
    } else if (key == "nontemporal") {
      auto n = IntegerIn(value, 0, kMaxCache, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.nontemporal = *n;
    } else if (key == "dot") {
      int64_t n = 0;
      if (!absl::SimpleAtoi(value, &n) || n < 0 || n > kMaxTile ||
          (n & (n - 1)) != 0) {
        return LineError(path, line_number,
                         absl::StrCat("'dot' takes 0 or a power of two up to ",
                                      kMaxTile, ", not '", value, "'"));
      }
      strategy.dot = n;
    } else if (key == "l2") {
      auto n = Positive(value, kMaxCache, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.l2 = *n;
    } else if (key == "l3") {
      auto n = Positive(value, kMaxCache, key, path, line_number);
      if (!n.ok()) return n.status();
      strategy.l3 = *n;
    } else {
      return LineError(
          path, line_number,
          absl::StrCat("unknown key '", key,
                       "' (keys: width, vectors, rows, registers, shape, "
                       "depth, "
                       "tail, contraction, lowering, tile, interchange, pack, "
                       "pack-reads, pack-taps, "
                       "window, l2, l3, prefetch, nontemporal, dot)"));
    }
  }
  // A contract rounds each product and each sum, as the loops do; an fma
  // rounds once, which no contract states.
  if (strategy.lowering == Lowering::kContract &&
      strategy.contraction == Contraction::kFma) {
    return LineError(path, lowering_line,
                     "'lowering contract' needs 'contraction mul-add' (a "
                     "contract rounds its products and sums apart, an fma "
                     "once)");
  }
  return strategy;
}

std::string PrintStrategy(const Strategy& strategy) {
  std::string loops;
  for (const auto& [loop, size] : strategy.tiles) {
    absl::StrAppend(&loops, "tile ", loop, " ", size, "\n");
  }
  if (!strategy.interchange.empty()) {
    absl::StrAppend(&loops, "interchange ",
                    absl::StrJoin(strategy.interchange, " "), "\n");
  }
  return absl::StrCat(
      "width ", strategy.width, "\nvectors ", strategy.vectors, "\nrows ",
      strategy.rows, "\nregisters ", strategy.registers, "\nshape ",
      strategy.fit ? "fit" : "fixed", "\ndepth ", strategy.depth, "\ntail ",
      strategy.tail == Tail::kPad    ? "pad"
      : strategy.tail == Tail::kPeel ? "peel"
                                     : "mask",
      "\ncontraction ",
      strategy.contraction == Contraction::kFma ? "fma" : "mul-add",
      "\nlowering ",
      strategy.lowering == Lowering::kFma            ? "fma"
      : strategy.lowering == Lowering::kOuterProduct ? "outer-product"
                                                     : "contract",
      "\n", loops, "pack ",
      strategy.pack == Pack::kAuto  ? "auto"
      : strategy.pack == Pack::kYes ? "yes"
                                    : "no",
      "\npack-reads ", strategy.pack_reads, "\npack-taps ", strategy.pack_taps,
      "\nwindow ", strategy.window, "\nl2 ", strategy.l2, "\nl3 ", strategy.l3,
      "\nprefetch ", strategy.prefetch, "\nnontemporal ", strategy.nontemporal,
      "\ndot ", strategy.dot, "\n");
}

}  // namespace tessel::vectorize
