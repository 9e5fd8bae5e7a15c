#include "server/hints.h"

#include <memory>

#include "analysis/review.h"
#include "analysis/search_values.h"
#include "protocol/json.h"
#include "server/geometry_json.h"
#include "server/table_job.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace ur::server {

using nlohmann::json;

json hints_json(const session::Session& session) {
  const Rules& rules = session.rules();
  std::string problem;
  std::unique_ptr<analysis::PositionValues> values;
  // A set the solver cannot solve (a path that crosses itself) gets the search's estimate and a
  // sentence saying so, never a table's claim.
  const auto unavailable = perfect_play_unavailable(rules);
  // Small tables (tables::solves_on_the_fly) are solved once and kept: exact from then on.
  if (unavailable) {
    values = std::make_unique<analysis::SearchValues>();
  } else if (auto table = tables::solves_on_the_fly(rules) ? tables::table_for_play(rules, &problem)
                                                           : tables::find_table(rules, &problem)) {
    values = std::make_unique<tables::TableValues>(std::move(table));
  } else {
    values = std::make_unique<analysis::SearchValues>();
  }
  json answer = {{"exact", values->exact()},
                 {"source", values->source()},
                 {"perfect_play", unavailable ? json(*unavailable) : json(nullptr)}};
  if (!values->exact()) {
    if (auto missing = missing_table(rules)) answer["table_missing"] = std::move(*missing);
  }
  const Position& position = session.position();
  json moves = json::array();
  if (session.phase() == session::Phase::Over) {
    answer["win"] = nullptr;
  } else {
    const double mover = values->before_throw(rules, position);
    const double light = position.turn == Side::Light ? mover : 1.0 - mover;
    answer["win"] = {{"light", light}, {"dark", 1.0 - light}};
    if (session.phase() == session::Phase::Move) {
      const Roll roll = session.pending_throw()->roll;
      for (const analysis::MoveValue& option :
           analysis::rank_moves(rules, position, roll, *values)) {
        json move = protocol::to_json(option.move);
        move["win"] = option.win;
        moves.push_back(std::move(move));
      }
    }
  }
  const auto& pending = session.pending_throw();
  answer["roll"] = pending ? json(pending->roll) : json(nullptr);
  answer["moves"] = std::move(moves);
  return answer;
}

}  // namespace ur::server
