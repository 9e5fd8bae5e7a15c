#include "play/hints.h"

#include "analysis/review_text.h"
#include "analysis/search_values.h"
#include "core/rule_sets.h"
#include "play/canvas.h"
#include "play/play_session.h"
#include "solver/position_index.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace ur::play {
namespace {

std::string capitalized(std::string text) {
  if (!text.empty() && text[0] >= 'a' && text[0] <= 'z') text[0] = static_cast<char>(text[0] - 32);
  return text;
}

// "s→3", "6→9", "13→home": a move's squares without spaces.
std::string short_squares(const Rules& rules, const Move& move) {
  const std::string from = move.from == 0 ? "s" : std::to_string(move.from);
  const std::string to = move.to == rules.home_square() ? "home" : std::to_string(move.to);
  return from + "→" + to;
}

std::string joined(const std::vector<std::string>& parts, const std::string& separator) {
  std::string text;
  for (const std::string& part : parts) text += (text.empty() ? "" : separator) + part;
  return text;
}

// "Masters", "Aseb", or "custom rules".
std::string set_words(const Rules& rules) {
  const NamedRuleSet* set = find_rule_set(rule_set_name(rules));
  return set ? std::string(set->title) : "custom rules";
}

}  // namespace

std::optional<std::string> perfect_play_unavailable(const Rules& rules) {
  const auto why = solver::unsupported_rules(rules);
  if (!why) return std::nullopt;
  std::string sentence = *why + ".";  // names the set: "perfect play for ... is not available"
  sentence[0] = 'P';
  return sentence;
}

std::string estimated_note(const Rules& rules) {
  if (!solver::unsupported_rules(rules)) return std::string(kEstimated);
  return "estimated: no perfect play for " + set_words(rules) + " yet";
}

bool is_perfect_spec(std::string_view opponent) {
  return opponent == "perfect" || opponent.starts_with("perfect:");
}

std::unique_ptr<analysis::PositionValues> values_for(const Rules& rules) {
  std::string problem;
  if (auto table = tables::table_for_play(rules, &problem)) {
    return std::make_unique<tables::TableValues>(std::move(table));
  }
  return std::make_unique<analysis::SearchValues>();
}

Hints compute_hints(analysis::PositionValues& values, const Rules& rules, const Position& position,
                    Roll roll, const MoveList& legal) {
  Hints hints;
  hints.position = position;
  hints.roll = roll;
  hints.exact = values.exact();
  hints.mover = values.before_throw(rules, position);
  // The review's ranking, shown in the order of `legal` (the screen's move order).
  const auto ranked = analysis::rank_moves(rules, position, roll, values);
  for (const Move& move : legal) {
    for (const analysis::MoveValue& option : ranked) {
      if (option.move == move) hints.moves.push_back({move, option.win});
    }
  }
  return hints;
}

analysis::PositionValues& HintValues::values(const Rules& rules) {
  if (!values_ || !rules_ || !(*rules_ == rules)) {
    values_ = maker_(rules);
    rules_ = rules;
  }
  return *values_;
}

std::string hint_chances_line(const PlaySession& game, const Hints& hints, int width) {
  const Side mover = hints.position.turn;
  const double light = mover == Side::Light ? hints.mover : 1.0 - hints.mover;
  std::string text = "Chances: " + capitalized(game.side_label(Side::Light)) + " " +
                     analysis::percent_text(light) + " · " +
                     capitalized(game.side_label(Side::Dark)) + " " +
                     analysis::percent_text(1.0 - light);
  if (hints.exact) return text;
  // A note too long for `width` (a set the solver cannot solve, named) is shortened: without
  // the set's name, then to the mark alone.
  std::vector<std::string> notes = {estimated_note(game.rules())};
  if (solver::unsupported_rules(game.rules())) notes.emplace_back("estimated: no perfect play yet");
  for (const std::string& note : notes) {
    if (text_width(text + " · " + note) <= width) return text + " · " + note;
  }
  return text + " · estimated";
}

std::string hint_moves_line(const PlaySession& game, const Hints& hints, int width) {
  if (hints.moves.empty()) return "";
  const std::string mark = hints.exact ? "" : " · " + estimated_note(game.rules());
  std::vector<std::string> full;
  std::vector<std::string> brief;
  for (const MoveHint& hint : hints.moves) {
    const std::string chance = analysis::percent_text(hint.win);
    full.push_back(game.move_squares(hint.move) + " " + chance);
    brief.push_back(short_squares(game.rules(), hint.move) + " " + chance);
  }
  for (const std::string& text :
       {"Moves: " + joined(full, " · ") + mark, "Moves: " + joined(brief, " · ") + mark,
        "Moves: " + joined(brief, "  ") + mark}) {
    if (text_width(text) <= width) return text;
  }
  // Seven moves with long squares: the values first, then as much of the mark as fits.
  return "Moves: " + joined(brief, " ") + (hints.exact ? "" : " · estimated");
}

}  // namespace ur::play
