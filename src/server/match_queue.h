// Quick match: players who asked for "someone online" wait here, one queue per rule set,
// until a second player with the same rules comes; the two are then paired into one online
// game. Pure logic with the clock passed in; the hub creates the game and stores nothing of
// the queue (a restart empties it, and pages simply ask again).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "core/types.h"
#include "session/event.h"

namespace ur::server {

inline constexpr std::size_t kTicketHexDigits = 32;
// A waiting ticket not polled for this long is dropped (its page is gone): milliseconds.
inline constexpr session::Time kTicketIdleMs = 15'000;
// A paired ticket answers its game this long after pairing, so a lost answer can be asked again.
inline constexpr session::Time kPairedTicketKeepMs = 60'000;

// The game a ticket was paired into: the seat its holder plays and that seat's token.
struct Pairing {
  std::string game_id;
  std::string token;
  Side side = Side::Light;
};

class MatchQueue {
 public:
  struct Partner {
    std::string ticket;
    std::string name;
  };
  struct Joined {
    std::string ticket;              // "q-" + 32 hex digits
    std::optional<Partner> partner;  // who waited longest under the same rules, now taken
  };
  // Puts a player in the queue for `rules_key`. When someone waits there already, that one is
  // taken off the queue and returned: the caller pairs both with pair(). Expired tickets go
  // first.
  Joined join(const std::string& rules_key, const std::string& name, session::Time now);
  // Records the game `ticket`'s holder was paired into (a ticket since cancelled is ignored).
  void pair(const std::string& ticket, Pairing pairing, session::Time now);

  struct Status {
    session::Time waiting_ms = 0;
    std::optional<Pairing> pairing;
  };
  // The ticket's state, marking it polled; nothing for an unknown or expired ticket.
  std::optional<Status> poll(const std::string& ticket, session::Time now);
  // Takes the ticket off the queue; false when it is not known.
  bool cancel(const std::string& ticket);
  // Number of players waiting (tests).
  std::size_t waiting(session::Time now);

 private:
  struct Entry {
    std::string rules_key;
    std::string name;
    session::Time since = 0;
    session::Time polled = 0;
    bool taken = false;  // handed to a partner; the pairing follows
    std::optional<Pairing> pairing;
    session::Time paired_at = 0;
  };
  void expire(session::Time now);  // call with mutex_ held

  std::mutex mutex_;
  std::map<std::string, Entry> entries_;  // by ticket
};

}  // namespace ur::server
