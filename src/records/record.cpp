#include "records/record.h"

#include <algorithm>
#include <chrono>
#include <cstdio>

#include "core/explain.h"
#include "core/notation.h"
#include "records/rgn.h"

namespace ur::records {

using session::Event;
using session::Events;
using session::Session;

const std::string* GameRecord::tag(std::string_view key) const {
  for (const Tag& t : tags) {
    if (t.key == key) return &t.value;
  }
  return nullptr;
}

std::vector<int> turn_numbers(const std::vector<Ply>& plies) {
  std::vector<int> numbers;
  numbers.reserve(plies.size());
  int light_turns = 0;
  std::optional<Side> previous;
  for (const Ply& ply : plies) {
    if (ply.side != previous && ply.side == Side::Light) ++light_turns;
    previous = ply.side;
    numbers.push_back(light_turns);
  }
  return numbers;
}

namespace {

std::string side_word(Side side) {
  return side == Side::Light ? "light" : "dark";
}

std::string move_text(const Rules& rules, Side side, const Move& move) {
  Move plain = move;
  plain.capture = false;  // the sentence says what the move does; "x" would pre-empt it
  Ply ply{side, move.to - move.from, plain};
  std::string text = action_text(rules, ply);
  if (const auto star = text.find(" *"); star != std::string::npos) text.erase(star);
  return text;
}

}  // namespace

namespace {}  // namespace

std::optional<Position> start_position(const GameRecord& record) {
  const std::string* text = record.tag(kPositionTag);
  if (text == nullptr) return starting_position(record.rules, record.first);
  auto parsed = parse_text(*text, record.rules);
  if (std::holds_alternative<ur::ParseError>(parsed)) return std::nullopt;
  return std::get<Position>(parsed);
}

namespace {

// The game's first event: the opening position, or the one its Position tag names.
std::variant<session::GameStarted, std::string> game_start_of(const GameRecord& record) {
  const std::string* text = record.tag(kPositionTag);
  if (text == nullptr) return session::GameStarted{1, record.first, std::nullopt};
  auto parsed = parse_text(*text, record.rules);
  if (auto* error = std::get_if<ur::ParseError>(&parsed)) {
    return "the Position tag is not a position: " + error->message;
  }
  const Position from = std::get<Position>(parsed);
  return session::GameStarted{1, from.turn, from};
}

}  // namespace

std::variant<Replay, ReplayError> replay(const GameRecord& record) {
  session::Settings settings = session::between_friends();
  settings.rules = record.rules;
  if (auto error = session::validate(settings)) return ReplayError{0, *error};
  auto first = game_start_of(record);
  if (auto* error = std::get_if<std::string>(&first)) return ReplayError{0, *error};
  auto start = Session::from_history({Event{0, session::SeriesStarted{settings, 0, {}, 0}},
                                      Event{0, std::get<session::GameStarted>(std::move(first))}});
  if (auto* error = std::get_if<std::string>(&start)) {
    return ReplayError{0, "the Position tag cannot start a game: " + *error};
  }
  Replay result{{}, std::nullopt, std::get<Session>(std::move(start)), Position{}};
  result.start = result.session.position();
  Session& game = result.session;
  const std::vector<int> turns = turn_numbers(record.plies);
  // A game set up where one side already has every piece home is over before its first throw.
  const std::optional<Side> won_at_start = winner(record.rules, result.start);
  if (won_at_start && !record.plies.empty()) {
    return ReplayError{
        0, "turn " + std::to_string(turns[0]) + ": the game is already over at the Position tag (" +
               side_word(*won_at_start) + " has every piece home), yet the record goes on"};
  }
  for (std::size_t i = 0; i < record.plies.size(); ++i) {
    const Ply& ply = record.plies[i];
    const std::string where = "turn " + std::to_string(turns[i]) + ": ";
    auto fail = [&](const std::string& why) { return ReplayError{i, where + why}; };
    if (game.phase() == session::Phase::Over) {
      return fail("the game is already over (" + side_word(*game.winner()) +
                  " won), yet the record goes on");
    }
    if (ply.side != game.to_move()) {
      return fail("it is " + side_word(game.to_move()) + "'s turn, but the record has " +
                  side_word(ply.side) + " play");
    }
    if (!possible_roll(record.rules, ply.roll)) {
      return fail("a throw of " + std::to_string(ply.roll) + " is impossible; throws are " +
                  std::to_string(min_roll(record.rules)) + " to " +
                  std::to_string(record.rules.max_roll()));
    }
    const Position before = game.position();
    auto thrown =
        game.act(session::ThrowIntent{session::dice_showing(record.rules, ply.roll)}, ply.side, 0);
    if (!thrown.accepted()) return fail(thrown.refusal->message);
    if (ply.move) {
      const std::string text = move_text(record.rules, ply.side, *ply.move);
      const MoveList moves = legal_moves(record.rules, before, ply.roll);
      const Move* legal = find_move(moves, ply.move->from);
      if (legal == nullptr || legal->to != ply.move->to) {
        std::string why = describe(why_illegal(record.rules, before, ply.roll, ply.move->from),
                                   record.rules, ply.roll, ply.move->from);
        if (why.empty() || legal != nullptr) {
          why = "that piece would reach " +
                tile_name(record.rules, ply.side,
                          std::min<int>(ply.move->from + ply.roll, record.rules.home_square()));
        }
        return fail(side_word(ply.side) + " cannot play " + text + " with a throw of " +
                    std::to_string(ply.roll) + ": " + why);
      }
      if (legal->capture != ply.move->capture) {
        return fail(text + (legal->capture ? " captures, but the record does not mark it (x)"
                                           : " captures nothing, but the record marks a capture"));
      }
      game.act(session::MoveIntent{ply.move->from}, ply.side, 0);
    } else {
      const session::Outcome passed = game.act(session::PassIntent{}, ply.side, 0);
      if (!passed.accepted()) {
        const Move example = legal_moves(record.rules, before, ply.roll)[0];
        return fail(side_word(ply.side) + " passes a throw of " + std::to_string(ply.roll) +
                    ", but can play " + move_text(record.rules, ply.side, example));
      }
    }
    result.plies.push_back(PlayedPly{turns[i], ply, game.position()});
  }
  if (record.resigned && game.phase() != session::Phase::Over) {
    game.act(session::ResignIntent{}, *record.resigned, 0);
  }
  result.winner = won_at_start ? won_at_start : game.winner();
  return result;
}

std::string utc_text(session::Time time) {
  using namespace std::chrono;
  const sys_time<milliseconds> point{milliseconds{time}};
  const auto day = floor<days>(point);
  const year_month_day date{day};
  const hh_mm_ss clock{floor<seconds>(point - day)};
  char text[32];
  std::snprintf(text, sizeof text, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(date.year()),
                static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()),
                static_cast<int>(clock.hours().count()), static_cast<int>(clock.minutes().count()),
                static_cast<int>(clock.seconds().count()));
  return text;
}

namespace {

std::string player_name(const session::Seat& seat) {
  if (!seat.name.empty()) return seat.name;
  return seat.is_person() ? "Human" : "Computer";
}

void add_tag(std::vector<Tag>& tags, std::string key, std::string value) {
  const bool present =
      std::any_of(tags.begin(), tags.end(), [&](const Tag& t) { return t.key == key; });
  if (!present) tags.push_back({std::move(key), std::move(value)});
}

}  // namespace

GameRecord record_of_game(const Session& session, std::size_t game_start, std::vector<Tag> tags) {
  const Events& history = session.history();
  const auto& started = std::get<session::GameStarted>(history.at(game_start).body);
  // The settings the game was played under: the fold of the history up to its start.
  auto prefix = Session::from_history(
      Events(history.begin(), history.begin() + static_cast<std::ptrdiff_t>(game_start) + 1));
  const session::Settings settings = std::get<Session>(prefix).settings();
  // Sides that had live hints on at some time during the game.
  std::array<bool, 2> hinted{std::get<Session>(prefix).hints_on(Side::Light),
                             std::get<Session>(prefix).hints_on(Side::Dark)};

  GameRecord record;
  record.rules = settings.rules;
  record.first = started.first;
  struct Entry {
    std::size_t thrown_index;
    Ply ply;
    bool spent;
  };
  std::vector<Entry> entries;
  int take_backs = 0;
  std::optional<session::GameEnded> ended;
  session::Time end_time = 0;
  for (std::size_t i = game_start + 1; i < history.size(); ++i) {
    const Event& event = history[i];
    if (std::holds_alternative<session::GameStarted>(event.body) ||
        std::holds_alternative<session::SettingsChanged>(event.body)) {
      if (std::holds_alternative<session::GameStarted>(event.body)) break;
      if (std::get<session::SettingsChanged>(event.body).at_once) break;
      continue;
    }
    if (auto* thrown = std::get_if<session::Thrown>(&event.body)) {
      entries.push_back({i, Ply{thrown->side, thrown->roll, std::nullopt}, false});
    } else if (auto* moved = std::get_if<session::Moved>(&event.body)) {
      entries.back().ply.move = moved->move;
      entries.back().spent = true;
    } else if (std::holds_alternative<session::Passed>(event.body)) {
      entries.back().spent = true;
    } else if (auto* took = std::get_if<session::TookBack>(&event.body)) {
      ++take_backs;
      const std::size_t throw_index = took->move_index - 1;
      while (!entries.empty() && entries.back().thrown_index > throw_index) entries.pop_back();
      entries.back().ply.move.reset();
      entries.back().spent = false;
    } else if (auto* hints = std::get_if<session::HintsShown>(&event.body)) {
      if (hints->on && !ended) hinted[index_of(hints->side)] = true;
    } else if (auto* resigned = std::get_if<session::Resigned>(&event.body)) {
      record.resigned = resigned->side;
    } else if (auto* end = std::get_if<session::GameEnded>(&event.body)) {
      ended = *end;
      end_time = event.time;
    }
  }
  for (const Entry& entry : entries) {
    if (entry.spent) record.plies.push_back(entry.ply);
  }

  record.tags = std::move(tags);
  const std::vector<Tag> named = rules_tags(settings.rules);
  add_tag(record.tags, named.front().key, named.front().value);
  if (started.from) add_tag(record.tags, std::string(kPositionTag), to_text(*started.from));
  for (std::size_t i = 1; i < named.size(); ++i) add_tag(record.tags, named[i].key, named[i].value);
  for (Side side : {Side::Light, Side::Dark}) {
    const session::Seat& seat = settings.seat(side);
    const std::string key = side == Side::Light ? "Light" : "Dark";
    add_tag(record.tags, key, player_name(seat));
    if (!seat.is_person()) add_tag(record.tags, key + "Level", seat.agent);
  }
  add_tag(record.tags, "Seed", std::to_string(session.seed()));
  add_tag(record.tags, "StartTime", utc_text(history[game_start].time));
  if (ended) add_tag(record.tags, "EndTime", utc_text(end_time));
  add_tag(record.tags, "Result", !ended ? "*" : (ended->winner == Side::Light ? "1-0" : "0-1"));
  if (take_backs > 0) add_tag(record.tags, "TakeBacks", std::to_string(take_backs));
  if (hinted[0] || hinted[1]) {
    add_tag(record.tags, "Hints", hinted[0] && hinted[1] ? "both" : hinted[0] ? "light" : "dark");
  }
  return record;
}

std::vector<GameRecord> records_of_series(const Session& session) {
  const Events& history = session.history();
  std::vector<std::size_t> starts;
  for (std::size_t i = 0; i < history.size(); ++i) {
    if (auto* started = std::get_if<session::GameStarted>(&history[i].body)) {
      // A game restarted under new settings replaces its earlier start.
      if (!starts.empty() &&
          std::get<session::GameStarted>(history[starts.back()].body).number == started->number) {
        starts.back() = i;
      } else {
        starts.push_back(i);
      }
    }
  }
  std::vector<GameRecord> records;
  for (std::size_t start : starts) {
    GameRecord record = record_of_game(session, start);
    // A game left for the next before anything was played in it has nothing to keep.
    const bool abandoned = record.plies.empty() && !record.resigned && start != starts.back();
    if (!abandoned) records.push_back(std::move(record));
  }
  return records;
}

std::variant<Session, std::string> continue_from(const GameRecord& record, std::size_t plies,
                                                 const session::Settings& settings,
                                                 std::uint64_t seed, session::Time now) {
  if (!(settings.rules == record.rules)) {
    return std::string("the settings' rules are not the record's");
  }
  if (auto error = session::validate(settings)) return *error;
  if (plies > record.plies.size()) {
    return "the record has " + std::to_string(record.plies.size()) + " plies, not " +
           std::to_string(plies);
  }
  auto replayed = replay(record);
  if (auto* error = std::get_if<ReplayError>(&replayed)) return error->message;
  auto first = game_start_of(record);
  Events history{{now, session::SeriesStarted{settings, seed, {}, 0}},
                 {now, std::get<session::GameStarted>(std::move(first))}};
  for (std::size_t i = 0; i < plies; ++i) {
    const Ply& ply = record.plies[i];
    const session::Dice dice = session::dice_showing(record.rules, ply.roll);
    history.push_back({now, session::Thrown{ply.side, dice, ply.roll}});
    if (ply.move) {
      history.push_back({now, session::Moved{ply.side, ply.roll, *ply.move, false}});
    } else {
      history.push_back({now, session::Passed{ply.side, ply.roll, false}});
    }
  }
  const auto& played = std::get<Replay>(replayed).plies;
  if (plies > 0 && is_game_over(record.rules, played[plies - 1].after)) {
    return "the game is over after ply " + std::to_string(plies) + "; choose an earlier ply";
  }
  auto session = Session::from_history(std::move(history));
  if (auto* error = std::get_if<std::string>(&session)) return *error;
  return std::get<Session>(std::move(session));
}

}  // namespace ur::records
