// INTERIM stand-in for records::continue_from (see continue_from_interim.h): the record's
// first plies as a history the session checks, under the settings and seed given.
#include "play/continue_from_interim.h"

namespace ur::records {

std::variant<session::Session, std::string> continue_from(const GameRecord& record,
                                                          std::size_t plies,
                                                          const session::Settings& settings,
                                                          std::uint64_t seed, session::Time now) {
  if (!(settings.rules == record.rules))
    return std::string("the settings' rules are not the record's");
  if (auto error = session::validate(settings)) return *error;
  if (plies > record.plies.size()) {
    return "the record has " + std::to_string(record.plies.size()) + " plies, not " +
           std::to_string(plies);
  }
  auto replayed = replay(record);
  if (auto* error = std::get_if<ReplayError>(&replayed)) return error->message;
  session::Events history{{now, session::SeriesStarted{settings, seed}},
                          {now, session::GameStarted{1, record.first}}};
  for (std::size_t i = 0; i < plies; ++i) {
    const Ply& ply = record.plies[i];
    history.push_back(
        {now, session::Thrown{ply.side, session::dice_showing(record.rules, ply.roll), ply.roll}});
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
  auto session = session::Session::from_history(std::move(history));
  if (auto* error = std::get_if<std::string>(&session)) return *error;
  return std::get<session::Session>(std::move(session));
}

}  // namespace ur::records
