#include "play/board_view.h"

#include <vector>

#include "core/rule_sets.h"

namespace ur::play {
namespace {

constexpr int kCellHeight = 3;  // 2 inside + 1 edge
// The trays' gap holds blank, start tray (7), blank, home tray (7), blank.
constexpr int kTrayWidth = 7;
constexpr int kTraysInside = 1 + kTrayWidth + 1 + kTrayWidth + 1;
// Brackets of the pointed-out last move: round its piece where it landed, and empty where
// it came from, so that it shows without colour.
constexpr std::string_view kLastLeft = "‹";
constexpr std::string_view kLastRight = "›";

// Screen row of a lane: dark's row C on top, the shared B in the middle, light's A below.
int row_of(Cell cell) {
  return 2 - cell.lane;
}

// Where the columns of the board fall, from its shape and the width it may take.
struct Layout {
  int x = 0;
  int y = 0;
  int inside = 7;          // the inside width of an ordinary cell
  std::vector<int> lefts;  // lefts[c - 1]: offset of tile column c's left edge; one more edge
  int gap_first = 0;       // the first tile column missing from the side rows (0: none)

  int left(int column) const { return x + lefts[column - 1]; }
  int right(int column) const { return x + lefts[column]; }
  int top(Cell cell) const { return y + row_of(cell) * kCellHeight; }
  int width() const { return lefts.back() + 1; }
  // Where a piece stands in its cell: the middle of the lower inside line.
  int centre(Cell cell) const { return left(cell.column) + (inside + 1) / 2; }
  int piece_line(Cell cell) const { return top(cell) + 2; }
};

// Cells 8 wide with an edge (7 inside) where they fit, narrower for a long board; the
// columns of the side rows' gap widen until both trays fit between the rows' ends.
Layout make_layout(const Rules& rules, int max_width, int x, int y) {
  const int columns = board_columns(rules.board);
  int gap_first = 0, gap_last = 0;
  for (int column = 1; column <= columns; ++column) {
    if (on_board(rules.board, Cell{0, static_cast<std::uint8_t>(column)})) {
      if (gap_first) break;
    } else {
      if (!gap_first) gap_first = column;
      gap_last = column;
    }
  }
  Layout layout;
  layout.x = x;
  layout.y = y;
  layout.gap_first = gap_first;
  for (int inside : {7, 6, 5, 4}) {
    std::vector<int> widths(static_cast<std::size_t>(columns), inside + 1);
    if (gap_first) {
      int short_by = kTraysInside + 1 - (gap_last - gap_first + 1) * (inside + 1);
      for (int column = gap_first; short_by > 0; --short_by) {
        ++widths[static_cast<std::size_t>(column - 1)];
        column = column == gap_last ? gap_first : column + 1;
      }
    }
    layout.inside = inside;
    layout.lefts.assign(1, 0);
    for (int width : widths) layout.lefts.push_back(layout.lefts.back() + width);
    if (layout.width() <= max_width) break;
  }
  return layout;
}

// `side`'s route squares on `cell`, in order (two where a path crosses itself).
std::vector<Square> squares_on(const Rules& rules, Side side, Cell cell) {
  std::vector<Square> squares;
  for (Square square = 1; square <= rules.route_length; ++square) {
    if (square_cell(rules, side, square) == cell) squares.push_back(square);
  }
  return squares;
}

// One side's squares on a tile: "7", or "7,21" where its path crosses the tile twice (the
// comma keeps apart from the "/" between the two sides' numbers).
std::string joined(const std::vector<Square>& squares) {
  std::string text;
  for (Square square : squares) {
    if (!text.empty()) text += ",";
    text += std::to_string(square);
  }
  return text;
}

// The viewer's numbers on the cell and the opponent's where they differ.
std::pair<std::string, std::string> label_parts(const Rules& rules, Cell cell, Side viewer) {
  const std::vector<Square> mine = squares_on(rules, viewer, cell);
  const std::vector<Square> theirs = squares_on(rules, opponent(viewer), cell);
  if (mine.empty()) return {joined(theirs), ""};
  if (theirs.empty() || theirs == mine) return {joined(mine), ""};
  return {joined(mine), joined(theirs)};
}

// The square of the piece on a tile its side's path crosses twice: which visit it is on, which
// the piece alone cannot show.
std::optional<Square> visit_of_piece(const Rules& rules, const Position& position, Cell cell) {
  for (Side side : {Side::Light, Side::Dark}) {
    const std::vector<Square> squares = squares_on(rules, side, cell);
    if (squares.size() < 2) continue;
    for (Square square : squares) {
      if (position.board_of(side) & square_bit(square)) return square;
    }
  }
  return std::nullopt;
}

void draw_frame(Canvas& canvas, const Layout& at, const Rules& rules, const Position& position,
                const BoardOptions& options) {
  const std::vector<Cell> cells = board_cells(rules.board);
  for (Cell cell : cells) {
    // Edges shared with a solid neighbour stay solid: solid segments win when merged.
    const bool dashed =
        options.route_numbers && !square_on_cell(rules, options.viewer, cell).has_value();
    const int x0 = at.left(cell.column), y0 = at.top(cell);
    const int x1 = at.right(cell.column);
    canvas.horizontal_line(x0, x1, y0, dashed, palette::kFrame);
    canvas.horizontal_line(x0, x1, y0 + kCellHeight, dashed, palette::kFrame);
    canvas.vertical_line(x0, y0, y0 + kCellHeight, dashed, palette::kFrame);
    canvas.vertical_line(x1, y0, y0 + kCellHeight, dashed, palette::kFrame);
  }
  canvas.commit_lines();
  for (Cell cell : cells) {
    const int x0 = at.left(cell.column), x1 = at.right(cell.column), y0 = at.top(cell);
    const bool rosette = is_rosette(rules.board, cell);
    if (rosette) canvas.put(x0 + 1, y0 + 1, "✿", palette::kRosette);
    if (!options.route_numbers) continue;
    const auto [mine, theirs] = label_parts(rules, cell, options.viewer);
    const int room = x1 - x0 - 1 - (rosette ? 2 : 0);
    std::string label = cell_label(rules, cell, options.viewer, position);
    if (text_width(label) > room) label = mine;  // the viewer's own numbers come first
    if (text_width(label) > room) continue;
    canvas.put(x1 - text_width(label), y0 + 1, label, palette::kNumber);
  }
}

// `marks` are the mover's (or none); `is_last` marks where the pointed-out move landed.
void draw_piece(Canvas& canvas, const Layout& at, Cell cell, Side side, const BoardMarks& marks,
                Square square, bool is_last) {
  Style style = piece_style(side);
  style.underline = is_last;
  const int centre = at.centre(cell), line = at.piece_line(cell);
  if (marks.selected == square) {
    style.reverse = true;
    // A narrow cell has no room for both brackets: the reversed glyph shows the choice.
    const bool wide = at.inside >= 5;
    canvas.put(centre - (wide ? 2 : 1), line, wide ? "»(" : "»", palette::kTarget);
    canvas.put(centre + 1, line, wide ? ")«" : "«", palette::kTarget);
  } else if (marks.movable & square_bit(square)) {
    canvas.put(centre - 1, line, "(", piece_style(side));
    canvas.put(centre + 1, line, ")", piece_style(side));
  } else if (is_last) {
    canvas.put(centre - 1, line, kLastLeft, piece_style(side));
    canvas.put(centre + 1, line, kLastRight, piece_style(side));
  }
  canvas.put(centre, line, piece_glyph(side), style);
}

// A tray: a rounded box 7 cells wide from (x, top), its label in the top edge.
void draw_tray(Canvas& canvas, int x, int top, std::string_view label, Side side, int count,
               std::string_view marker_left, std::string_view marker_right, Style marker_style) {
  std::string edge = "╭" + std::string(label);
  for (int filled = text_width(edge); filled < kTrayWidth - 1; ++filled) edge += "─";
  canvas.put(x, top, edge + "╮", palette::kTray);
  canvas.put(x, top + 1, "│", palette::kTray);
  canvas.put(x + kTrayWidth - 1, top + 1, "│", palette::kTray);
  canvas.put(x, top + 2, "╰─────╯", palette::kTray);
  Style glyph_style = piece_style(side);
  if (count == 0) glyph_style = palette::kTray;
  canvas.put(x + 1, top + 1, marker_left, marker_style);
  canvas.put(x + 2, top + 1, piece_glyph(side), glyph_style);
  canvas.put(x + 3, top + 1, marker_right, marker_style);
  canvas.put(x + 4, top + 1, "×" + std::to_string(count), glyph_style);
}

}  // namespace

std::string_view piece_glyph(Side side) {
  return side == Side::Light ? "○" : "●";
}

Style piece_style(Side side) {
  return side == Side::Light ? palette::kLight : palette::kDark;
}

int board_width(const Rules& rules, int max_width) {
  return make_layout(rules, max_width, 0, 0).width();
}

std::string cell_label(const Rules& rules, Cell cell, Side viewer) {
  const auto [mine, theirs] = label_parts(rules, cell, viewer);
  return theirs.empty() ? mine : mine + "/" + theirs;
}

std::string cell_label(const Rules& rules, Cell cell, Side viewer, const Position& position) {
  if (const std::optional<Square> visit = visit_of_piece(rules, position, cell)) {
    return std::to_string(*visit);
  }
  return cell_label(rules, cell, viewer);
}

void draw_board(Canvas& canvas, int x, int y, const Rules& rules, const Position& position,
                const BoardMarks& marks, const BoardOptions& options) {
  const Layout at = make_layout(rules, options.max_width, x, y);
  draw_frame(canvas, at, rules, position, options);
  const Side mover = marks.chooser.value_or(position.turn);
  // Both trays sit in the gap of the side rows, or right of the board if it has none.
  const int trays_x = at.gap_first ? at.left(at.gap_first) + 2 : at.x + at.width() + 1;

  for (Side side : {Side::Light, Side::Dark}) {
    const int tray_top = side == Side::Dark ? y : y + 2 * kCellHeight + 1;
    const BoardMarks none;
    const BoardMarks& own = side == mover ? marks : none;
    // Start tray: movable / selected markers for entering a new piece.
    std::string_view left = " ", right = " ";
    Style marker = piece_style(side);
    if (own.selected == 0) {
      left = "»";
      right = "«";
      marker = palette::kTarget;
    } else if (own.movable & square_bit(0)) {
      left = "(";
      right = ")";
    } else if (side == marks.last_side && marks.last_from == 0) {
      left = kLastLeft;
      right = kLastRight;
    }
    draw_tray(canvas, trays_x, tray_top, "start", side, position.start_of(side), left, right,
              marker);
    const bool home_target = own.target && *own.target >= rules.home_square();
    const bool home_last =
        side == marks.last_side && marks.last_to && *marks.last_to >= rules.home_square();
    draw_tray(canvas, trays_x + kTrayWidth + 1, tray_top, "home", side, position.home_of(side),
              home_target ? "["
              : home_last ? kLastLeft
                          : " ",
              home_target ? "]"
              : home_last ? kLastRight
                          : " ",
              home_target ? palette::kTarget : piece_style(side));

    SquareMask pieces = position.board_of(side);
    while (pieces) {
      const Square square = std::countr_zero(pieces);
      pieces &= pieces - 1;
      const bool is_last = marks.last_to == square && marks.last_side == side;
      draw_piece(canvas, at, square_cell(rules, side, square), side, own, square, is_last);
    }
  }

  // Where the pointed-out move came from, unless something stands there now.
  if (marks.last_from && *marks.last_from > 0 && *marks.last_from < rules.home_square()) {
    const Cell cell = square_cell(rules, marks.last_side, *marks.last_from);
    const int centre = at.centre(cell), line = at.piece_line(cell);
    if (canvas.glyph_at(centre, line) == " ") {
      canvas.put(centre - 1, line, kLastLeft, piece_style(marks.last_side));
      canvas.put(centre + 1, line, kLastRight, piece_style(marks.last_side));
    }
  }

  if (marks.target && *marks.target > 0 && *marks.target < rules.home_square()) {
    const Cell cell = square_cell(rules, mover, *marks.target);
    const int centre = at.centre(cell), line = at.piece_line(cell);
    canvas.put(centre - 1, line, "[", palette::kTarget);
    canvas.put(centre + 1, line, "]", palette::kTarget);
    const bool empty = canvas.glyph_at(centre, line) == " ";
    if (empty) canvas.put(centre, line, "◌", piece_style(mover));
  }
}

std::string board_text(const Rules& rules, const Position& position, const BoardMarks& marks,
                       const BoardOptions& options) {
  Canvas canvas(board_width(rules, options.max_width), kBoardHeight);
  draw_board(canvas, 0, 0, rules, position, marks, options);
  return canvas.text(false);
}

Square next_movable(const MoveList& legal, std::optional<Square> cursor, int step) {
  const int count = legal.size();
  int index = 0;
  for (int i = 0; i < count; ++i) {
    if (cursor == legal[i].from) index = i;
  }
  return legal[(index + step % count + count) % count].from;
}

std::string typed_with(const std::string& typed, char digit, const Rules& rules) {
  std::string longer = typed;
  longer += digit;
  if (typed == "0" || std::stoi(longer) > rules.route_length) return std::string(1, digit);
  return longer;
}

bool typed_waits(const std::string& typed, const Rules& rules, const MoveList& legal) {
  if (typed.empty() || typed == "0") return false;
  const int square = std::stoi(typed);
  return find_move(legal, square) == nullptr && square * 10 <= rules.route_length;
}

std::string typed_waiting_text(const std::string& typed) {
  std::string text = "typed ";
  text.append(typed).append("…   the next digit, or Enter for square ").append(typed);
  return text;
}

}  // namespace ur::play
