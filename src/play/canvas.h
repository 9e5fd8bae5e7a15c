// A grid of styled terminal cells. Screens are drawn into a Canvas and then turned into
// text lines, with ANSI colour sequences or (for NO_COLOR, scripts and tests) plain.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace ur::play {

// How a cell is shown in colour mode. Plain rendering ignores it, so everything a player
// must see is also carried by the glyphs themselves.
struct Style {
  int foreground = -1;  // xterm-256 colour index, -1 = the terminal's default
  bool bold = false;
  bool underline = false;
  bool reverse = false;

  friend bool operator==(const Style&, const Style&) = default;
};

// The palette: colours are chosen to read on dark and light terminal backgrounds.
namespace palette {
inline constexpr Style kPlain{};
inline constexpr Style kFrame{244};
inline constexpr Style kTray{240};
inline constexpr Style kRosette{220};
inline constexpr Style kNumber{242};
inline constexpr Style kLight{45, true};
inline constexpr Style kDark{208, true};
inline constexpr Style kTarget{83, true};
inline constexpr Style kTitle{-1, true};
inline constexpr Style kError{203, true};
inline constexpr Style kHint{246};
inline constexpr Style kMark{231, true};
}  // namespace palette

class Canvas {
 public:
  Canvas(int width, int height);

  int width() const { return width_; }
  int height() const { return height_; }

  // Writes UTF-8 `text` from (x, y), one cell per code point; what falls outside is cut.
  // Returns the x after the text.
  int put(int x, int y, std::string_view text, Style style = palette::kPlain);
  // Like put, with the text centred in [x, x + width).
  void put_centered(int x, int y, int width, std::string_view text, Style style = palette::kPlain);
  void set_style(int x, int y, Style style);
  Style style_at(int x, int y) const;
  std::string_view glyph_at(int x, int y) const;
  void fill(int x, int y, int width, int height, std::string_view glyph = " ",
            Style style = palette::kPlain);

  // Line-drawing layer: segments are merged into box-drawing junctions by `commit_lines`.
  void horizontal_line(int x0, int x1, int y, bool dashed, Style style);
  void vertical_line(int x, int y0, int y1, bool dashed, Style style);
  void commit_lines();

  // The rows as text: with ANSI styles when `color`, else plain. Trailing blanks are trimmed.
  std::vector<std::string> lines(bool color) const;
  std::string text(bool color) const;  // lines joined with '\n', each line ending in one

 private:
  struct Cell {
    std::string glyph = " ";
    Style style;
  };
  struct LineCell {
    std::uint8_t directions = 0;  // bit 0 up, 1 down, 2 left, 3 right
    bool solid = false;           // some solid segment passes here
    Style style;
  };
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  void add_direction(int x, int y, std::uint8_t direction, bool dashed, Style style);

  int width_;
  int height_;
  std::vector<Cell> cells_;
  std::vector<LineCell> line_cells_;
};

// Number of code points in UTF-8 text (the width of our single-width glyphs).
int text_width(std::string_view text);
// The first `cells` cells of UTF-8 `text` (all of it when narrower), cut between code points.
std::string_view first_cells(std::string_view text, int cells);

}  // namespace ur::play
