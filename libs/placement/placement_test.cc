#include "libs/placement/placement.h"

#include "gtest/gtest.h"
#include "libs/poly/poly.h"

namespace tessel::placement {
namespace {

// The fully connected layer of the paper's listing 1 (M = 32, N = 16) on
// the placement of listing 2, x arriving from the north of PE (0, 0) and y
// leaving east of the rectangle (section 4.1.2).
constexpr char kListing2[] =
    "# fully connected\n"
    "grid { PE[4, 5] }\n"
    "place { ff[i, j] -> PE[j//4, 1 + i//8] }  # listing 2\n"
    "in x stream sparse { x[i] -> [PE[0, -1] -> index[i]] }\n"
    "in W resident {\n"
    "  W[i, j] -> PE[j//4, 1 + i//8]  # where ff reads it\n"
    "}\n"
    "out y stream { y[i] -> [PE[4, 1 + i//8] -> index[i mod 8]] }\n";

class PlacementTest : public ::testing::Test {
 protected:
  isl::ctx ctx() { return isl::ctx(context_.get()); }

  absl::StatusOr<Placement> Read(const std::string& text) {
    return ReadPlacement(ctx(), MakeSource("p.place", text));
  }

  // The first line of the diagnostic of reading `text`, or of checking it
  // against the fully connected layer.
  std::string Error(const std::string& text) {
    auto placement = Read(text);
    absl::Status status =
        placement.ok() ? Check(*placement) : placement.status();
    EXPECT_FALSE(status.ok()) << text;
    std::string message(status.message());
    return message.substr(0, message.find('\n'));
  }

  absl::Status Check(const Placement& placement) {
    std::vector<KernelStatement> statements = {
        {"ff", isl::set(ctx(), "{ ff[i, j] : 0 <= i < 32 and 0 <= j < 16 }")}};
    std::vector<KernelTensor> tensors = {
        {"W", true,
         isl::set(ctx(), "{ W[i, j] : 0 <= i < 32 and 0 <= j < 16 }")},
        {"x", true, isl::set(ctx(), "{ x[i] : 0 <= i < 16 }")},
        {"y", false, isl::set(ctx(), "{ y[i] : 0 <= i < 32 }")}};
    return CheckPlacement(placement, statements, tensors);
  }

  // Each case's placement fails with the diagnostic the case gives.
  struct Case {
    std::string placement;
    std::string error;
  };
  void ExpectErrors(const std::vector<Case>& cases) {
    for (const Case& c : cases) {
      SCOPED_TRACE(c.placement);
      EXPECT_EQ(Error(c.placement), c.error);
    }
  }

  // kListing2 with its line `line` (1-based) replaced by `text`.
  static std::string With(int line, const std::string& text) {
    std::string out;
    int at = 1;
    size_t start = 0;
    std::string listing = kListing2;
    while (start < listing.size()) {
      size_t end = listing.find('\n', start);
      if (at != line) out += listing.substr(start, end - start);
      if (at == line) out += text;
      out += '\n';
      start = end + 1;
      ++at;
    }
    return out;
  }

 private:
  poly::Context context_;
};

TEST_F(PlacementTest, ReadsListing2) {
  auto placement = Read(kListing2);
  ASSERT_TRUE(placement.ok()) << placement.status();
  EXPECT_EQ(placement->nx, 4);
  EXPECT_EQ(placement->ny, 5);
  EXPECT_EQ(placement->place_loc.line, 3);
  ASSERT_EQ(placement->inputs.size(), 2u);
  const TensorClause* x = placement->Input("x");
  ASSERT_NE(x, nullptr);
  EXPECT_TRUE(x->stream());
  EXPECT_TRUE(x->sparse);
  EXPECT_EQ(x->map_loc.line, 4);
  EXPECT_EQ(x->map_loc.col, 20);
  const TensorClause* w = placement->Input("W");
  ASSERT_NE(w, nullptr);
  EXPECT_FALSE(w->stream());
  EXPECT_TRUE(
      w->map.is_equal(isl::map(ctx(), "{ W[i, j] -> PE[j//4, 1 + i//8] }")));
  ASSERT_NE(placement->Output("y"), nullptr);
  EXPECT_EQ(placement->Output("x"), nullptr);
  EXPECT_TRUE(placement->Grid().is_equal(isl::set(ctx(), "{ PE[0:3, 0:4] }")));
  EXPECT_TRUE(placement->Border().is_equal(
      isl::set(ctx(), "{ PE[-1, 0:4]; PE[4, 0:4]; PE[0:3, -1]; PE[0:3, 5] }")));
  EXPECT_TRUE(Check(*placement).ok()) << Check(*placement);
}

TEST_F(PlacementTest, ReportsSyntaxErrors) {
  ExpectErrors({
      {"grid { PE[4, 5] }\nplace { ff[i, j] -> PE[j//4, 1 + i//] }",
       "p.place:2:7: error: isl cannot read this map: syntax error"},
      {"grid { PE[4, 5] } place { }",
       "p.place:1:19: error: expected the end of the line after the "
       "clause's '}'; write one clause per line"},
      {"grid { PE[4, 5]\nplace { }",
       "p.place:1:6: error: this '{' is not closed before the '{' at "
       "2:7; a clause's map ends with '}'"},
      {"grid { PE[4, 5]",
       "p.place:1:6: error: this '{' is not closed; a clause's map ends "
       "with '}'"},
      {"grid\n{ PE[4, 5] }",
       "p.place:1:5: error: expected '{' and the clause's isl map on the "
       "same line"},
      {"route { }",
       "p.place:1:1: error: expected a clause: 'grid', 'place', 'in' or "
       "'out' and its map in braces"},
      {With(4, "in x stream { x[i] -> [PE[0, -1] -> index[i]] }"),
       "p.place:4:13: error: expected 'dense' or 'sparse' after 'stream'"},
      {With(4, "in x { x[i] -> [PE[0, -1] -> index[i]] }"),
       "p.place:4:6: error: expected 'stream' or 'resident' after 'in x'"},
      {With(2, "grid { PE[4, 0] }"),
       "p.place:2:6: error: the grid is one PE[NX, NY], the number of "
       "PEs along X and along Y, both positive: { PE[4, 5] }"},
      {With(2, "grid { PE[4, 5]; PE[3, 3] }"),
       "p.place:2:6: error: the grid is one PE[NX, NY], the number of "
       "PEs along X and along Y, both positive: { PE[4, 5] }"},
      {With(2, "grid { PE[4, 5] }\ngrid { PE[4, 5] }"),
       "p.place:3:1: error: a second 'grid' clause (the first is at 2:1)"},
      {With(4, "in W resident { W[i, j] -> PE[0, 0] }"),
       "p.place:5:1: error: a second 'in W' clause (the first is at 4:1)"},
      {With(3, "place { ff[i, j] -> PE[j, i, 0] }"),
       "p.place:3:7: error: 'ff[i, j] -> PE[o0, o1, o2]' does not map "
       "statement instances to PE[x, y]"},
      // isl reads a name it does not know in a range as any value.
      {With(3, "place { ff[i, j] -> PE[0, N] }"),
       "p.place:3:1: error: ff[0, 0] is placed on PE[0, 0] and on "
       "PE[0, -1]: each instance runs on one PE"},
      {With(3, "place { ff[i, j] -> PE[0, 0] : 0 <= 2 * }"),
       "p.place:3:7: error: isl cannot read this map: syntax error"},
      {With(4, "in x stream dense { x[i] -> PE[0, -1] }"),
       "p.place:4:19: error: the map of 'in x' must relate x[...] to "
       "[PE[x, y] -> index[...]], the adjacent PE and the index values"},
      {With(4,
            "in x stream dense { W[i] -> [PE[0, -1] -> "
            "index[i]] }"),
       "p.place:4:19: error: the map of 'in x' must relate x[...] to "
       "[PE[x, y] -> index[...]], the adjacent PE and the index values"},
      {"grid { PE[4, 5] }\n",
       "p.place:2:1: error: the placement has no 'place { ... }' clause"},
  });
}

TEST_F(PlacementTest, ReportsInconsistentPlacements) {
  ExpectErrors({
      {With(3, "place { ff[i, j] -> PE[j//4, 1 + i//8] : i < 31 }"),
       "p.place:3:1: error: ff[31, 0] is not placed: no PE runs it"},
      {With(3,
            "place { ff[i, j] -> PE[j//4, 1 + i//8]; "
            "ff[i, j] -> PE[j//4, 0] : i = 5 }"),
       "p.place:3:1: error: ff[5, 0] is placed on PE[0, 0] and on "
       "PE[0, 1]: each instance runs on one PE"},
      {With(3, "place { ff[i, j] -> PE[j//4, i//8 + 2] }"),
       "p.place:3:1: error: ff[24, 0] is placed on PE[0, 5], outside the "
       "grid PE[0:3, 0:4]"},
      {With(3,
            "place { ff[i, j] -> PE[j//4, 1 + i//8]; "
            "fg[i] -> PE[0, 0] }"),
       "p.place:3:1: error: the kernel has no statement 'fg[i]' (its "
       "statements: ff[i, j])"},
      {With(4,
            "in x stream sparse { x[i] -> [PE[1, 1] -> "
            "index[i]] }"),
       "p.place:4:20: error: x[0] arrives from PE[1, 1], which is not "
       "next to the grid PE[0:3, 0:4]"},
      {With(4,
            "in x stream sparse { x[i] -> [PE[-1, -1] -> "
            "index[i]] }"),
       "p.place:4:20: error: x[0] arrives from PE[-1, -1], which is not "
       "next to the grid PE[0:3, 0:4]"},
      {With(4,
            "in x stream sparse { x[i] -> [PE[0, -1] -> "
            "index[i mod 8]] }"),
       "p.place:4:20: error: x[0] and x[8] both arrive as [PE[0, -1] -> "
       "index[0]]: the index values of elements sent through one PE "
       "differ"},
      {With(4,
            "in x stream sparse { x[i] -> [PE[0, -1] -> "
            "index[i]] : i < 15 }"),
       "p.place:4:20: error: x[15] never arrives"},
      {With(4,
            "in q stream sparse { q[i] -> [PE[0, -1] -> "
            "index[i]] }"),
       "p.place:4:1: error: 'q' is not an input of the kernel (inputs: "
       "W, x)"},
      {With(4,
            "in x stream sparse { x[i, j] -> [PE[0, -1] -> "
            "index[i]] }"),
       "p.place:4:20: error: 'x' has 1 dimensions, not 2"},
      {With(4, ""),
       "p.place:9:1: error: the placement says nothing of input 'x': add "
       "'in x stream ...' or 'in x resident ...'"},
      {With(6, "  W[i, j] -> PE[j//4, 1 + i//8] : j > 0"),
       "p.place:5:15: error: W[0, 0] is held by no PE"},
      {With(6, "  W[i, j] -> PE[j, i]"),
       "p.place:5:15: error: W[0, 4] is held by PE[4, 0], outside the "
       "grid PE[0:3, 0:4]"},
      {With(8,
            "out y resident { y[i] -> PE[x, 1 + i//8] : "
            "0 <= x < 2 }"),
       "p.place:8:16: error: y[0] is kept by PE[0, 1] and is kept by "
       "PE[1, 1]: an output element is produced on one PE"},
      {With(8,
            "out y stream { y[i] -> [PE[4, 1 + i//8] -> "
            "index[i mod 8]]; y[i] -> [PE[4, 0] -> index[i]] : "
            "i < 2 }"),
       "p.place:8:14: error: y[0] leaves as [PE[4, 0] -> index[0]] and "
       "leaves as [PE[4, 1] -> index[0]]: an output element is produced "
       "on one PE"},
  });
}

}  // namespace
}  // namespace tessel::placement
