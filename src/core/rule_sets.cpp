#include "core/rule_sets.h"

#include <array>
#include <cctype>

namespace ur {
namespace {

constexpr RuleSpec kFinkel{};

constexpr RuleSpec masters_spec() {
  RuleSpec spec;
  spec.path = PathKind::Masters;
  spec.dice = 3;
  spec.zero_counts_as_max = true;
  spec.safe_rosettes = false;
  return spec;
}

constexpr RuleSpec blitz_spec() {
  RuleSpec spec;
  spec.path = PathKind::Masters;
  spec.pieces = 5;
  spec.safe_rosettes = false;
  spec.capture_gives_extra_throw = true;
  return spec;
}

constexpr RuleSpec aseb_spec() {
  RuleSpec spec;
  spec.board = BoardShape::Aseb;
  spec.path = PathKind::Aseb;
  spec.pieces = 5;
  return spec;
}

constexpr std::array<NamedRuleSet, 4> kNamed{{
    {"finkel", "Finkel",
     "Irving Finkel's rules: 7 pieces, four dice, a 14-square path, the central rosette safe.",
     kFinkel},
    {"masters", "Masters",
     "James Masters' rules: 7 pieces, three dice where 0 moves 4, a 16-square path through the "
     "far end of the opponent's row, no safe rosettes.",
     masters_spec()},
    {"blitz", "Blitz",
     "A fast game: 5 pieces on the Masters path, four dice, no safe rosettes, and a capture "
     "throws again.",
     blitz_spec()},
    {"aseb", "Aseb",
     "The Aseb board: 5 pieces race down a 12-square shared lane with three safe rosettes.",
     aseb_spec()},
}};

bool same_layout(RuleSpec a, RuleSpec b) {
  a.pieces = b.pieces;
  a.bear_off = b.bear_off;
  return a == b;
}

std::string lower(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string dice_words(const Rules& rules) {
  static constexpr std::array<std::string_view, 7> kCount{"no",   "one",  "two", "three",
                                                          "four", "five", "six"};
  std::string words = std::string(kCount[rules.dice]) + (rules.dice == 1 ? " die" : " dice");
  words += rules.zero_counts_as_max ? ", a 0 moving " + std::to_string(rules.max_roll())
                                    : ", a 0 passing";
  return words;
}

}  // namespace

std::span<const NamedRuleSet> named_rule_sets() {
  return kNamed;
}

const NamedRuleSet* find_rule_set(std::string_view name) {
  const std::string wanted = lower(name);
  for (const NamedRuleSet& set : kNamed) {
    if (set.name == wanted) return &set;
  }
  return nullptr;
}

Rules named_rules(std::string_view name, int pieces) {
  RuleSpec spec = find_rule_set(name)->spec;
  spec.pieces = pieces;
  return Rules(spec);
}

std::string known_rule_set_names() {
  std::string names;
  for (const NamedRuleSet& set : kNamed) {
    if (!names.empty()) names += ", ";
    names += set.name;
  }
  return names;
}

std::string_view rule_set_name(const Rules& rules) {
  for (const NamedRuleSet& set : kNamed) {
    if (same_layout(set.spec, rules.spec())) return set.name;
  }
  return "custom";
}

namespace {

// "Custom (masters path, 4 dice, 0 passes, safe rosettes)": the path and dice, then each column
// that differs from the first named set on that path (Finkel's for a path no set uses), so that
// two different custom sets never share a title.
std::string custom_title(const Rules& rules) {
  RuleSpec base = kFinkel;
  for (const NamedRuleSet& set : kNamed) {
    if (set.spec.path == rules.path) {
      base = set.spec;
      break;
    }
  }
  std::string title = "Custom (" + std::string(path_name(rules.path)) + " path, " +
                      std::to_string(rules.dice) + (rules.dice == 1 ? " die" : " dice");
  if (rules.board != base.board) title += ", " + std::string(board_name(rules.board)) + " board";
  if (rules.zero_counts_as_max != base.zero_counts_as_max) {
    title += rules.zero_counts_as_max ? ", 0 is max" : ", 0 passes";
  }
  if (rules.safe_rosettes != base.safe_rosettes) {
    title += rules.safe_rosettes ? ", safe rosettes" : ", rosettes not safe";
  }
  if (rules.rosette_gives_extra_throw != base.rosette_gives_extra_throw) {
    title += rules.rosette_gives_extra_throw ? ", rosettes throw again"
                                             : ", no throw again on a rosette";
  }
  if (rules.capture_gives_extra_throw != base.capture_gives_extra_throw) {
    title += rules.capture_gives_extra_throw ? ", captures throw again"
                                             : ", no throw again on a capture";
  }
  return title + ")";
}

}  // namespace

std::string rule_set_title(const Rules& rules) {
  const std::string_view name = rule_set_name(rules);
  const NamedRuleSet* set = find_rule_set(name);
  std::string title = set ? std::string(set->title) : custom_title(rules);
  if (!set || set->spec.pieces != rules.pieces) {
    title += ", " + std::to_string(rules.pieces) + (rules.pieces == 1 ? " piece" : " pieces");
  }
  if (rules.bear_off == BearOff::Any) title += ", any throw bears off";
  return title;
}

std::optional<std::string> why_unplayable(const RuleSpec& spec) {
  if (spec.pieces < Rules::kMinPieces || spec.pieces > Rules::kMaxPieces) {
    return "pieces must be 1 to 7, got " + std::to_string(spec.pieces);
  }
  if (spec.dice < 1 || spec.dice > RuleSpec::kMaxDice) {
    return "dice must be 1 to " + std::to_string(RuleSpec::kMaxDice) +
           " (with no dice no piece can ever move), got " + std::to_string(spec.dice);
  }
  if (spec.board > BoardShape::Aseb) return std::string("unknown board shape");
  if (spec.path > PathKind::Skiriuk) return std::string("unknown path");
  const PathCells path = path_cells(spec.path);
  for (int i = 0; i < path.length; ++i) {
    for (Cell cell : {path.cells[i], mirrored(path.cells[i])}) {
      if (!on_board(spec.board, cell)) {
        return "the " + std::string(path_name(spec.path)) + " path leaves the " +
               std::string(board_name(spec.board)) + " board at " + tile_name(cell);
      }
    }
  }
  return std::nullopt;
}

std::string_view board_name(BoardShape board) {
  return board == BoardShape::Aseb ? "aseb" : "standard";
}

std::string_view path_name(PathKind path) {
  switch (path) {
    case PathKind::Finkel:
      return "finkel";
    case PathKind::Masters:
      return "masters";
    case PathKind::Aseb:
      return "aseb";
    case PathKind::Murray:
      return "murray";
    case PathKind::Skiriuk:
      return "skiriuk";
  }
  return "finkel";
}

std::optional<BoardShape> board_from_name(std::string_view name) {
  const std::string wanted = lower(name);
  if (wanted == "standard") return BoardShape::Standard;
  if (wanted == "aseb") return BoardShape::Aseb;
  return std::nullopt;
}

std::optional<PathKind> path_from_name(std::string_view name) {
  const std::string wanted = lower(name);
  if (wanted == "bell") return PathKind::Finkel;  // RoyalUr-Java's name for Finkel's path
  for (PathKind path :
       {PathKind::Finkel, PathKind::Masters, PathKind::Aseb, PathKind::Murray, PathKind::Skiriuk}) {
    if (path_name(path) == wanted) return path;
  }
  return std::nullopt;
}

std::string_view zero_roll_name(bool zero_counts_as_max) {
  return zero_counts_as_max ? "max" : "pass";
}

int board_columns(BoardShape board) {
  return board == BoardShape::Aseb ? 12 : 8;
}

std::vector<Cell> board_cells(BoardShape board) {
  std::vector<Cell> cells;
  for (int lane = 0; lane < 3; ++lane) {
    for (int column = 1; column <= board_columns(board); ++column) {
      const Cell cell{static_cast<std::uint8_t>(lane), static_cast<std::uint8_t>(column)};
      if (on_board(board, cell)) cells.push_back(cell);
    }
  }
  return cells;
}

Cell square_cell(const Rules& rules, Side side, Square square) {
  const Cell cell = path_cells(rules.path).cells[square - 1];
  return side == Side::Light ? cell : mirrored(cell);
}

std::optional<Square> square_on_cell(const Rules& rules, Side side, Cell cell) {
  for (Square square = 1; square <= rules.route_length; ++square) {
    if (square_cell(rules, side, square) == cell) return square;
  }
  return std::nullopt;
}

std::string tile_name(Cell cell) {
  // Appended piece by piece: GCC 12 warns falsely (-Wrestrict) on the inlined concatenation.
  std::string name(1, static_cast<char>('A' + cell.lane));
  name += std::to_string(cell.column);
  return name;
}

namespace {

// The tiles both sides' paths visit.
int count_shared_tiles(const Rules& rules) {
  int shared = 0;
  for (Cell cell : board_cells(rules.board)) {
    if (square_on_cell(rules, Side::Light, cell) && square_on_cell(rules, Side::Dark, cell)) {
      ++shared;
    }
  }
  return shared;
}

}  // namespace

std::vector<std::string> rules_prose(const Rules& rules, std::string_view light,
                                     std::string_view dark) {
  const Cell entry = square_cell(rules, Side::Light, 1);
  const Cell last = square_cell(rules, Side::Light, rules.route_length);
  std::vector<std::string> prose;
  prose.push_back("Each side has " + std::to_string(rules.pieces) +
                  (rules.pieces == 1 ? " piece" : " pieces") +
                  ". The first to bring them all along the path and off the board wins.");
  prose.push_back("A turn starts with a throw of " + dice_words(rules) +
                  ": a piece moves as many squares as the marked dice show.");
  std::string path = "Each path is ";
  path += std::to_string(rules.route_length);
  path += " squares long: ";
  path += light;
  path += " enters at ";
  path += tile_name(entry);
  path += " and leaves after ";
  path += tile_name(last);
  path += "; ";
  path += dark;
  path += " mirrors it on the other side. ";
  if (rules.self_crossing) {
    // Counted in squares, a crossing path's shared part would exceed the board's tiles.
    const int shared = count_shared_tiles(rules);
    const int tiles = static_cast<int>(board_cells(rules.board).size());
    if (shared == tiles) {
      path += "All ";
    } else {
      path += std::to_string(shared);
      path += " of the ";
    }
    path += std::to_string(tiles);
    path += " tiles are shared, where pieces can capture each other; each path crosses ";
    path += std::to_string(count_squares(rules.self_crossing) / 2);
    path += " of them twice.";
  } else {
    path += std::to_string(count_squares(rules.shared)) +
            " squares are shared, where pieces can capture each other.";
  }
  prose.push_back(path);
  prose.push_back(
      "Landing on an opponent's piece on a shared square sends it back to the start." +
      std::string(rules.capture_gives_extra_throw ? " A capture earns another throw." : ""));
  std::string rosettes = "Rosettes ";
  rosettes += rules.rosette_gives_extra_throw ? "give another throw" : "give no extra throw";
  rosettes += rules.safe_rosettes ? ", and a piece on a shared rosette cannot be captured."
                                  : "; they are not safe: a piece on one can be captured.";
  prose.push_back(rosettes);
  prose.push_back("No square holds two pieces of one side. Pieces jump over others.");
  prose.push_back(rules.bear_off == BearOff::Exact
                      ? "Bearing off needs the exact throw to step just past the last square."
                      : "Any throw that reaches or passes the end bears a piece off.");
  prose.push_back("If no piece can move, the turn passes.");
  return prose;
}

}  // namespace ur
