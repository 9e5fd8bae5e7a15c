#include "play/canvas.h"

#include <algorithm>
#include <array>

namespace ur::play {
namespace {

constexpr std::uint8_t kUp = 1, kDown = 2, kLeft = 4, kRight = 8;

// Length of the UTF-8 sequence starting with byte `lead` (1 for stray continuation bytes,
// so malformed text still advances).
int sequence_length(unsigned char lead) {
  if (lead >= 0xF0) return 4;
  if (lead >= 0xE0) return 3;
  if (lead >= 0xC0) return 2;
  return 1;
}

std::string_view junction(std::uint8_t directions, bool solid) {
  // Indexed by the direction bits; dashed glyphs exist only for straight runs.
  static constexpr std::array<std::string_view, 16> kGlyphs = {
      " ", "│", "│", "│", "─", "┘", "┐", "┤", "─", "└", "┌", "├", "─", "┴", "┬", "┼"};
  if (!solid) {
    if (directions == (kLeft | kRight) || directions == kLeft || directions == kRight) return "┄";
    if (directions == (kUp | kDown) || directions == kUp || directions == kDown) return "┆";
  }
  return kGlyphs[directions];
}

std::string sgr(const Style& style) {
  std::string code = "\x1b[0";
  if (style.bold) code += ";1";
  if (style.underline) code += ";4";
  if (style.reverse) code += ";7";
  if (style.foreground >= 0) code += ";38;5;" + std::to_string(style.foreground);
  return code + "m";
}

}  // namespace

int text_width(std::string_view text) {
  int width = 0;
  for (std::size_t i = 0; i < text.size(); i += sequence_length(text[i])) ++width;
  return width;
}

std::string_view first_cells(std::string_view text, int cells) {
  std::size_t end = 0;
  for (int cell = 0; cell < cells && end < text.size(); ++cell) end += sequence_length(text[end]);
  return text.substr(0, std::min(end, text.size()));
}

Canvas::Canvas(int width, int height)
    : width_(width),
      height_(height),
      cells_(static_cast<std::size_t>(width) * height),
      line_cells_(static_cast<std::size_t>(width) * height) {}

int Canvas::put(int x, int y, std::string_view text, Style style) {
  std::size_t i = 0;
  while (i < text.size()) {
    const std::size_t length = std::min<std::size_t>(sequence_length(text[i]), text.size() - i);
    if (inside(x, y)) {
      Cell& cell = cells_[y * width_ + x];
      cell.glyph = std::string(text.substr(i, length));
      cell.style = style;
    }
    i += length;
    ++x;
  }
  return x;
}

void Canvas::put_centered(int x, int y, int width, std::string_view text, Style style) {
  put(x + (width - text_width(text)) / 2, y, text, style);
}

void Canvas::set_style(int x, int y, Style style) {
  if (inside(x, y)) cells_[y * width_ + x].style = style;
}

Style Canvas::style_at(int x, int y) const {
  return inside(x, y) ? cells_[y * width_ + x].style : Style{};
}

std::string_view Canvas::glyph_at(int x, int y) const {
  return inside(x, y) ? std::string_view(cells_[y * width_ + x].glyph) : std::string_view(" ");
}

void Canvas::fill(int x, int y, int width, int height, std::string_view glyph, Style style) {
  for (int row = y; row < y + height; ++row) {
    for (int column = x; column < x + width; ++column) {
      if (!inside(column, row)) continue;
      cells_[row * width_ + column] = Cell{std::string(glyph), style};
      line_cells_[row * width_ + column] = LineCell{};
    }
  }
}

void Canvas::add_direction(int x, int y, std::uint8_t direction, bool dashed, Style style) {
  if (!inside(x, y)) return;
  LineCell& cell = line_cells_[y * width_ + x];
  cell.directions |= direction;
  cell.solid = cell.solid || !dashed;
  cell.style = style;
}

void Canvas::horizontal_line(int x0, int x1, int y, bool dashed, Style style) {
  for (int x = x0; x < x1; ++x) {
    add_direction(x, y, kRight, dashed, style);
    add_direction(x + 1, y, kLeft, dashed, style);
  }
}

void Canvas::vertical_line(int x, int y0, int y1, bool dashed, Style style) {
  for (int y = y0; y < y1; ++y) {
    add_direction(x, y, kDown, dashed, style);
    add_direction(x, y + 1, kUp, dashed, style);
  }
}

void Canvas::commit_lines() {
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) {
      LineCell& line = line_cells_[y * width_ + x];
      if (line.directions == 0) continue;
      cells_[y * width_ + x] = Cell{std::string(junction(line.directions, line.solid)), line.style};
      line = LineCell{};
    }
  }
}

std::vector<std::string> Canvas::lines(bool color) const {
  std::vector<std::string> result;
  result.reserve(height_);
  for (int y = 0; y < height_; ++y) {
    int last = width_ - 1;
    while (last >= 0 && cells_[y * width_ + last].glyph == " " &&
           !(color && cells_[y * width_ + last].style.reverse)) {
      --last;
    }
    std::string line;
    Style current;
    for (int x = 0; x <= last; ++x) {
      const Cell& cell = cells_[y * width_ + x];
      if (color && !(cell.style == current)) {
        line += sgr(cell.style);
        current = cell.style;
      }
      line += cell.glyph;
    }
    if (color && !(current == Style{})) line += "\x1b[0m";
    result.push_back(std::move(line));
  }
  return result;
}

std::string Canvas::text(bool color) const {
  std::string joined;
  for (const std::string& line : lines(color)) joined += line + "\n";
  return joined;
}

}  // namespace ur::play
