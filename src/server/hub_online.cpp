// Online games: joining by invite, claiming old games, quick match, QR codes and presence.
#include "server/hub_impl.h"

namespace ur::server {

ApiResponse GameHub::Impl::claim_seats(GameSlot& slot) {
  if (!slot.game.seating.claimable) {
    throw conflict("already_claimed",
                   "This game's seats are held already; open it from the browser that holds "
                   "its seat token, or watch it.");
  }
  WebGame next = slot.game;
  next.seating = new_seating(next.session.settings(), std::nullopt);
  const std::string token = next.seating.tokens[index_of(person_side(next.session.settings()))];
  commit(slot, std::move(next), slot.game.session.history().size(), false);
  ApiResponse response = game_response(slot.game, slot.game.session.history().size());
  response.body["token"] = token;
  return response;
}

void GameHub::Impl::join(const json& body, const Reply& reply) {
  require_only_members(body, {"invite", "name"}, "a join request");
  const auto invite = body.find("invite");
  if (invite == body.end() || !invite->is_string() ||
      !is_hex_text(invite->get_ref<const std::string&>(), kInviteHexDigits)) {
    throw bad_request(
        R"(A join request needs "invite": the 32 hexadecimal digits after #join= in the invite link.)");
  }
  std::string name;
  if (const auto given = body.find("name"); given != body.end()) name = player_name(*given, "name");
  const auto id = store->find_invite(invite->get<std::string>());
  if (!id) {
    throw ApiError(404, "unknown_invite",
                   "No game has this invite; ask your friend for a new link.");
  }
  const std::string code = invite->get<std::string>();
  const std::uint64_t seed = random_value();
  on_game(*id, reply, [this, code, name, seed](GameSlot& slot) {
    const auto seat = free_seat(slot.game.seating);
    if (!seat || !same_secret(slot.game.seating.invite, code)) {
      throw conflict("invite_used",
                     "This invite has been used: both seats are taken. You can watch the game.")
          .with_detail("game_id", slot.game.id);
    }
    WebGame next = slot.game;
    const std::string token = random_hex(kTokenHexDigits);
    const std::size_t first = seat_friend(next, *seat, name, token, seed, now());
    commit(slot, std::move(next), first, false);
    ApiResponse response = game_response(slot.game, first);
    response.body["token"] = token;
    response.body["side"] = side_name(*seat);
    return response;
  });
}

ApiResponse GameHub::Impl::qr(const json& body) {
  require_only_members(body, {"text"}, "a QR request");
  const auto text = body.find("text");
  if (text == body.end() || !text->is_string() || text->get_ref<const std::string&>().empty() ||
      text->get_ref<const std::string&>().size() > kMaxQrTextBytes) {
    throw bad_request(R"(A QR request needs "text": the link to encode, 1 to )" +
                      std::to_string(kMaxQrTextBytes) + " bytes.");
  }
  auto svg = qr_svg(text->get<std::string>());
  if (!svg) throw bad_request("This text cannot be drawn as a QR code.");
  return {200, {{"svg", std::move(*svg)}}};
}

void GameHub::Impl::queue_request(const std::string& method, std::string_view path,
                                  const std::string& body, const Reply& reply) {
  if (path == kQueuePath) {
    if (method != "POST") throw bad_method(method, "POST");
    enqueue(parse_body(body), reply);
    return;
  }
  const std::string ticket(path.substr(kQueuePath.size() + 1));
  if (!ticket.starts_with("q-") ||
      !is_hex_text(std::string_view(ticket).substr(2), kTicketHexDigits)) {
    throw bad_request("A ticket is \"q-\" and 32 hexadecimal digits, as POST /api/queue gave it.");
  }
  if (method == "DELETE") {
    if (!match_queue.cancel(ticket)) throw unknown_ticket();
    reply({200, {{"ticket", ticket}, {"cancelled", true}}});
    return;
  }
  if (method != "GET") throw bad_method(method, "GET or DELETE");
  const auto status = match_queue.poll(ticket, now());
  if (!status) throw unknown_ticket();
  reply({200, ticket_json(ticket, *status)});
}

ApiError GameHub::Impl::unknown_ticket() {
  return ApiError(404, "unknown_ticket",
                  "This ticket is not in the queue (it was cancelled, or not asked about for "
                  "15 seconds); join again with POST /api/queue.");
}

json GameHub::Impl::ticket_json(const std::string& ticket, const MatchQueue::Status& status) {
  json answer = {{"ticket", ticket}, {"waiting_ms", status.waiting_ms}};
  if (status.pairing) {
    answer["game_id"] = status.pairing->game_id;
    answer["token"] = status.pairing->token;
    answer["side"] = side_name(status.pairing->side);
  }
  return answer;
}

void GameHub::Impl::enqueue(const json& body, const Reply& reply) {
  require_only_members(body, {"rules", "name"}, "a quick match request");
  session::Settings settings =
      merge_web_settings(default_web_settings(), json{{"opponent", kFriend}});
  if (const auto rules = body.find("rules"); rules != body.end()) {
    settings = merge_web_settings(settings, json{{"rules", *rules}});
  }
  std::string name;
  if (const auto given = body.find("name"); given != body.end()) name = player_name(*given, "name");
  const std::string key = protocol::to_json(settings.rules).dump();
  const auto joined = match_queue.join(key, name, now());
  if (!joined.partner) {
    reply({200, {{"ticket", joined.ticket}, {"waiting_ms", 0}}});
    return;
  }
  // The one who waited longer plays light and opens the first game.
  settings.starts = session::StartRule::Alternate;
  settings.seats[index_of(Side::Light)].name = joined.partner->name;
  settings.seats[index_of(Side::Dark)].name = name;
  Seating seating = new_seating(settings, Side::Light);
  seating.tokens[index_of(Side::Dark)] = random_hex(kTokenHexDigits);
  seating.invite_used = true;
  WebGame game{new_game_id(), 0, session::Session::start(settings, random_value(), now()), seating};
  game.presence = Presence::since(now());
  const std::string id = game.id;
  const Pairing theirs{id, seating.token(Side::Light), Side::Light};
  const Pairing mine{id, seating.token(Side::Dark), Side::Dark};
  auto slot = std::make_shared<GameSlot>(pool, std::move(game));
  asio::post(slot->strand, [this, slot, id, joined, theirs, mine, reply] {
    guarded(reply, [&] {
      commit(*slot, slot->game, 0, false);
      {
        std::lock_guard lock(cache_mutex);
        cache_slot(id, slot);
      }
      // Only a stored game is handed out: the partner's next poll finds it.
      match_queue.pair(joined.partner->ticket, theirs, now());
      match_queue.pair(joined.ticket, mine, now());
      reply({200, ticket_json(joined.ticket, MatchQueue::Status{0, mine})});
    });
  });
}

namespace {

// Keeps the seats a socket said hello for connected; its end marks them gone. Lives as long
// as the socket, which may outlast requests: it holds the slot, not the game.
template <typename Slot, typename Left>
class PresenceHandle {
 public:
  PresenceHandle(std::shared_ptr<Slot> slot, std::array<bool, 2> held, Left left)
      : slot_(std::move(slot)), held_(held), left_(std::move(left)) {}
  ~PresenceHandle() { left_(slot_, held_); }
  PresenceHandle(const PresenceHandle&) = delete;
  PresenceHandle& operator=(const PresenceHandle&) = delete;

 private:
  std::shared_ptr<Slot> slot_;
  std::array<bool, 2> held_;
  Left left_;
};

}  // namespace

void GameHub::hello(const std::string& id, const std::string& token,
                    std::function<void(Subscription, std::optional<ApiResponse>)> done) {
  Impl* impl = impl_.get();
  asio::post(impl->pool, [impl, id, token, done = std::move(done)] {
    const Impl::SlotPtr slot = impl->slot_for_socket(id);
    if (!slot) {
      done(nullptr, error_response(unknown_game(id)));
      return;
    }
    asio::post(slot->strand, [impl, slot, token, done] {
      std::array<bool, 2> held{};
      try {
        held = require_seat(slot->game.seating, token);
      } catch (const ApiError& error) {
        done(nullptr, error_response(error));
        return;
      }
      Presence& presence = slot->here;
      for (Side side : {Side::Light, Side::Dark}) {
        if (!held[index_of(side)]) continue;
        ++presence.sockets[index_of(side)];
        presence.seen[index_of(side)] = true;
      }
      Impl::guarded([](const ApiResponse&) {}, [&] { impl->publish_presence(*slot); });
      impl->tell_presence(*slot);
      auto left = [impl](const Impl::SlotPtr& gone, std::array<bool, 2> sides) {
        asio::post(gone->strand, [impl, gone, sides] {
          Presence& seats = gone->here;
          for (Side side : {Side::Light, Side::Dark}) {
            if (!sides[index_of(side)]) continue;
            if (--seats.sockets[index_of(side)] == 0) seats.left_at[index_of(side)] = impl->now();
          }
          Impl::guarded([](const ApiResponse&) {}, [&] { impl->publish_presence(*gone); });
          impl->tell_presence(*gone);
        });
      };
      done(std::make_shared<PresenceHandle<Impl::GameSlot, decltype(left)>>(slot, held, left),
           std::nullopt);
    });
  });
}

}  // namespace ur::server
