#include "protocol/review_json.h"

#include "core/notation.h"
#include "protocol/json.h"

namespace ur::protocol {

using nlohmann::json;

namespace {

json summary_json(const analysis::PlayerSummary& player) {
  json classes = json::object();
  for (int i = 1; i < analysis::kMoveClasses; ++i) {
    classes[std::string(to_string(static_cast<analysis::MoveClass>(i)))] = player.classes[i];
  }
  return {{"decisions", player.decisions},
          {"classes", classes},
          {"only_moves", player.only_moves},
          {"total_loss", player.total_loss},
          {"mean_loss", player.mean_loss},
          {"accuracy", player.accuracy},
          {"skill", player.skill},
          {"total_luck", player.total_luck},
          {"luck_adjusted", player.luck_adjusted}};
}

json indices(const std::vector<std::size_t>& throws, const analysis::Review& review) {
  json plies = json::array();
  for (std::size_t i : throws) plies.push_back(review.throws[i].ply + 1);
  return plies;
}

}  // namespace

json to_json(const analysis::Review& review) {
  json throws = json::array();
  for (const analysis::ThrowReview& entry : review.throws) {
    json moves = json::array();
    for (const analysis::MoveValue& option : entry.moves) {
      moves.push_back({{"from", option.move.from}, {"to", option.move.to}, {"win", option.win}});
    }
    throws.push_back({{"ply", entry.ply + 1},
                      {"turn", entry.turn},
                      {"side", side_name(entry.side)},
                      {"roll", entry.roll},
                      {"position", to_json(entry.position)},
                      {"move", entry.move ? json{{"from", entry.move->from}, {"to", entry.move->to}}
                                          : json(nullptr)},
                      {"forced", entry.forced},
                      {"win_before", entry.win_before},
                      {"win_best", entry.win_best},
                      {"win_played", entry.win_played},
                      {"loss", entry.loss},
                      {"class", to_string(entry.move_class)},
                      {"only_move", entry.only_move},
                      {"luck", entry.luck},
                      {"luck_mark", entry.luck_mark == analysis::Luck::Neutral
                                        ? json(nullptr)
                                        : json(to_string(entry.luck_mark))},
                      {"moves", moves}});
  }
  return {{"throws", throws},
          {"summary",
           {{"light", summary_json(review.summary[0])}, {"dark", summary_json(review.summary[1])}}},
          {"key_moments",
           {{"losses", indices(review.key_losses, review)},
            {"luck", indices(review.key_luck, review)}}},
          {"winner", review.winner ? json(side_name(*review.winner)) : json(nullptr)},
          {"exact", review.exact},
          {"source", review.source}};
}

}  // namespace ur::protocol
