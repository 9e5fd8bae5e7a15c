// Quick match as the hub sees it: the queue of this server (MatchQueue, in memory) when it
// owns its store, or the store's shared queue when several servers share one database, so
// that players waiting on different servers are paired.
#pragma once

#include <optional>
#include <string>

#include "server/match_queue.h"
#include "storage/game_store.h"

namespace ur::server {

class QuickMatch {
 public:
  // `store` outlives this.
  explicit QuickMatch(storage::GameStore& store) : store_(store) {}

  MatchQueue::Joined join(const std::string& rules_key, const std::string& name, session::Time now);
  void pair(const std::string& ticket, const Pairing& pairing, session::Time now);
  std::optional<MatchQueue::Status> poll(const std::string& ticket, session::Time now);
  bool cancel(const std::string& ticket);

 private:
  bool shared() const { return store_.has_queue(); }

  storage::GameStore& store_;
  MatchQueue local_;
};

}  // namespace ur::server
