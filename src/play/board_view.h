// Draws the board as it really looks (rules.md geometry): the 3 x 8 lattice with the
// two-square bridge, dark's row on top and light's at the bottom, start and home trays in
// the gaps, five rosettes, and the markers of the move being chosen.
#pragma once

#include <optional>

#include "core/movegen.h"
#include "play/canvas.h"

namespace ur::play {

// Size of the drawn board in cells: 8 columns (the two bridge columns one cell wider) plus
// the closing edge, and three rows of 3 lines plus the closing edge.
inline constexpr int kBoardWidth = 67;
inline constexpr int kBoardHeight = 10;

// The glyph of each side's pieces: the sides differ in symbol as well as colour.
std::string_view piece_glyph(Side side);
Style piece_style(Side side);

// What the board highlights for the side to move (or for `chooser`). Squares are in that
// side's numbering.
struct BoardMarks {
  SquareMask movable = 0;           // sources of legal moves; bit 0 is the start pile
  std::optional<Square> selected;   // the source under the cursor
  std::optional<Square> target;     // its landing square (home_square() when bearing off)
  std::optional<Square> last_from;  // the last move to point out, in `last_side`'s numbering
  std::optional<Square> last_to;    // (0 = the start pile, home_square() = home)
  Side last_side = Side::Light;
  // Whose move movable, selected and target show; none: the side to move. (A replay points
  // out the best move of the side that just moved, in the position after its ply.)
  std::optional<Side> chooser;
};

struct BoardOptions {
  bool route_numbers = true;  // number every square and dash the outline of `viewer`'s
                              // opponent's private squares, as in the rule sheet's diagram
  Side viewer = Side::Light;
};

// Draws the board with its top-left corner at (x, y). Requires the Finkel geometry
// (route_length 14, shared squares 5..12).
void draw_board(Canvas& canvas, int x, int y, const Rules& rules, const Position& position,
                const BoardMarks& marks, const BoardOptions& options);

// The board alone as plain text (scripts and snapshot tests).
std::string board_text(const Rules& rules, const Position& position, const BoardMarks& marks,
                       const BoardOptions& options);

}  // namespace ur::play
