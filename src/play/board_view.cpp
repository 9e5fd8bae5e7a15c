#include "play/board_view.h"

#include <array>

namespace ur::play {
namespace {

constexpr int kColumns = 8;
constexpr int kCellHeight = 3;  // 2 inside + 1 edge
constexpr int kStartColumn = 4;
constexpr int kHomeColumn = 5;
// Brackets of the pointed-out last move: round its piece where it landed, and empty where
// it came from, so that it shows without colour.
constexpr std::string_view kLastLeft = "‹";
constexpr std::string_view kLastRight = "›";
// Cell widths including one edge: 7 inside, 8 for the bridge columns so that the trays in
// the gaps beside the bridge have a blank margin around them.
constexpr std::array<int, kColumns + 1> kColumnLeft = {0, 8, 16, 24, 32, 41, 50, 58, 66};
static_assert(kColumnLeft[kColumns] + 1 == kBoardWidth);

struct Cell {
  int row;  // 0 top (dark's row), 1 middle (shared), 2 bottom (light's row)
  int column;
};

int own_row(Side side) {
  return side == Side::Dark ? 0 : 2;
}

// Where route square `square` (1..14) of `side` lies on the lattice (rules.md, "Route").
Cell cell_of(const Rules& rules, Side side, Square square) {
  if (rules.shared & square_bit(square)) return {1, square - 5};
  if (square <= 4) return {own_row(side), 4 - square};
  return {own_row(side), square == 13 ? 7 : 6};
}

bool is_square(int row, int column) {
  return row == 1 || (column != kStartColumn && column != kHomeColumn);
}

// The route square of the cell in its owner's numbering (the middle row is shared).
Square square_at(const Rules& rules, int row, int column) {
  const Side owner = row == 0 ? Side::Dark : Side::Light;
  for (Square square = 1; square <= rules.route_length; ++square) {
    const Cell cell = cell_of(rules, owner, square);
    if (cell.row == row && cell.column == column) return square;
  }
  return 0;
}

struct Layout {
  int x;
  int y;
  int left(int column) const { return x + kColumnLeft[column]; }
  int right(int column) const { return x + kColumnLeft[column + 1]; }
  int top(int row) const { return y + row * kCellHeight; }
};

void draw_frame(Canvas& canvas, const Layout& at, const Rules& rules, const BoardOptions& options) {
  const int private_row_of_opponent = own_row(opponent(options.viewer));
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      if (!is_square(row, column)) continue;
      // Edges shared with a solid neighbour stay solid: solid segments win when merged.
      const bool dashed = options.route_numbers && row == private_row_of_opponent;
      const int x0 = at.left(column), y0 = at.top(row);
      const int x1 = at.right(column);
      canvas.horizontal_line(x0, x1, y0, dashed, palette::kFrame);
      canvas.horizontal_line(x0, x1, y0 + kCellHeight, dashed, palette::kFrame);
      canvas.vertical_line(x0, y0, y0 + kCellHeight, dashed, palette::kFrame);
      canvas.vertical_line(x1, y0, y0 + kCellHeight, dashed, palette::kFrame);
    }
  }
  canvas.commit_lines();
  for (int row = 0; row < 3; ++row) {
    for (int column = 0; column < kColumns; ++column) {
      if (!is_square(row, column)) continue;
      const Square square = square_at(rules, row, column);
      const int x0 = at.left(column), x1 = at.right(column), y0 = at.top(row);
      if (rules.rosettes & square_bit(square)) canvas.put(x0 + 1, y0 + 1, "✿", palette::kRosette);
      if (options.route_numbers) {
        const std::string number = std::to_string(square);
        canvas.put(x1 - static_cast<int>(number.size()), y0 + 1, number, palette::kNumber);
      }
    }
  }
}

// `marks` are the mover's (or none); `is_last` marks where the pointed-out move landed.
void draw_piece(Canvas& canvas, int x0, int y0, Side side, const BoardMarks& marks, Square square,
                bool is_last) {
  Style style = piece_style(side);
  style.underline = is_last;
  const int centre = x0 + 4, line = y0 + 2;
  if (marks.selected == square) {
    style.reverse = true;
    canvas.put(centre - 2, line, "»(", palette::kTarget);
    canvas.put(centre + 1, line, ")«", palette::kTarget);
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
  for (int filled = text_width(edge); filled < 6; ++filled) edge += "─";
  canvas.put(x, top, edge + "╮", palette::kTray);
  canvas.put(x, top + 1, "│", palette::kTray);
  canvas.put(x + 6, top + 1, "│", palette::kTray);
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

void draw_board(Canvas& canvas, int x, int y, const Rules& rules, const Position& position,
                const BoardMarks& marks, const BoardOptions& options) {
  const Layout at{x, y};
  draw_frame(canvas, at, rules, options);
  const Side mover = marks.chooser.value_or(position.turn);

  for (Side side : {Side::Light, Side::Dark}) {
    const int tray_top = side == Side::Dark ? at.top(0) : at.top(2) + 1;
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
    // The 17-cell gap holds blank, start tray, blank, home tray, blank.
    draw_tray(canvas, at.left(kStartColumn) + 2, tray_top, "start", side, position.start_of(side),
              left, right, marker);
    const bool home_target = own.target && *own.target >= rules.home_square();
    const bool home_last =
        side == marks.last_side && marks.last_to && *marks.last_to >= rules.home_square();
    draw_tray(canvas, at.left(kHomeColumn) + 1, tray_top, "home", side, position.home_of(side),
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
      const Cell cell = cell_of(rules, side, square);
      const bool is_last = marks.last_to == square && marks.last_side == side;
      draw_piece(canvas, at.left(cell.column), at.top(cell.row), side, own, square, is_last);
    }
  }

  // Where the pointed-out move came from, unless something stands there now.
  if (marks.last_from && *marks.last_from > 0 && *marks.last_from < rules.home_square()) {
    const Cell cell = cell_of(rules, marks.last_side, *marks.last_from);
    const int centre = at.left(cell.column) + 4, line = at.top(cell.row) + 2;
    if (canvas.glyph_at(centre, line) == " ") {
      canvas.put(centre - 1, line, kLastLeft, piece_style(marks.last_side));
      canvas.put(centre + 1, line, kLastRight, piece_style(marks.last_side));
    }
  }

  if (marks.target && *marks.target < rules.home_square()) {
    const Cell cell = cell_of(rules, mover, *marks.target);
    const int centre = at.left(cell.column) + 4, line = at.top(cell.row) + 2;
    canvas.put(centre - 1, line, "[", palette::kTarget);
    canvas.put(centre + 1, line, "]", palette::kTarget);
    const bool empty = canvas.glyph_at(centre, line) == " ";
    if (empty) canvas.put(centre, line, "◌", piece_style(mover));
  }
}

std::string board_text(const Rules& rules, const Position& position, const BoardMarks& marks,
                       const BoardOptions& options) {
  Canvas canvas(kBoardWidth, kBoardHeight);
  draw_board(canvas, 0, 0, rules, position, marks, options);
  return canvas.text(false);
}

}  // namespace ur::play
