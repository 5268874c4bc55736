// The placement file's syntax: clauses of words and one isl text in braces
// (formats/placement/README.md), and the checks of each clause on its own.
#include <optional>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "isl/ctx.h"
#include "isl/map.h"
#include "isl/set.h"
#include "isl/union_map.h"
#include "libs/placement/placement.h"
#include "libs/placement/spaces.h"
#include "libs/poly/model.h"

namespace tessel::placement {
namespace {

bool IsNameStart(char c) { return absl::ascii_isalpha(c) || c == '_'; }
bool IsNameChar(char c) { return absl::ascii_isalnum(c) || c == '_'; }

class Reader {
 public:
  Reader(isl::ctx ctx, SourceRef source)
      : ctx_(ctx), source_(std::move(source)), text_(source_->text()) {}

  absl::StatusOr<Placement> Run() {
    placement_.source = source_;
    while (SkipBlankLines()) {
      if (auto status = Clause(); !status.ok()) return status;
    }
    if (!placement_.grid_loc.known()) {
      return ErrorAt(End(), "the placement has no 'grid { PE[NX, NY] }' clause");
    }
    if (!placement_.place_loc.known()) {
      return ErrorAt(End(), "the placement has no 'place { ... }' clause");
    }
    return std::move(placement_);
  }

 private:
  Location At(size_t offset) const {
    auto [line, col] = source_->LineColumn(static_cast<uint32_t>(offset));
    return Location{source_, line, col};
  }
  Location End() const { return At(text_.size()); }

  // Skips blanks, newlines and comments; false at the end of the text.
  bool SkipBlankLines() {
    while (pos_ < text_.size()) {
      char c = text_[pos_];
      if (c == '#') {
        while (pos_ < text_.size() && text_[pos_] != '\n') ++pos_;
      } else if (absl::ascii_isspace(c)) {
        ++pos_;
      } else {
        return true;
      }
    }
    return false;
  }
  // Skips blanks within the line.
  void SkipBlanks() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' ||
                                   text_[pos_] == '\r')) {
      ++pos_;
    }
  }

  // The next word of the clause's first line, or nullopt (pos_ unchanged).
  std::optional<std::string> Word() {
    SkipBlanks();
    if (pos_ >= text_.size() || !IsNameStart(text_[pos_])) return std::nullopt;
    size_t start = pos_;
    while (pos_ < text_.size() && IsNameChar(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  absl::Status ExpectedHere(absl::string_view what) {
    SkipBlanks();
    return ErrorAt(At(pos_), absl::StrCat("expected ", what));
  }

  // The isl text from '{' to its '}' (comments blanked), and that nothing
  // but a comment follows it on its line.
  absl::StatusOr<std::string> Braced(Location& open) {
    SkipBlanks();
    if (pos_ >= text_.size() || text_[pos_] != '{') {
      return ExpectedHere("'{' and the clause's isl map on the same line");
    }
    open = At(pos_);
    std::string isl;
    size_t close = pos_;
    for (; close < text_.size() && text_[close] != '}'; ++close) {
      if (text_[close] == '{' && close != pos_) {
        return ErrorAt(open, absl::StrCat("this '{' is not closed before the "
                                          "'{' at ",
                                          At(close).line, ":", At(close).col,
                                          "; a clause's map ends with '}'"));
      }
      if (text_[close] != '#') {
        isl += text_[close];
        continue;
      }
      while (close < text_.size() && text_[close] != '\n') ++close;
      isl += '\n';
    }
    if (close >= text_.size()) {
      return ErrorAt(open,
                     "this '{' is not closed; a clause's map ends with '}'");
    }
    isl += '}';
    pos_ = close + 1;
    SkipBlanks();
    if (pos_ < text_.size() && text_[pos_] != '\n' && text_[pos_] != '#') {
      return ErrorAt(At(pos_),
                     "expected the end of the line after the clause's '}'; "
                     "write one clause per line");
    }
    return isl;
  }

  absl::Status Clause() {
    Location loc = At(pos_);
    std::optional<std::string> word = Word();
    if (word == "grid") return Grid(loc);
    if (word == "place") return Place(loc);
    if (word == "in" || word == "out") return Tensor(loc, *word == "in");
    return ErrorAt(loc,
                   "expected a clause: 'grid', 'place', 'in' or 'out' and "
                   "its map in braces");
  }

  absl::Status Once(const Location& earlier, const Location& loc,
                    absl::string_view what) {
    if (!earlier.known()) return absl::OkStatus();
    return ErrorAt(loc, absl::StrCat("a second '", what,
                                     "' clause (the first is at ",
                                     earlier.line, ":", earlier.col, ")"));
  }

  // isl's reading of `text`, or its error at `open`.
  template <typename T, typename Read>
  absl::StatusOr<T> ReadIsl(const std::string& text, const Location& open,
                            Read read) {
    isl_ctx_reset_error(ctx_.get());
    auto* object = read(ctx_.get(), text.c_str());
    if (object != nullptr) return isl::manage(object);
    const char* message = isl_ctx_last_error_msg(ctx_.get());
    isl_ctx_reset_error(ctx_.get());
    return ErrorAt(open, absl::StrCat("isl cannot read this map: ",
                                      message != nullptr ? message : "error"));
  }

  // The map of the clause `what` at `loc`, given at most once (`earlier`
  // is where it was first given), and where its '{' is.
  absl::StatusOr<std::string> OnceBraced(const Location& earlier,
                                         const Location& loc,
                                         absl::string_view what,
                                         Location& open) {
    if (auto status = Once(earlier, loc, what); !status.ok()) return status;
    return Braced(open);
  }

  absl::Status Grid(const Location& loc) {
    Location open;
    auto text = OnceBraced(placement_.grid_loc, loc, "grid", open);
    if (!text.ok()) return text.status();
    auto set = ReadIsl<isl::set>(*text, open, isl_set_read_from_str);
    if (!set.ok()) return set.status();
    std::optional<std::pair<int64_t, int64_t>> size = GridSize(*set);
    if (!size) {
      return ErrorAt(open,
                     "the grid is one PE[NX, NY], the number of PEs along X "
                     "and along Y, both positive: { PE[4, 5] }");
    }
    placement_.grid_loc = loc;
    placement_.nx = size->first;
    placement_.ny = size->second;
    return absl::OkStatus();
  }

  absl::Status Place(const Location& loc) {
    Location open;
    auto text = OnceBraced(placement_.place_loc, loc, "place", open);
    if (!text.ok()) return text.status();
    auto map =
        ReadIsl<isl::union_map>(*text, open, isl_union_map_read_from_str);
    if (!map.ok()) return map.status();
    std::string bad;
    map->foreach_map([&](isl::map piece) {
      if (bad.empty() && !IsPe(piece.range())) {
        bad = SpaceText(piece.space());
      }
    });
    if (!bad.empty()) {
      return ErrorAt(open, absl::StrCat("'", bad,
                                        "' does not map statement instances "
                                        "to PE[x, y]"));
    }
    placement_.place_loc = loc;
    placement_.place = *std::move(map);
    return absl::OkStatus();
  }

  absl::Status Tensor(const Location& loc, bool input) {
    TensorClause clause;
    clause.loc = loc;
    const char* direction = input ? "in" : "out";
    std::optional<std::string> name = Word();
    if (!name) return ExpectedHere(absl::StrCat("a tensor after '", direction,
                                                "'"));
    clause.tensor = *name;
    std::optional<std::string> kind = Word();
    if (kind == "resident") {
      clause.kind = TensorClause::Kind::kResident;
    } else if (kind == "stream") {
      if (input) {
        std::optional<std::string> density = Word();
        if (density != "dense" && density != "sparse") {
          return ExpectedHere("'dense' or 'sparse' after 'stream'");
        }
        clause.sparse = density == "sparse";
      }
    } else {
      return ExpectedHere(absl::StrCat("'stream' or 'resident' after '",
                                       direction, " ", clause.tensor, "'"));
    }
    const std::vector<TensorClause>& earlier =
        input ? placement_.inputs : placement_.outputs;
    for (const TensorClause& other : earlier) {
      if (other.tensor != clause.tensor) continue;
      return Once(other.loc, loc, absl::StrCat(direction, " ", clause.tensor));
    }
    auto text = Braced(clause.map_loc);
    if (!text.ok()) return text.status();
    auto map = ReadIsl<isl::union_map>(*text, clause.map_loc,
                                       isl_union_map_read_from_str);
    if (!map.ok()) return map.status();
    std::optional<isl::map> one = OneMap(*map);
    bool fits = one && one->has_domain_tuple_id() &&
                one->domain_tuple_id().name() == clause.tensor &&
                (clause.stream() ? IsStreamRange(one->range())
                                 : IsPe(one->range()));
    if (!fits) {
      return ErrorAt(
          clause.map_loc,
          absl::StrCat(
              "the map of '", direction, " ", clause.tensor, "' must relate ",
              clause.tensor, "[...] to ",
              clause.stream() ? "[PE[x, y] -> index[...]], the adjacent PE "
                                "and the index values"
                              : "PE[x, y], the PEs that hold it"));
    }
    clause.map = *std::move(one);
    (input ? placement_.inputs : placement_.outputs)
        .push_back(std::move(clause));
    return absl::OkStatus();
  }

  isl::ctx ctx_;
  SourceRef source_;
  const std::string& text_;
  size_t pos_ = 0;
  Placement placement_;
};

}  // namespace

absl::StatusOr<Placement> ReadPlacement(isl::ctx ctx, const SourceRef& source) {
  return poly::Ask<Placement>(ctx, [&]() { return Reader(ctx, source).Run(); });
}

}  // namespace tessel::placement
