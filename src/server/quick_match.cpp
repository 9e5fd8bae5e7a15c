#include "server/quick_match.h"

#include "core/notation.h"
#include "server/seating.h"
#include "server/web_settings.h"

namespace ur::server {

MatchQueue::Joined QuickMatch::join(const std::string& rules_key, const std::string& name,
                                    session::Time now) {
  if (!shared()) return local_.join(rules_key, name, now);
  storage::Ticket entry;
  entry.ticket = "q-" + random_hex(kTicketHexDigits);
  entry.rules_key = rules_key;
  entry.name = name;
  entry.since = now;
  entry.polled = now;
  MatchQueue::Joined joined{entry.ticket, std::nullopt};
  if (auto partner = store_.queue_join(entry, now - kTicketIdleMs)) {
    joined.partner = MatchQueue::Partner{partner->ticket, partner->name};
  }
  return joined;
}

void QuickMatch::pair(const std::string& ticket, const Pairing& pairing, session::Time now) {
  if (!shared()) {
    local_.pair(ticket, pairing, now);
    return;
  }
  storage::Ticket paired;
  paired.ticket = ticket;
  paired.game_id = pairing.game_id;
  paired.token = pairing.token;
  paired.side = std::string(side_name(pairing.side));
  paired.paired_at = now;
  store_.queue_pair(paired);
}

std::optional<MatchQueue::Status> QuickMatch::poll(const std::string& ticket, session::Time now) {
  if (!shared()) return local_.poll(ticket, now);
  const auto found = store_.queue_poll(ticket, now, now - kTicketIdleMs, now - kPairedTicketKeepMs);
  if (!found) return std::nullopt;
  MatchQueue::Status status;
  status.waiting_ms = now - found->since;
  if (!found->game_id.empty()) {
    status.pairing =
        Pairing{found->game_id, found->token, side_from_name(found->side).value_or(Side::Light)};
  }
  return status;
}

bool QuickMatch::cancel(const std::string& ticket) {
  return shared() ? store_.queue_cancel(ticket) : local_.cancel(ticket);
}

}  // namespace ur::server
