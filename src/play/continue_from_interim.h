// INTERIM, until records::continue_from lands on main (src/records/record.h): its agreed
// declaration, so the play area builds against it now. Delete this file and its .cpp when
// main is merged; the linker says so if one is forgotten.
#pragma once

#include <cstdint>
#include <string>
#include <variant>

#include "records/record.h"
#include "session/session.h"

namespace ur::records {

// A new series whose first game is `record`'s game after its first `plies` plies (their
// rolls and moves), played on under `settings` (whose rules must be the record's) with
// dice keyed by `seed` from then on. A sentence says why when `plies` is past the record's
// end or the game is over by then.
std::variant<session::Session, std::string> continue_from(const GameRecord& record,
                                                          std::size_t plies,
                                                          const session::Settings& settings,
                                                          std::uint64_t seed, session::Time now);

}  // namespace ur::records
