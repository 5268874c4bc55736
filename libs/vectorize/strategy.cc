#include "libs/vectorize/strategy.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
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
                                  int64_t max, absl::string_view key) {
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n) || n < least || n > max) {
    return absl::InvalidArgumentError(
        absl::StrCat("'", key, "' takes an integer from ", least, " to ", max,
                     ", not '", value, "'"));
  }
  return n;
}

// A key that takes one integer from `kLeast` to `kMax`.
template <int64_t Strategy::*kField, int64_t kLeast, int64_t kMax>
absl::Status ReadInteger(absl::string_view key, absl::string_view value,
                         Strategy& strategy) {
  auto n = IntegerIn(value, kLeast, kMax, key);
  if (!n.ok()) return n.status();
  strategy.*kField = *n;
  return absl::OkStatus();
}

template <int64_t Strategy::*kField>
std::string PrintInteger(const Strategy& strategy) {
  return absl::StrCat(strategy.*kField);
}

// The words a key takes, each with the value it stands for.
template <typename T, size_t N>
using Choices = std::array<std::pair<absl::string_view, T>, N>;

constexpr Choices<bool, 2> kShapes = {{{"fit", true}, {"fixed", false}}};
constexpr Choices<Tail, 3> kTails = {
    {{"pad", Tail::kPad}, {"peel", Tail::kPeel}, {"mask", Tail::kMask}}};
constexpr Choices<Contraction, 2> kContractions = {
    {{"fma", Contraction::kFma}, {"mul-add", Contraction::kMulAdd}}};
constexpr Choices<Lowering, 3> kLowerings = {
    {{"contract", Lowering::kContract},
     {"outer-product", Lowering::kOuterProduct},
     {"fma", Lowering::kFma}}};
constexpr Choices<Pack, 3> kPacks = {
    {{"auto", Pack::kAuto}, {"yes", Pack::kYes}, {"no", Pack::kNo}}};

// A key that takes one of `kChoices`' words.
template <auto kField, const auto& kChoices>
absl::Status ReadChoice(absl::string_view key, absl::string_view value,
                        Strategy& strategy) {
  std::string listed;
  for (size_t i = 0; i < kChoices.size(); ++i) {
    if (value == kChoices[i].first) {
      strategy.*kField = kChoices[i].second;
      return absl::OkStatus();
    }
    absl::StrAppend(&listed,
                    i == 0                     ? ""
                    : i + 1 == kChoices.size() ? " or "
                                               : ", ",
                    "'", kChoices[i].first, "'");
  }
  return absl::InvalidArgumentError(
      absl::StrCat("'", key, "' is ", listed, ", not '", value, "'"));
}

template <auto kField, const auto& kChoices>
std::string PrintChoice(const Strategy& strategy) {
  for (const auto& [word, choice] : kChoices) {
    if (choice == strategy.*kField) return std::string(word);
  }
  return "";
}

// `dot` counts columns of a tile of lanes: 0 (none) or a power of two.
absl::Status ReadDot(absl::string_view, absl::string_view value,
                     Strategy& strategy) {
  int64_t n = 0;
  if (!absl::SimpleAtoi(value, &n) || n < 0 || n > kMaxTile ||
      (n & (n - 1)) != 0) {
    return absl::InvalidArgumentError(
        absl::StrCat("'dot' takes 0 or a power of two up to ", kMaxTile,
                     ", not '", value, "'"));
  }
  strategy.dot = n;
  return absl::OkStatus();
}

// A `KEY VALUE` line's key: how its value sets the strategy's field (or
// what the key takes), and how the field prints back.
struct Key {
  absl::string_view name;
  absl::Status (*read)(absl::string_view key, absl::string_view value,
                       Strategy& strategy);
  std::string (*print)(const Strategy& strategy);
};

// The keys of one integer field from `kLeast` to `kMax`, and of one
// choice among `kChoices`.
template <int64_t Strategy::*kField, int64_t kLeast, int64_t kMax>
constexpr Key IntegerKey(absl::string_view name) {
  return {name, ReadInteger<kField, kLeast, kMax>, PrintInteger<kField>};
}

template <auto kField, const auto& kChoices>
constexpr Key ChoiceKey(absl::string_view name) {
  return {name, ReadChoice<kField, kChoices>, PrintChoice<kField, kChoices>};
}

// In the order they print; `tile` and `interchange` lines follow them.
constexpr Key kKeys[] = {
    IntegerKey<&Strategy::width, 1, kMaxLanes>("width"),
    IntegerKey<&Strategy::vectors, 1, kMaxTile>("vectors"),
    IntegerKey<&Strategy::rows, 1, kMaxTile>("rows"),
    IntegerKey<&Strategy::registers, 1, kMaxTile>("registers"),
    ChoiceKey<&Strategy::fit, kShapes>("shape"),
    IntegerKey<&Strategy::depth, 1, kMaxDepth>("depth"),
    ChoiceKey<&Strategy::tail, kTails>("tail"),
    ChoiceKey<&Strategy::contraction, kContractions>("contraction"),
    ChoiceKey<&Strategy::lowering, kLowerings>("lowering"),
    ChoiceKey<&Strategy::pack, kPacks>("pack"),
    IntegerKey<&Strategy::pack_reads, 1, kMaxDepth>("pack-reads"),
    IntegerKey<&Strategy::pack_taps, 0, kMaxCache>("pack-taps"),
    IntegerKey<&Strategy::pack_whole, 0, kMaxCache>("pack-whole"),
    IntegerKey<&Strategy::window, 1, kMaxTile>("window"),
    IntegerKey<&Strategy::l2, 1, kMaxCache>("l2"),
    IntegerKey<&Strategy::l3, 1, kMaxCache>("l3"),
    IntegerKey<&Strategy::prefetch, 0, kMaxPrefetch>("prefetch"),
    IntegerKey<&Strategy::prefetch_copies, 0, kMaxPrefetch>("prefetch-copies"),
    IntegerKey<&Strategy::nontemporal, 0, kMaxCache>("nontemporal"),
    {"dot", ReadDot, PrintInteger<&Strategy::dot>},
};

const Key* KeyNamed(absl::string_view name) {
  for (const Key& key : kKeys) {
    if (key.name == name) return &key;
  }
  return nullptr;
}

}  // namespace

absl::StatusOr<Strategy> DefaultStrategy(absl::string_view target) {
  if (target == "avx512") {
    // 7 rows x 4 vectors of 16 lanes: 28 accumulators and 4 rows of B in
    // the 32 zmm registers, A broadcast from memory inside each FMA (6
    // rows ran 3 % slower on a 64^3 matmul and 6 % on a stride-2
    // convolution, as fast on larger matmuls; docs/vectorize.md). A panel
    // is packed where it is read 64 times (the default `pack_reads`): on
    // the AVX-512 machine of 2026-11-29 (L2 of 1 MiB), a 9 x 9 x 512
    // layer's filter, read 7 times, ran at 0.82-0.85x oneDNN packed and
    // 0.79-0.93x in place; at 28 reads 0.95-0.96x and 0.96-0.99x;
    // matmul's B, read by 85 tiles of rows at 512, as fast either way, by
    // 170 at 1024 2.5 % faster packed, by 341 at 2048 1.9x. On an AMD Zen
    // 4 core with AVX-512 (L2 of 1 MiB, 2026-12-01), AVX2's `pack_reads`
    // of 3 ran the 9 x 9 x 512 layer 20 % slower; AVX2's streaming writes
    // from 512 KiB ran depthwise layers of 784 KiB and 1.5 MiB 5-8 %
    // faster and its panel packed whole the 5 x 82 x 102 x 128 layer 2 %
    // (batch 1: 1.5 %); its taps packed by tiles of lanes (-3 to +3 %) and
    // its copies' prefetches (+0.5 %) measured no gain there
    // (docs/vectorize.md, "AVX-512 on 2026-12-01").
    return Strategy{.width = 16,
                    .vectors = 4,
                    .rows = 7,
                    .fit = true,
                    .pack_whole = int64_t{1} << 20,
                    .prefetch = 448,
                    .nontemporal = int64_t{512} << 10,
                    .dot = 4};
  }
  if (target == "avx2") {
    // 6 rows x 2 vectors of 8 lanes: 12 accumulators, 2 rows of B and a
    // broadcast of A in the 16 ymm registers. A panel read 3 times ran
    // faster packed on the AVX2 machine (an AMD Zen 3 core, L2 of 512 KiB
    // in 8 ways), read twice slower (docs/vectorize.md, step 6); a
    // depthwise layer's filter packed by tiles of lanes 0-7 % faster where
    // its taps lie 256 bytes apart or more, 1-2 % slower at 128
    // ("Convolutions"); a panel packed whole up to 1 MiB ran the 5 x 82 x
    // 102 x 128 layer 9-16 % faster, and copies that prefetch 16 rows
    // ahead the 9 x 9 x 512 layer 2-9 %, matmul 1-6 % at 512 and 2048,
    // -9 to +3 % at 1024 (docs/vectorize.md, step 6). Its L3,
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
                    .pack_whole = int64_t{1} << 20,
                    .l3 = int64_t{16} << 20,
                    .prefetch = 448,
                    .prefetch_copies = 16,
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
      auto n = IntegerIn(words[2], 1, kMaxDepth, key);
      if (!n.ok()) return LineError(path, line_number, n.status().message());
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
    const Key* known = KeyNamed(key);
    if (known == nullptr) {
      std::vector<absl::string_view> names;
      for (const Key& k : kKeys) names.push_back(k.name);
      return LineError(path, line_number,
                       absl::StrCat("unknown key '", key,
                                    "' (keys: ", absl::StrJoin(names, ", "),
                                    ", tile, interchange)"));
    }
    if (words.size() != 2) {
      return LineError(path, line_number,
                       "a line is 'KEY VALUE' (or a # comment)");
    }
    if (absl::Status read = known->read(key, words[1], strategy); !read.ok()) {
      return LineError(path, line_number, read.message());
    }
    if (key == "lowering") lowering_line = line_number;
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
  std::string text;
  for (const Key& key : kKeys) {
    absl::StrAppend(&text, key.name, " ", key.print(strategy), "\n");
  }
  for (const auto& [loop, size] : strategy.tiles) {
    absl::StrAppend(&text, "tile ", loop, " ", size, "\n");
  }
  if (!strategy.interchange.empty()) {
    absl::StrAppend(&text, "interchange ",
                    absl::StrJoin(strategy.interchange, " "), "\n");
  }
  return text;
}

}  // namespace tessel::vectorize
