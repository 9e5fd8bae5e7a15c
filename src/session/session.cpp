#include "session/session.h"

#include <algorithm>
#include <iterator>

#include "core/explain.h"
#include "core/notation.h"
#include "session/overloaded.h"

namespace ur::session {

namespace {

std::string title(Side side) {
  return side == Side::Light ? "light" : "dark";
}

Refusal refuse(RefusalCode code, std::string message) {
  return Refusal{code, std::move(message)};
}

Outcome refused(RefusalCode code, std::string message) {
  return Outcome{{}, refuse(code, std::move(message))};
}

// 64 tied opening rounds in a row (probability below 1e-36 with four dice) let light open.
constexpr int kMaxOpeningRounds = 64;

}  // namespace

std::string_view to_string(Phase phase) {
  switch (phase) {
    case Phase::Throw:
      return "throw";
    case Phase::Move:
      return "move";
    case Phase::Pass:
      return "pass";
    case Phase::Over:
      return "over";
  }
  return "?";
}

std::string_view to_string(RefusalCode code) {
  switch (code) {
    case RefusalCode::NotYourTurn:
      return "not_your_turn";
    case RefusalCode::ComputerSeat:
      return "computer_seat";
    case RefusalCode::GameOver:
      return "game_over";
    case RefusalCode::ThrowPending:
      return "throw_pending";
    case RefusalCode::NoThrowYet:
      return "no_throw_yet";
    case RefusalCode::IllegalMove:
      return "illegal_move";
    case RefusalCode::MoveAvailable:
      return "move_available";
    case RefusalCode::TakeBackOff:
      return "take_back_off";
    case RefusalCode::NothingToTakeBack:
      return "nothing_to_take_back";
    case RefusalCode::BadSettings:
      return "bad_settings";
  }
  return "?";
}

namespace {

class StandardAgents final : public AgentSource {
 public:
  std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side, std::string_view spec,
                                                            std::uint64_t seed) override {
    return make_agent(spec, seed);
  }
};

}  // namespace

AgentSource& standard_agents() {
  static StandardAgents agents;
  return agents;
}

MoveList Session::legal_moves() const {
  if (state_.phase != Phase::Move) return {};
  return ur::legal_moves(rules(), state_.position, state_.pending->roll);
}

Session Session::start(const Settings& settings, std::uint64_t seed, Time now,
                       std::optional<Side> first) {
  Session session;
  Events ignored;
  session.record({now, SeriesStarted{settings, seed, {}, 0}}, ignored);
  if (first) {
    session.record({now, GameStarted{1, *first, std::nullopt}}, ignored);
  } else {
    session.begin_game(1, settings, now, ignored);
  }
  return session;
}

std::variant<Session, std::string> Session::from_history(Events history) {
  Session session;
  session.history_ = std::move(history);
  if (session.history_.empty() ||
      !std::holds_alternative<SeriesStarted>(session.history_.front().body)) {
    return std::string("a history must begin with the series' settings and seed");
  }
  for (std::size_t i = 0; i < session.history_.size(); ++i) {
    if (auto error = session.fold(i)) return "event " + std::to_string(i) + ": " + *error;
  }
  if (session.state_.game_number == 0) return std::string("the history starts no game");
  return session;
}

std::optional<std::string> Session::extend(Events more) {
  const State before = state_;
  const std::size_t size = history_.size();
  history_.insert(history_.end(), std::make_move_iterator(more.begin()),
                  std::make_move_iterator(more.end()));
  for (std::size_t i = size; i < history_.size(); ++i) {
    if (auto error = fold(i)) {
      history_.resize(size);
      state_ = before;
      return "event " + std::to_string(i) + ": " + *error;
    }
  }
  return std::nullopt;
}

void Session::record(Event event, Events& out) {
  history_.push_back(event);
  [[maybe_unused]] const auto error = fold(history_.size() - 1);
  out.push_back(std::move(event));
}

std::optional<std::string> Session::fold(std::size_t index) {
  State& s = state_;
  const Event& event = history_[index];
  return std::visit(
      Overloaded{
          [&](const SeriesStarted& e) -> std::optional<std::string> {
            if (index != 0) return "the series can start only once";
            if (auto error = validate(e.settings)) return *error;
            if (e.tally_before[0] < 0 || e.tally_before[1] < 0) return "a negative tally";
            s = State{};
            s.settings = e.settings;
            s.seed = e.seed;
            s.tally = e.tally_before;
            s.throws = e.throws_before;
            return std::nullopt;
          },
          [&](const OpeningRound&) -> std::optional<std::string> {
            if (index == 0) return "an opening round before the series started";
            s.throws += 2;
            return std::nullopt;
          },
          [&](const GameStarted& e) -> std::optional<std::string> {
            if (index == 0) return "a game before the series started";
            // The first game may carry any number: a series carried over goes on counting.
            const bool first_game = s.game_number == 0 && e.number >= 1;
            if (!first_game && e.number != s.game_number && e.number != s.game_number + 1) {
              return "game " + std::to_string(e.number) + " cannot follow game " +
                     std::to_string(s.game_number);
            }
            if (e.from) {
              if (auto error = validate(s.settings.rules, *e.from)) return "start: " + *error;
              if (e.from->turn != e.first) return "a start whose side to move is not the first";
            }
            if (e.number != s.game_number && s.next_settings) {
              s.settings = *s.next_settings;
              s.next_settings.reset();
            }
            s.game_number = e.number;
            s.starter = e.first;
            s.position = e.from.value_or(starting_position(s.settings.rules, e.first));
            s.phase = Phase::Throw;
            s.pending.reset();
            s.winner.reset();
            s.resigned = false;
            // A game set up from a position is under way: new settings wait for the next.
            s.thrown_this_game = e.from.has_value();
            s.last_move.reset();
            s.decisions.clear();
            s.game_start = index;
            return std::nullopt;
          },
          [&](const Thrown& e) -> std::optional<std::string> {
            if (s.phase != Phase::Throw) return "a throw while " + std::string(to_string(s.phase));
            if (e.side != s.position.turn) return "a throw by " + title(e.side) + " out of turn";
            if (is_game_over(s.settings.rules, s.position)) return "a throw after the game was won";
            if (e.dice.count != s.settings.rules.dice ||
                e.roll != roll_of(s.settings.rules, e.dice) ||
                (e.dice.marks >> e.dice.count) != 0) {
              return "dice that do not match the rules or the roll";
            }
            s.pending = e;
            s.throws += 1;
            s.thrown_this_game = true;
            s.phase = ur::legal_moves(s.settings.rules, s.position, e.roll).empty() ? Phase::Pass
                                                                                    : Phase::Move;
            return std::nullopt;
          },
          [&](const Moved& e) -> std::optional<std::string> {
            if (s.phase != Phase::Move) return "a move while " + std::string(to_string(s.phase));
            if (e.side != s.position.turn || e.roll != s.pending->roll) {
              return "a move that does not belong to the pending throw";
            }
            const MoveList moves = ur::legal_moves(s.settings.rules, s.position, e.roll);
            const Move* legal = find_move(moves, e.move.from);
            if (legal == nullptr || !(*legal == e.move)) {
              return title(e.side) + " cannot move from " + std::to_string(e.move.from) +
                     " with a throw of " + std::to_string(e.roll);
            }
            if (moves.size() > 1 && s.settings.is_person(e.side)) s.decisions.push_back(index);
            s.position = apply_move(s.settings.rules, s.position, e.move);
            s.pending.reset();
            s.last_move = e;
            s.phase = Phase::Throw;
            return std::nullopt;
          },
          [&](const Passed& e) -> std::optional<std::string> {
            if (s.phase != Phase::Pass) return "a pass while " + std::string(to_string(s.phase));
            if (e.side != s.position.turn) return "a pass by " + title(e.side) + " out of turn";
            s.position = pass_turn(s.position);
            s.pending.reset();
            s.phase = Phase::Throw;
            return std::nullopt;
          },
          [&](const Resigned& e) -> std::optional<std::string> {
            if (s.phase == Phase::Over || s.game_number == 0) return "a resignation after the end";
            if (!s.settings.is_person(e.side)) return "a computer seat resigned";
            s.resigned = true;
            return std::nullopt;
          },
          [&](const TookBack& e) -> std::optional<std::string> {
            if (s.decisions.empty() || std::find(s.decisions.begin(), s.decisions.end(),
                                                 e.move_index) == s.decisions.end()) {
              return "a take-back of a move that is not a decision in effect";
            }
            const auto& undone = std::get<Moved>(history_[e.move_index].body);
            if (undone.side != e.side) return "a take-back of the other side's move";
            // The game as it was right after the undone move's throw: refold the prefix.
            Events prefix(history_.begin(),
                          history_.begin() + static_cast<std::ptrdiff_t>(e.move_index));
            auto rebuilt = from_history(std::move(prefix));
            if (auto* message = std::get_if<std::string>(&rebuilt)) return *message;
            s = std::get<Session>(std::move(rebuilt)).state_;
            return std::nullopt;
          },
          [&](const GameEnded& e) -> std::optional<std::string> {
            if (s.phase == Phase::Over) return "a game ended twice";
            if (e.by_resignation != s.resigned) return "an end that does not match a resignation";
            if (!e.by_resignation && ur::winner(s.settings.rules, s.position) != e.winner) {
              return title(e.winner) + " has not brought every piece home";
            }
            s.winner = e.winner;
            ++s.tally[index_of(e.winner)];
            s.phase = Phase::Over;
            s.pending.reset();
            return std::nullopt;
          },
          [&](const HintsShown& e) -> std::optional<std::string> {
            if (index == 0) return "hints before the series started";
            s.hints[index_of(e.side)] = e.on;
            return std::nullopt;
          },
          [&](const SettingsChanged& e) -> std::optional<std::string> {
            if (auto error = validate(e.settings)) return *error;
            if (e.at_once) {
              if (s.thrown_this_game && s.phase != Phase::Over) {
                return "settings changed at once after a throw";
              }
              s.settings = e.settings;
              s.next_settings.reset();
            } else {
              s.next_settings = e.settings;
              if (e.settings == s.settings) s.next_settings.reset();
            }
            return std::nullopt;
          },
      },
      event.body);
}

void Session::begin_game(int number, const Settings& settings, Time now, Events& out) {
  Side first = number % 2 == 1 ? Side::Light : Side::Dark;
  if (settings.starts == StartRule::HigherThrow) {
    first = Side::Light;
    for (int round = 0; round < kMaxOpeningRounds; ++round) {
      const Dice light = dice_for_throw(settings.rules, state_.seed, state_.throws);
      const Dice dark = dice_for_throw(settings.rules, state_.seed, state_.throws + 1);
      record({now, OpeningRound{light, dark}}, out);
      const Roll light_roll = roll_of(settings.rules, light);
      const Roll dark_roll = roll_of(settings.rules, dark);
      if (light_roll != dark_roll) {
        first = light_roll > dark_roll ? Side::Light : Side::Dark;
        break;
      }
    }
  }
  record({now, GameStarted{number, first, std::nullopt}}, out);
}

void Session::end_if_won(Time now, Events& out) {
  if (auto won = ur::winner(rules(), state_.position)) record({now, GameEnded{*won, false}}, out);
}

void Session::automatic_actions(Time now, Events& out) {
  const Side side = state_.position.turn;
  if (!settings().is_person(side)) return;
  if (state_.phase == Phase::Move && settings().auto_play) {
    const MoveList moves = legal_moves();
    if (moves.size() == 1) {
      record({now, Moved{side, state_.pending->roll, moves[0], true}}, out);
      end_if_won(now, out);
    }
  } else if (state_.phase == Phase::Pass && settings().auto_pass) {
    record({now, Passed{side, state_.pending->roll, true}}, out);
  }
}

std::optional<Refusal> Session::check_turn(Side seat, bool computer) const {
  if (state_.phase == Phase::Over) {
    return refuse(RefusalCode::GameOver, "Game " + std::to_string(state_.game_number) +
                                             " is over (" + title(*state_.winner) +
                                             " won); start a new game to play on.");
  }
  if (settings().is_person(seat) == computer) {
    return refuse(RefusalCode::ComputerSeat,
                  "The " + title(seat) + " seat is played by the computer.");
  }
  if (seat != state_.position.turn) {
    return refuse(RefusalCode::NotYourTurn,
                  "It is " + title(state_.position.turn) + "'s turn, not " + title(seat) + "'s.");
  }
  return std::nullopt;
}

bool Session::can_take_back(Side seat) const {
  if (!settings().take_back || state_.phase == Phase::Over || !settings().is_person(seat)) {
    return false;
  }
  return std::any_of(state_.decisions.begin(), state_.decisions.end(),
                     [&](std::size_t i) { return std::get<Moved>(history_[i].body).side == seat; });
}

Outcome Session::act(const Intent& intent, Side seat, Time now) {
  return apply(intent, seat, false, now);
}

Outcome Session::apply(const Intent& intent, Side seat, bool computer, Time now) {
  Outcome outcome;
  Events& out = outcome.events;
  const std::optional<Refusal> turn_refusal = check_turn(seat, computer);
  auto visitor = Overloaded{
      [&](const ThrowIntent& throw_intent) -> std::optional<Refusal> {
        if (turn_refusal) return turn_refusal;
        if (state_.phase != Phase::Throw) {
          const Roll roll = state_.pending->roll;
          return refuse(
              RefusalCode::ThrowPending,
              "You have thrown " + std::to_string(roll) +
                  (state_.phase == Phase::Move ? " and must move a piece before throwing again."
                                               : " and cannot move: pass before throwing again."));
        }
        Dice dice = throw_intent.dice.value_or(dice_for_throw(rules(), state_.seed, state_.throws));
        if (dice.count != rules().dice || (dice.marks >> dice.count) != 0) {
          return refuse(RefusalCode::IllegalMove, "The rules throw " +
                                                      std::to_string(rules().dice) + " dice, not " +
                                                      std::to_string(dice.count) + ".");
        }
        record({now, Thrown{seat, dice, roll_of(rules(), dice)}}, out);
        automatic_actions(now, out);
        return std::nullopt;
      },
      [&](const MoveIntent& move) -> std::optional<Refusal> {
        if (turn_refusal) return turn_refusal;
        if (state_.phase == Phase::Throw) {
          return refuse(RefusalCode::NoThrowYet, "Throw the dice first, then move a piece.");
        }
        const Roll roll = state_.pending->roll;
        if (state_.phase == Phase::Pass) {
          return refuse(RefusalCode::IllegalMove,
                        why_pass(rules(), state_.position, roll) + " Pass the turn.");
        }
        const MoveList moves = legal_moves();
        const Move* legal = find_move(moves, move.from);
        if (legal == nullptr) {
          std::string reason = describe(why_illegal(rules(), state_.position, roll, move.from),
                                        rules(), roll, move.from);
          if (reason.empty()) reason = "That piece cannot move " + std::to_string(roll) + ".";
          return refuse(RefusalCode::IllegalMove, reason);
        }
        record({now, Moved{seat, roll, *legal, false}}, out);
        end_if_won(now, out);
        return std::nullopt;
      },
      [&](const PassIntent&) -> std::optional<Refusal> {
        if (turn_refusal) return turn_refusal;
        if (state_.phase == Phase::Throw) {
          return refuse(RefusalCode::NoThrowYet,
                        "Throw the dice first; pass only when the throw cannot move.");
        }
        if (state_.phase == Phase::Move) {
          // Short enough for the terminal's message row, the move named as the boards do.
          return refuse(
              RefusalCode::MoveAvailable,
              "A throw of " + std::to_string(state_.pending->roll) + " can move (for example " +
                  move_squares_text(rules(), legal_moves()[0]) + "); pass only when it cannot.");
        }
        record({now, Passed{seat, state_.pending->roll, false}}, out);
        return std::nullopt;
      },
      [&](const ResignIntent&) -> std::optional<Refusal> {
        if (state_.phase == Phase::Over) return turn_refusal;
        if (!settings().is_person(seat)) {
          return refuse(RefusalCode::ComputerSeat,
                        "The " + title(seat) + " seat is played by the computer.");
        }
        record({now, Resigned{seat}}, out);
        record({now, GameEnded{opponent(seat), true}}, out);
        return std::nullopt;
      },
      [&](const TakeBackIntent&) -> std::optional<Refusal> {
        if (!settings().take_back) {
          return refuse(RefusalCode::TakeBackOff, "Take-back is off in this game.");
        }
        if (state_.phase == Phase::Over) return check_turn(seat, false);
        if (!settings().is_person(seat)) {
          return refuse(RefusalCode::ComputerSeat,
                        "The " + title(seat) + " seat is played by the computer.");
        }
        const auto it = std::find_if(
            state_.decisions.rbegin(), state_.decisions.rend(),
            [&](std::size_t i) { return std::get<Moved>(history_[i].body).side == seat; });
        if (it == state_.decisions.rend()) {
          return refuse(RefusalCode::NothingToTakeBack,
                        "You have made no choice in this game that could be taken back.");
        }
        record({now, TookBack{seat, *it}}, out);
        return std::nullopt;
      },
      [&](const NewGameIntent& next) -> std::optional<Refusal> {
        if (!settings().is_person(seat)) {
          return refuse(RefusalCode::ComputerSeat,
                        "The " + title(seat) + " seat is played by the computer.");
        }
        if (next.settings) {
          if (auto error = validate(*next.settings)) {
            return refuse(RefusalCode::BadSettings, *error);
          }
          if (*next.settings != state_.next_settings.value_or(settings())) {
            record({now, SettingsChanged{*next.settings, false}}, out);
          }
        }
        begin_game(state_.game_number + 1, state_.next_settings.value_or(settings()), now, out);
        return std::nullopt;
      },
      [&](const ChangeSettingsIntent& change) -> std::optional<Refusal> {
        if (auto error = validate(change.settings)) {
          return refuse(RefusalCode::BadSettings, *error);
        }
        if (!settings().is_person(seat)) {
          return refuse(RefusalCode::ComputerSeat,
                        "The " + title(seat) + " seat is played by the computer.");
        }
        const bool at_once = !state_.thrown_this_game && state_.phase != Phase::Over;
        if (!at_once && change.settings == state_.next_settings.value_or(settings())) {
          return std::nullopt;  // nothing changes
        }
        record({now, SettingsChanged{change.settings, at_once}}, out);
        if (at_once) begin_game(state_.game_number, change.settings, now, out);
        return std::nullopt;
      },
      [&](const ShowHintsIntent& hints) -> std::optional<Refusal> {
        if (!settings().is_person(seat)) {
          return refuse(RefusalCode::ComputerSeat,
                        "The " + title(seat) + " seat is played by the computer.");
        }
        if (state_.hints[index_of(seat)] != hints.on)
          record({now, HintsShown{seat, hints.on}}, out);
        return std::nullopt;
      },
  };
  outcome.refusal = std::visit(visitor, intent);
  return outcome;
}

bool Session::computer_to_act() const {
  return state_.phase != Phase::Over && !settings().is_person(state_.position.turn);
}

Outcome Session::computer_step(AgentSource& agents, Time now) {
  const Side side = state_.position.turn;
  if (!computer_to_act()) {
    return refused(RefusalCode::NotYourTurn, "No computer seat has to act now.");
  }
  switch (state_.phase) {
    case Phase::Throw:
      return apply(ThrowIntent{}, side, true, now);
    case Phase::Pass:
      return apply(PassIntent{}, side, true, now);
    case Phase::Over:
      break;
    case Phase::Move: {
      const std::string& spec = settings().seat(side).agent;
      auto& agent = agents_[index_of(side)];
      if (!agent || agent_specs_[index_of(side)] != spec) {
        // Each seat's agent gets its own stream, so the two computer seats never share one.
        auto made =
            agents.make(side, spec, state_.seed ^ (0x9e3779b97f4a7c15ULL * (index_of(side) + 1)));
        if (auto* error = std::get_if<AgentSpecError>(&made)) {
          return refused(RefusalCode::BadSettings, error->message);
        }
        agent = std::shared_ptr<Agent>(std::move(std::get<std::unique_ptr<Agent>>(made)));
        agent_specs_[index_of(side)] = spec;
      }
      const MoveList moves = legal_moves();
      const Move chosen = agent->choose(rules(), state_.position, state_.pending->roll).move;
      const Move* legal = find_move(moves, chosen.from);
      Outcome outcome;
      record({now, Moved{side, state_.pending->roll, legal ? *legal : moves[0], false}},
             outcome.events);
      end_if_won(now, outcome.events);
      return outcome;
    }
  }
  return refused(RefusalCode::GameOver, "The game is over.");
}

Outcome Session::drive(AgentSource& agents, Time now, int max_steps) {
  Outcome all;
  for (int step = 0; step < max_steps && computer_to_act(); ++step) {
    Outcome outcome = computer_step(agents, now);
    all.events.insert(all.events.end(), outcome.events.begin(), outcome.events.end());
    if (!outcome.accepted()) {
      all.refusal = std::move(outcome.refusal);
      break;
    }
  }
  return all;
}

}  // namespace ur::session
