#include "server/match_queue.h"

#include "server/seating.h"

namespace ur::server {

void MatchQueue::expire(session::Time now) {
  std::erase_if(entries_, [now](const auto& item) {
    const Entry& entry = item.second;
    if (entry.pairing) return now - entry.paired_at > kPairedTicketKeepMs;
    return !entry.taken && now - entry.polled > kTicketIdleMs;
  });
}

MatchQueue::Joined MatchQueue::join(const std::string& rules_key, const std::string& name,
                                    session::Time now) {
  std::lock_guard lock(mutex_);
  expire(now);
  Joined joined;
  const Entry* longest = nullptr;
  std::string longest_ticket;
  for (auto& [ticket, entry] : entries_) {
    if (entry.taken || entry.pairing || entry.rules_key != rules_key) continue;
    if (!longest || entry.since < longest->since) {
      longest = &entry;
      longest_ticket = ticket;
    }
  }
  do {
    joined.ticket = "q-" + random_hex(kTicketHexDigits);
  } while (entries_.contains(joined.ticket));
  Entry mine{rules_key, name, now, now, false, std::nullopt, 0};
  if (longest) {
    entries_[longest_ticket].taken = true;
    joined.partner = Partner{longest_ticket, longest->name};
    mine.taken = true;
  }
  entries_.emplace(joined.ticket, std::move(mine));
  return joined;
}

void MatchQueue::pair(const std::string& ticket, Pairing pairing, session::Time now) {
  std::lock_guard lock(mutex_);
  const auto found = entries_.find(ticket);
  if (found == entries_.end()) return;
  found->second.pairing = std::move(pairing);
  found->second.paired_at = now;
}

std::optional<MatchQueue::Status> MatchQueue::poll(const std::string& ticket, session::Time now) {
  std::lock_guard lock(mutex_);
  expire(now);
  const auto found = entries_.find(ticket);
  if (found == entries_.end()) return std::nullopt;
  Entry& entry = found->second;
  entry.polled = now;
  return Status{now - entry.since, entry.pairing};
}

bool MatchQueue::cancel(const std::string& ticket) {
  std::lock_guard lock(mutex_);
  return entries_.erase(ticket) > 0;
}

std::size_t MatchQueue::waiting(session::Time now) {
  std::lock_guard lock(mutex_);
  expire(now);
  std::size_t count = 0;
  for (const auto& [ticket, entry] : entries_) count += !entry.taken && !entry.pairing;
  return count;
}

}  // namespace ur::server
