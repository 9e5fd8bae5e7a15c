#include "play/board_view.h"

#include <gtest/gtest.h>
#include <iostream>

#include "core/notation.h"

namespace ur::play {
namespace {

Position parse(const std::string& text) {
  return std::get<Position>(parse_text(text, finkel_rules()));
}

TEST(BoardView, Opening) {
  BoardMarks marks;
  marks.movable = 0b1000100101;
  marks.selected = 5;
  marks.target = 8;
  marks.last_to = 7;
  marks.last_side = Side::Dark;
  std::cout << board_text(finkel_rules(), parse("L:3/2,5,9/1:5/7,14/0"), marks, BoardOptions{});
  marks.selected = 0;
  marks.target = 2;
  std::cout << board_text(finkel_rules(), parse("L:3/2,5,9/1:5/7,14/0"), marks, BoardOptions{});
}

}  // namespace
}  // namespace ur::play
