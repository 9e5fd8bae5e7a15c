// The judge of `ur match --judge` and of the tuner: rates a move by a solved table.
#pragma once

#include <memory>
#include <vector>

#include "match/match_runner.h"
#include "tables/table.h"

namespace ur::match {

// Rates moves by the solved table: the best move's chance to win minus the chosen one's.
inline MoveLoss table_move_loss(std::shared_ptr<const tables::Table> table) {
  return [table](const Rules&, const Position& position, Roll roll, const Move& move) {
    const std::vector<tables::MoveHint> hints = tables::hints(*table, position, roll);
    for (const tables::MoveHint& hint : hints) {
      if (hint.move == move) return hints.front().win - hint.win;
    }
    return 0.0;  // unreachable: agents only return legal moves
  };
}

}  // namespace ur::match
