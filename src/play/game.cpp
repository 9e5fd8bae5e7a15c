#include "play/game.h"

#include <algorithm>

#include "core/explain.h"
#include "core/notation.h"

namespace ur::play {

std::string_view to_string(Opener opener) {
  return opener == Opener::Alternate ? "alternate" : "higher";
}

int Dice::count() const {
  return static_cast<int>(std::count(marked.begin(), marked.end(), true));
}

namespace {

// Four dice from one draw of the generator: bit i is die i. Taking raw bits (rather than a
// std distribution) keeps a seed's games identical across standard libraries.
Dice throw_four(std::mt19937_64& rng) {
  const std::uint64_t bits = rng();
  Dice dice;
  for (int i = 0; i < 4; ++i) dice.marked[i] = ((bits >> i) & 1) != 0;
  return dice;
}

// The agent's own seed, kept apart from the dice stream so it never predicts a throw.
std::uint64_t agent_seed(std::uint64_t seed) {
  return seed ^ 0x9E3779B97F4A7C15ULL;
}

// The present-tense `verb` agreeing with the side label: "you pass" but "dark passes".
std::string agreeing(const std::string& label, const std::string& verb) {
  if (label == "you") return verb;
  return verb + (verb.ends_with('s') ? "es" : "s");
}

// "you win" but "dark wins": the side label with a present-tense verb.
std::string with_verb(const std::string& label, const std::string& verb) {
  return label + " " + agreeing(label, verb);
}

std::string square_name(const Rules& rules, Square square) {
  if (square == 0) return "start";
  if (square >= rules.home_square()) return "home";
  return std::to_string(square);
}

}  // namespace

Game::Game(AgentMaker make_agent) : make_agent_(std::move(make_agent)) {
  settings_.opponent = std::string(kFriend);
  dice_rng_.seed(settings_.seed);
  position_ = starting_position(settings_.rules);
}

ActionError Game::configure(const Settings& settings) {
  if (settings.rules.pieces < Rules::kMinPieces || settings.rules.pieces > Rules::kMaxPieces) {
    return "Pieces must be between " + std::to_string(Rules::kMinPieces) + " and " +
           std::to_string(Rules::kMaxPieces) + ", got " + std::to_string(settings.rules.pieces) +
           ".";
  }
  std::unique_ptr<Agent> agent;
  if (settings.opponent != kFriend) {
    auto made = make_agent_(settings.opponent, agent_seed(settings.seed));
    if (auto* error = std::get_if<AgentSpecError>(&made)) return error->message;
    agent = std::move(std::get<std::unique_ptr<Agent>>(made));
    if (auto why = agent->cannot_play(settings.rules)) return *why;
  }
  settings_ = settings;
  agent_ = std::move(agent);
  dice_rng_.seed(settings_.seed);
  new_game();
  return std::nullopt;
}

void Game::set_automation(bool auto_play, bool auto_pass) {
  settings_.auto_play = auto_play;
  settings_.auto_pass = auto_pass;
}

void Game::new_game() {
  ++game_number_;
  Side first = game_number_ % 2 == 1 ? Side::Light : Side::Dark;
  std::string opening;
  if (settings_.opener == Opener::HigherThrow) {
    // Both sides throw; ties throw again. The higher thrower then throws afresh to move.
    opening = "opening throws";
    while (true) {
      const int light = throw_four(dice_rng_).count();
      const int dark = throw_four(dice_rng_).count();
      // Appended piecewise: g++ 12 misreports `"literal" + std::string&&` under -O3.
      opening.append(" ").append(std::to_string(light)).append("-").append(std::to_string(dark));
      if (light != dark) {
        first = light > dark ? Side::Light : Side::Dark;
        break;
      }
    }
    opening += " (light-dark), ";
  }
  position_ = starting_position(settings_.rules, first);
  phase_ = Phase::Throw;
  roll_ = 0;
  dice_.reset();
  legal_ = MoveList{};
  last_move_.reset();
  winner_.reset();
  resigned_ = false;
  add_log("Game " + std::to_string(game_number_) + ": " + opening +
          with_verb(side_label(first), "start") + ".");
}

void Game::set_roll(const Dice& dice) {
  dice_ = dice;
  roll_ = dice.count();
  legal_ = legal_moves(settings_.rules, position_, roll_);
  phase_ = legal_.empty() ? Phase::Pass : Phase::Move;
}

namespace {

std::string phase_refusal(Phase phase, const std::string& pass_reason) {
  switch (phase) {
    case Phase::Throw:
      return "Throw the dice first.";
    case Phase::Move:
      return "The throw is waiting: choose a piece to move.";
    case Phase::Pass:
      return pass_reason + " Pass the turn.";
    case Phase::Over:
      return "The game is over: start a new game.";
  }
  return "";
}

}  // namespace

ActionError Game::throw_dice() {
  if (phase_ != Phase::Throw) return phase_refusal(phase_, pass_reason());
  set_roll(throw_four(dice_rng_));
  return std::nullopt;
}

ActionError Game::force_roll(Roll roll) {
  if (phase_ != Phase::Throw) return phase_refusal(phase_, pass_reason());
  if (roll < 0 || roll > settings_.rules.max_roll()) {
    return "A roll counts marked dice: 0 to " + std::to_string(settings_.rules.max_roll()) +
           ", got " + std::to_string(roll) + ".";
  }
  Dice dice;
  for (int i = 0; i < roll; ++i) dice.marked[i] = true;
  set_roll(dice);
  return std::nullopt;
}

ActionError Game::move(Square from) {
  if (phase_ != Phase::Move) return phase_refusal(phase_, pass_reason());
  const Move* chosen = find_move(legal_, from);
  if (chosen == nullptr) {
    const IllegalReason reason = why_illegal(settings_.rules, position_, roll_, from);
    const std::string why = describe(reason, settings_.rules, roll_, from);
    return why.empty() ? "That piece cannot move " + std::to_string(roll_) + "." : why;
  }
  const Move move = *chosen;
  const Side mover = position_.turn;
  add_log(
      side_label(mover) + " threw " + std::to_string(roll_) + ": " + move_squares(move) +
      (move.capture ? ", captured " + (against_computer() && mover == kComputerSide
                                           ? std::string("your piece")
                                           : side_label(opponent(mover)) + "'s piece")
                    : "") +
      (move.extra_throw ? ", rosette: " + with_verb(side_label(mover), "throw") + " again" : ""));
  position_ = apply_move(settings_.rules, position_, move);
  last_move_ = LastMove{mover, move};
  roll_ = 0;
  legal_ = MoveList{};
  if (const auto won = ur::winner(settings_.rules, position_)) {
    finish(*won, false);
  } else {
    phase_ = Phase::Throw;
  }
  return std::nullopt;
}

ActionError Game::pass() {
  if (phase_ != Phase::Pass) {
    if (phase_ == Phase::Move) return "A legal move exists, so the turn cannot be passed.";
    return phase_refusal(phase_, "");
  }
  const Side mover = position_.turn;
  add_log(side_label(mover) + " threw " + std::to_string(roll_) + " and " +
          agreeing(side_label(mover), "pass") + (roll_ == 0 ? "" : ": no legal move"));
  position_ = pass_turn(position_);
  roll_ = 0;
  legal_ = MoveList{};
  phase_ = Phase::Throw;
  return std::nullopt;
}

ActionError Game::resign() {
  if (phase_ == Phase::Over) return phase_refusal(phase_, "");
  const Side loser = against_computer() ? opponent(kComputerSide) : position_.turn;
  finish(opponent(loser), true);
  return std::nullopt;
}

void Game::finish(Side won, bool resigned) {
  winner_ = won;
  resigned_ = resigned;
  phase_ = Phase::Over;
  roll_ = 0;
  legal_ = MoveList{};
  ++tally_[index_of(won)];
  const std::string result =
      with_verb(side_label(won), "win") + " game " + std::to_string(game_number_) + ".";
  add_log(resigned ? with_verb(side_label(opponent(won)), "resign") + ": " + result : result);
}

bool Game::computer_to_act() const {
  return against_computer() && phase_ != Phase::Over && position_.turn == kComputerSide;
}

ActionError Game::computer_step() {
  if (!computer_to_act()) return "It is not the computer's turn.";
  switch (phase_) {
    case Phase::Throw:
      return throw_dice();
    case Phase::Move: {
      const AgentChoice choice = agent_->choose(settings_.rules, position_, roll_);
      if (find_move(legal_, choice.move.from) == nullptr) {
        return "The computer (" + settings_.opponent + ") chose an illegal move from square " +
               std::to_string(choice.move.from) + ".";
      }
      return move(choice.move.from);
    }
    case Phase::Pass:
      return pass();
    case Phase::Over:
      break;
  }
  return "The game is over.";
}

std::optional<Square> Game::automatic_action() const {
  if (computer_to_act()) return std::nullopt;
  if (phase_ == Phase::Pass && settings_.auto_pass) return -1;
  if (phase_ == Phase::Move && settings_.auto_play && legal_.size() == 1) return legal_[0].from;
  return std::nullopt;
}

std::string Game::opponent_name() const {
  return settings_.opponent;
}

std::string Game::side_label(Side side) const {
  if (against_computer() && side != kComputerSide) return "you";
  return std::string(side_name(side));
}

Side Game::viewer() const {
  return against_computer() ? opponent(kComputerSide) : position_.turn;
}

std::string Game::move_squares(const Move& move) const {
  return square_name(settings_.rules, move.from) + " → " + square_name(settings_.rules, move.to);
}

std::string Game::describe_move(const Move& move) const {
  std::string text = move_squares(move);
  if (move.from == 0) text += ", enters a new piece";
  if (move.to >= settings_.rules.home_square()) text += ", bears off";
  if (move.capture) {
    const Side victim = opponent(position_.turn);
    text += ", captures " + (against_computer() && victim != kComputerSide
                                 ? std::string("your piece")
                                 : side_label(victim) + "'s piece");
  }
  if (move.extra_throw) text += ", rosette: throw again";
  return text;
}

std::string Game::pass_reason() const {
  if (phase_ != Phase::Pass) return "";
  return why_pass(settings_.rules, position_, roll_);
}

void Game::add_log(std::string line) {
  log_.push_back(std::move(line));
}

}  // namespace ur::play
