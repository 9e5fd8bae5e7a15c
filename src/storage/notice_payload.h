// The payloads of the NOTIFY channel ("ur_games") on which servers sharing a PostgreSQL
// database tell each other what changed:
//   "g SERVER GAME VERSION [CHANGE]"  game GAME is stored at VERSION; CHANGE, what changed
//                                     since VERSION - 1, runs to the end when it fits;
//   "p SERVER GAME"                   who is connected to GAME through SERVER changed.
// SERVER and GAME hold no spaces. Plain string work, so the reading is tested on its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "storage/game_store.h"

namespace ur::storage {

// PostgreSQL refuses a NOTIFY payload of this many bytes or more (its default build).
inline constexpr std::size_t kMaxNoticeBytes = 8000;

// A game's notice; the change is left out when the payload would not fit in kMaxNoticeBytes
// (the others then load the game).
std::string game_notice_payload(const std::string& server_id, const std::string& game_id,
                                std::int64_t version, const std::string& change);
std::string presence_notice_payload(const std::string& server_id, const std::string& game_id);

// The notice a payload carries; nullopt for one sent by `own_server_id` and for anything that
// is not a notice as above (never throws).
std::optional<Notice> read_notice_payload(const std::string& payload,
                                          const std::string& own_server_id);

}  // namespace ur::storage
