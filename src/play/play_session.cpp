#include "play/play_session.h"

#include <algorithm>
#include <chrono>

#include "core/explain.h"
#include "core/notation.h"

namespace ur::play {

namespace {

// The menu's settings for what a session plays under.
Settings play_settings(const session::Settings& settings, std::uint64_t seed) {
  Settings play;
  play.rules = settings.rules;
  const session::Seat& dark = settings.seat(kComputerSide);
  play.opponent = dark.is_person() ? std::string(kFriend) : dark.agent;
  play.opener = settings.starts;
  play.auto_play = settings.auto_play;
  play.auto_pass = settings.auto_pass;
  play.take_back = settings.take_back;
  play.seed = seed;
  return play;
}

}  // namespace

session::Settings session_settings(const Settings& settings) {
  session::Settings mapped =
      settings.opponent == kFriend
          ? session::between_friends()
          : session::against_computer(settings.opponent, opponent(kComputerSide));
  mapped.rules = settings.rules;
  mapped.starts = settings.opener;
  mapped.auto_play = settings.auto_play;
  mapped.auto_pass = settings.auto_pass;
  mapped.take_back = settings.take_back && settings.opponent != kFriend;
  return mapped;
}

session::Time system_time() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::variant<std::unique_ptr<Agent>, AgentSpecError> PlaySession::Agents::make(
    Side, std::string_view spec, std::uint64_t seed) {
  return maker_(spec, seed);
}

PlaySession::PlaySession(AgentMaker make_agent, Clock clock)
    : agents_(std::move(make_agent)), clock_(std::move(clock)) {}

ActionError PlaySession::configure(const Settings& settings) {
  const session::Settings wanted = session_settings(settings);
  if (auto error = session::validate(wanted)) return "Bad settings: " + *error + ".";
  if (ActionError refused = check_opponent(settings)) return refused;
  if (!session_ || session_->seed() != settings.seed) {
    begin_series(session::Session::start(wanted, settings.seed, clock_()));
    return std::nullopt;
  }
  const session::Outcome changed =
      session_->act(session::ChangeSettingsIntent{wanted}, opponent(kComputerSide), clock_());
  if (!changed.accepted()) return changed.refusal->message;
  const bool restarted = std::any_of(changed.events.begin(), changed.events.end(), [](auto& e) {
    return std::holds_alternative<session::GameStarted>(e.body);
  });
  if (!restarted) session_->act(session::NewGameIntent{}, opponent(kComputerSide), clock_());
  absorb();
  return std::nullopt;
}

ActionError PlaySession::check_opponent(const Settings& settings) {
  if (settings.opponent == kFriend) return std::nullopt;
  // Built here only to refuse a bad spec before anything changes; the session builds its
  // own through the same maker when the computer first moves.
  auto made = agents_.maker_(settings.opponent, settings.seed);
  if (auto* error = std::get_if<AgentSpecError>(&made)) return error->message;
  if (auto why = std::get<std::unique_ptr<Agent>>(made)->cannot_play(settings.rules)) return *why;
  return std::nullopt;
}

void PlaySession::begin_series(session::Session series) {
  if (session_) earlier_.push_back(std::move(*session_));
  session_ = std::make_unique<session::Session>(std::move(series));
  narrated_ = 0;  // the new series' history is narrated from its start
  absorb();
}

ActionError PlaySession::adopt(session::Session series, const Settings& settings) {
  if (!(series.settings() == session_settings(settings)) || series.seed() != settings.seed) {
    return "The settings given are not the game's own.";
  }
  if (ActionError refused = check_opponent(settings)) return refused;
  begin_series(std::move(series));
  return std::nullopt;
}

ActionError PlaySession::set_automation(bool auto_play, bool auto_pass) {
  if (!session_) return std::nullopt;  // before the first game the menu's draft holds them
  Settings settings = next_settings();
  settings.auto_play = auto_play;
  settings.auto_pass = auto_pass;
  return act(session::ChangeSettingsIntent{session_settings(settings)}, opponent(kComputerSide));
}

void PlaySession::new_game() {
  act(session::NewGameIntent{}, opponent(kComputerSide));
}

Side PlaySession::person_seat() const {
  return against_computer() ? opponent(kComputerSide) : position().turn;
}

ActionError PlaySession::act(const session::Intent& intent, Side seat) {
  const session::Outcome outcome = session_->act(intent, seat, clock_());
  absorb();
  if (!outcome.accepted()) return outcome.refusal->message;
  return std::nullopt;
}

ActionError PlaySession::throw_dice() {
  return act(session::ThrowIntent{}, person_seat());
}

ActionError PlaySession::force_roll(Roll roll) {
  if (!possible_roll(rules(), roll)) {
    return "A roll is the distance the throw moves: " + std::to_string(min_roll(rules())) + " to " +
           std::to_string(rules().max_roll()) + " in these rules, got " + std::to_string(roll) +
           ".";
  }
  return act(session::ThrowIntent{session::dice_showing(rules(), roll)}, person_seat());
}

ActionError PlaySession::move(Square from) {
  return act(session::MoveIntent{from}, person_seat());
}

ActionError PlaySession::pass() {
  return act(session::PassIntent{}, person_seat());
}

ActionError PlaySession::resign() {
  return act(session::ResignIntent{}, person_seat());
}

ActionError PlaySession::take_back() {
  if (!against_computer()) return "Take-back is only for games against the computer.";
  return act(session::TakeBackIntent{}, person_seat());
}

bool PlaySession::computer_to_act() const {
  return session_ && session_->computer_to_act();
}

ActionError PlaySession::computer_step() {
  if (!computer_to_act()) return "It is not the computer's turn.";
  const session::Outcome outcome = session_->computer_step(agents_, clock_());
  absorb();
  if (!outcome.accepted()) return outcome.refusal->message;
  return std::nullopt;
}

ActionError PlaySession::computer_turn(const std::function<void()>& after_each) {
  // As the session's drive, bounded, but one step at a time so each can be shown.
  constexpr int kMaxSteps = 10'000;
  for (int step = 0; step < kMaxSteps && computer_to_act(); ++step) {
    if (ActionError error = computer_step()) return error;
    if (after_each) after_each();
  }
  return std::nullopt;
}

Settings PlaySession::next_settings() const {
  const auto& pending = session_->pending_settings();
  return pending ? play_settings(*pending, session_->seed()) : settings_;
}

Roll PlaySession::roll() const {
  const auto& pending = session_->pending_throw();
  return pending ? pending->roll : 0;
}

int PlaySession::game_number() const {
  int games = session_ ? session_->game_number() : 0;
  for (const session::Session& series : earlier_) games += series.game_number();
  return games;
}

std::array<int, 2> PlaySession::tally() const {
  std::array<int, 2> tally = session_ ? session_->tally() : std::array<int, 2>{};
  for (const session::Session& series : earlier_) {
    tally[0] += series.tally()[0];
    tally[1] += series.tally()[1];
  }
  return tally;
}

std::vector<records::GameRecord> PlaySession::records() const {
  std::vector<records::GameRecord> all;
  for (const session::Session& series : earlier_) {
    auto games = records::records_of_series(series);
    all.insert(all.end(), games.begin(), games.end());
  }
  if (session_) {
    auto games = records::records_of_series(*session_);
    all.insert(all.end(), games.begin(), games.end());
  }
  return all;
}

void PlaySession::set_hints(bool on) {
  hints_ = on;
  absorb_hints();
}

session::Voice PlaySession::voice() const {
  return against_computer() ? session::Voice::you_against(opponent(kComputerSide), "the computer")
                            : session::Voice::sides("light", "dark");
}

void PlaySession::absorb_hints() {
  // The session keeps the switch for each person's seat, so records carry the Hints tag;
  // a new series starts with the program's switch as it is.
  if (!session_) return;
  for (Side side : {Side::Light, Side::Dark}) {
    if (session_->settings().is_person(side) && session_->hints_on(side) != hints_) {
      session_->act(session::ShowHintsIntent{hints_}, side, clock_());
    }
  }
}

void PlaySession::absorb() {
  absorb_hints();
  settings_ = play_settings(session_->settings(), session_->seed());
  const session::Events& history = session_->history();
  const session::Voice words = voice();
  bool ended = false;
  for (; narrated_ < history.size(); ++narrated_) {
    const session::Event& event = history[narrated_];
    ended = ended || std::holds_alternative<session::GameEnded>(event.body);
    if (std::holds_alternative<session::GameStarted>(event.body)) dice_.reset();
    if (const auto* thrown = std::get_if<session::Thrown>(&event.body)) {
      dice_ = thrown->dice;
      dice_roll_ = thrown->roll;
    }
    std::string line = session::narrate(event, words, session_->rules());
    if (!line.empty()) log_.push_back(std::move(line));
  }
  // After a take-back the throw waiting again is the one on the dice.
  if (const auto& pending = session_->pending_throw()) {
    dice_ = pending->dice;
    dice_roll_ = pending->roll;
  }
  legal_ = session_->legal_moves();
  if (ended && on_game_end_) on_game_end_();  // last: the caches above are up to date
}

std::string PlaySession::side_label(Side side) const {
  if (against_computer() && side != kComputerSide) return "you";
  return std::string(side_name(side));
}

Side PlaySession::viewer() const {
  return against_computer() ? opponent(kComputerSide) : position().turn;
}

std::string PlaySession::move_squares(const Move& move) const {
  return move_squares_text(rules(), move);
}

std::string PlaySession::describe_move(const Move& move) const {
  std::string text = move_squares(move);
  if (move.from == 0) text += ", enters a new piece";
  if (move.to >= rules().home_square()) text += ", bears off";
  if (move.capture) {
    const Side victim = opponent(position().turn);
    text += ", captures " + (against_computer() && victim != kComputerSide
                                 ? std::string("your piece")
                                 : side_label(victim) + "'s piece");
  }
  // A rosette, or in Blitz a capture, earns the next throw.
  if (move.extra_throw) {
    text += (rules().extra_throw & square_bit(move.to)) != 0 ? ", rosette: throw again"
                                                             : ", throw again";
  }
  return text;
}

std::string PlaySession::pass_reason() const {
  if (phase() != Phase::Pass) return "";
  return why_pass(rules(), position(), roll());
}

ActionError continue_record(PlaySession& game, const records::GameRecord& record, std::size_t plies,
                            const Settings& settings) {
  if (!(settings.rules == record.rules)) return "The settings' rules are not the record's.";
  auto continued =
      records::continue_from(record, plies, session_settings(settings), settings.seed, game.now());
  if (auto* why = std::get_if<std::string>(&continued)) return *why;
  return game.adopt(std::get<session::Session>(std::move(continued)), settings);
}

}  // namespace ur::play
