// Draws the board as it really looks, from the rule set's geometry (core/rule_sets.h): the
// board's cells (3 x 8 with the two-square bridge, or Aseb's 3 x 12), dark's row on top and
// light's at the bottom, start and home trays in the gap of the side rows, the rosettes,
// and the markers of the move being chosen.
#pragma once

#include <optional>
#include <string>

#include "core/movegen.h"
#include "play/canvas.h"

namespace ur::play {

// The width the board may take by default: the play screen's 80 columns less its margins.
inline constexpr int kBoardMaxWidth = 76;
// The standard board's size in cells: 8 columns (the two bridge columns one cell wider) plus
// the closing edge, and three rows of 3 lines plus the closing edge. Every board is as high;
// ur replay keeps this width for the board so that its move list fits beside it.
inline constexpr int kBoardWidth = 67;
inline constexpr int kBoardHeight = 10;

// The source of the next (step +1) or previous (-1) legal move after `cursor`, in the
// list's route order, wrapping around; the first one's when `cursor` starts none.
// Precondition: `legal` is not empty.
Square next_movable(const MoveList& legal, std::optional<Square> cursor, int step);

// Choosing a piece by typing its square (the local and the online game alike). `typed` is the
// digits so far and `digit` the next: a digit that cannot follow them starts a new number
// ("0" is complete, and no square lies past the route's end).
std::string typed_with(const std::string& typed, char digit, const Rules& rules);
// True while `typed` names no movable piece and a longer square of the route starts with it
// ("1" on the way to "12"): it waits for its next digit, and Enter refuses it then.
bool typed_waits(const std::string& typed, const Rules& rules, const MoveList& legal);
// The move preview while `typed` waits: "typed 1…   the next digit, or Enter for square 1".
std::string typed_waiting_text(const std::string& typed);

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
  // Number every square in `viewer`'s numbering (a tile the two sides number differently
  // shows "mine/theirs", one a path crosses twice "first,second"), and dash the outline of the
  // tiles `viewer`'s path never visits.
  bool route_numbers = true;
  Side viewer = Side::Light;
  // The widest the board may be: a board of many columns draws narrower cells to fit.
  int max_width = kBoardMaxWidth;
};

// The drawn size of the board of `rules` within `max_width` columns.
int board_width(const Rules& rules, int max_width = kBoardMaxWidth);

// The number written on `cell`: the viewer's route squares there, then the opponent's when
// they differ ("12/16" on Masters' C7 for light), or "" for a tile no path visits. A tile
// one side's path crosses twice shows both of its squares ("11,17" on Murray's B7).
std::string cell_label(const Rules& rules, Cell cell, Side viewer);
// The same in `position`: while a piece stands on a tile its path crosses twice, the tile
// shows only the square that piece is on ("17"), since the piece cannot show its visit.
std::string cell_label(const Rules& rules, Cell cell, Side viewer, const Position& position);

// Draws the board with its top-left corner at (x, y).
void draw_board(Canvas& canvas, int x, int y, const Rules& rules, const Position& position,
                const BoardMarks& marks, const BoardOptions& options);

// The board alone as plain text (scripts and snapshot tests).
std::string board_text(const Rules& rules, const Position& position, const BoardMarks& marks,
                       const BoardOptions& options);

}  // namespace ur::play
