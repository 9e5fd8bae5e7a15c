#include "server/hub.h"

#include "server/hub_impl.h"

namespace ur::server {

std::size_t max_body_bytes(std::string_view target) {
  const std::string_view path = path_of(target);
  return path == "/api/records" || path == "/api/review" || path == kGamesPrefix
             ? kMaxRecordBodyBytes
             : kMaxBodyBytes;
}

ApiResponse error_response(const ApiError& error) {
  ApiResponse response{error.status(), error.details()};
  response.body["error"] = error.what();
  response.body["code"] = error.code();
  return response;
}

std::string GameHub::Impl::new_game_id() {
  static constexpr char kHex[] = "0123456789abcdef";
  for (;;) {
    std::uint64_t value = random_value();
    std::string id = "g-";
    for (std::size_t i = 0; i < kGameIdHexDigits; ++i, value >>= 4) id += kHex[value & 15];
    std::lock_guard lock(cache_mutex);
    if (!cache.contains(id) && store->version_of(id) == 0) return id;
  }
}

GameHub::Impl::SlotPtr GameHub::Impl::find_or_load(const std::string& id) {
  if (!is_game_id(id)) return nullptr;
  {
    std::lock_guard lock(cache_mutex);
    if (auto found = cache.find(id); found != cache.end()) return found->second;
  }
  const auto stored = store->load(id);
  if (!stored) return nullptr;
  auto slot = std::make_shared<GameSlot>(pool, read_stored(*stored));
  slot->stored_events = stored_events(*stored, slot->game);
  slot->here = Presence::since(now());
  SlotPtr cached;
  {
    std::lock_guard lock(cache_mutex);
    // Another thread may have loaded it meanwhile; keep theirs so there is one slot a game.
    cached = cache_slot(id, slot);
  }
  // The other servers' sockets, and a notice that came between the read and the caching
  // (it found no slot): taken up on the strand before any work posted after this returns.
  if (store->shared() && cached == slot) {
    asio::post(slot->strand, [this, slot] {
      guarded([](const ApiResponse&) {},
              [&] {
                refresh_if_stale(*slot);
                slot->elsewhere = sum(store->others_presence(slot->game.id));
                slot->game.presence = merged(slot->here, slot->elsewhere);
              });
    });
  }
  return cached;
}

Agent& GameHub::Impl::agent_for(const std::string& spec) {
  thread_local std::unordered_map<std::string, std::unique_ptr<Agent>> cached;
  auto& agent = cached[spec];
  if (!agent) {
    auto made = options.make_agent(spec, random_value());
    if (auto* error = std::get_if<AgentSpecError>(&made)) {
      cached.erase(spec);
      throw bad_settings("The opponent " + protocol::quote_json(spec) +
                         " is not available: " + error->message);
    }
    agent = std::move(std::get<std::unique_ptr<Agent>>(made));
  }
  return *agent;
}

void GameHub::Impl::check_opponent(const session::Settings& settings) {
  const std::string opponent = opponent_of(settings);
  if (opponent == kFriend) return;
  if (opponent == kPerfectOpponent) {
    if (auto unavailable = perfect_play_unavailable(settings.rules)) {
      throw bad_settings(*unavailable + " Choose another computer level.")
          .with_detail("perfect_play", *unavailable);
    }
  }
  if (auto why = agent_for(opponent).cannot_play(settings.rules)) {
    const std::string unavailable =
        "The opponent " + protocol::quote_json(opponent) + " is not available: ";
    // The page offers to build a missing table (POST /api/tables/build).
    if (opponent == kPerfectOpponent) {
      if (auto missing = missing_table(settings.rules)) {
        throw bad_settings(unavailable + missing_table_sentence(settings.rules))
            .with_detail("table_missing", std::move(*missing));
      }
    }
    throw bad_settings(unavailable + *why);
  }
}

namespace {
constexpr int kSharedStoreWorkers = 16;
}  // namespace

int default_worker_threads(const storage::GameStore& store) {
  if (store.shared()) return kSharedStoreWorkers;
  return std::max(4, static_cast<int>(std::thread::hardware_concurrency()));
}

std::shared_ptr<const std::string> GameHub::Impl::update_message(
    GameSlot& slot, json events, std::optional<std::chrono::steady_clock::time_point> began) {
  // The geometry is built only for sockets that do not have it: when the rules changed.
  const bool rules_sent =
      slot.sent.valid && slot.sent.rules == protocol::to_json(slot.game.session.rules());
  json state = game_state_json(slot.game, now(), rules_sent ? Geometry::Leave : Geometry::Include);
  protocol::shorten_update(state, slot.sent);
  json message = {{"type", "update"}, {"game", std::move(state)}, {"events", std::move(events)}};
  if (began) {
    message["server_ms"] =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *began)
            .count();
  }
  return std::make_shared<const std::string>(protocol::wire_text(message));
}

std::shared_ptr<const std::string> GameHub::Impl::first_update(GameSlot& slot) {
  json state = game_state_json(slot.game, now());
  const bool followed = std::any_of(slot.listeners.begin(), slot.listeners.end(),
                                    [](const auto& listener) { return !listener.expired(); });
  // The sockets already there complete the next update against the base; when this state is
  // not it (a change they were not sent), the next update goes out whole.
  if (!followed) {
    slot.sent.reset(state);
  } else if (!slot.sent.matches(state)) {
    slot.sent.valid = false;
  }
  json message = {{"type", "update"}, {"game", std::move(state)}, {"events", json::array()}};
  return std::make_shared<const std::string>(protocol::wire_text(message));
}

void GameHub::Impl::tell_listeners(GameSlot& slot,
                                   const std::shared_ptr<const std::string>& message,
                                   bool computer_step) {
  std::erase_if(slot.listeners, [&](const std::weak_ptr<GameListener>& weak) {
    const auto listener = weak.lock();
    if (listener) listener->on_game_update(message, computer_step);
    return !listener;
  });
}

void GameHub::Impl::commit(GameSlot& slot, WebGame next, std::size_t first, bool computer_step,
                           std::optional<std::chrono::steady_clock::time_point> began) {
  next.version = slot.game.version + 1;
  next.presence = slot.game.presence;  // sockets come and go while the intent is applied
  const session::Events& known = slot.game.session.history();
  const session::Events& after = next.session.history();
  // The events both histories begin with; the store is told only of the others.
  const std::size_t common = static_cast<std::size_t>(
      std::mismatch(known.begin(), known.end(), after.begin(), after.end()).first - known.begin());
  const bool extends = common == known.size();
  const storage::GameWrite write = stored_write(next, std::min(common, slot.stored_events));
  // The other servers holding the game take up the new events instead of loading it.
  std::string change;
  if (store->shared() && slot.game.version > 0 && extends) {
    change = stored_change(next, known.size()).dump();
  }
  if (!store->save(next.id, write, static_cast<std::int64_t>(next.version),
                   static_cast<std::int64_t>(slot.game.version), change)) {
    throw VersionConflict{};
  }
  slot.game = std::move(next);
  slot.stored_events = slot.game.session.history().size();
  if (slot.listeners.empty()) return;
  tell_listeners(slot, update_message(slot, web_events(slot.game.session, first), began),
                 computer_step);
}

void GameHub::Impl::tell_presence(GameSlot& slot) {
  slot.game.presence = merged(slot.here, slot.elsewhere);
  json state = seats_json(slot.game.seating, slot.game.presence, slot.game.session, now());
  json message = {{"type", "presence"},
                  {"game_id", slot.game.id},
                  {"seats", std::move(state["seats"])},
                  {"claim_win_after", std::move(state["claim_win_after"])},
                  {"server_time", std::move(state["server_time"])}};
  tell_listeners(slot, std::make_shared<const std::string>(protocol::wire_text(message)), false);
}

void GameHub::Impl::play_computer_turn(GameSlot& slot) {
  for (int step = 0; step < kMaxComputerSteps && slot.game.session.computer_to_act(); ++step) {
    WebGame next = slot.game;
    const std::size_t first = next.session.history().size();
    const session::Outcome outcome = next.session.computer_step(agents, now());
    if (!outcome.accepted()) {
      throw bad_settings("The computer cannot play: " + outcome.refusal->message);
    }
    try {
      commit(slot, std::move(next), first, true);
    } catch (const VersionConflict&) {
      refresh(slot);  // another server moved first: go on from its state
    }
  }
}

ApiResponse GameHub::Impl::game_response(const WebGame& game, std::size_t first, int status) {
  return {status,
          {{"game", game_state_json(game, now())}, {"events", web_events(game.session, first)}}};
}

void GameHub::Impl::on_game(const std::string& id, Reply reply,
                            std::function<ApiResponse(GameSlot&)> work, Freshness freshness) {
  SlotPtr slot = find_or_load(id);
  if (!slot) throw unknown_game(id);
  asio::post(
      slot->strand, [this, slot, reply = std::move(reply), work = std::move(work), freshness] {
        guarded(reply, [&] {
          // Another server may have changed the game since this one last heard of it (its notice
          // is on the way). An action's save is guarded by the version, so it is judged on what
          // this server knows, and again on the stored state if refused.
          bool checked = !store->shared();
          if (!checked && freshness == Freshness::CheckFirst) {
            refresh_if_stale(*slot);
            checked = true;
          }
          for (int attempt = 0;; ++attempt) {
            try {
              reply(work(*slot));
              return;
            } catch (const VersionConflict&) {
              // Lost the race: the action is judged again on the winner's state, as a second
              // tab's would be.
              if (attempt == kMaxVersionRetries) {
                throw ApiError(503, "busy", "The game changed too often to act on; try again.");
              }
              refresh(*slot);
            } catch (const ApiError&) {
              if (checked) throw;
              checked = true;
              if (!refresh_if_stale(*slot)) throw;  // refused on the stored game: it stands
            }
          }
        });
      });
}

void GameHub::Impl::guarded(const Reply& reply, const std::function<void()>& work) {
  try {
    work();
  } catch (const ApiError& error) {
    reply(error_response(error));
  } catch (const storage::Unavailable& error) {
    std::cerr << "ur serve: " << error.what() << "\n";
    reply(error_response(database_unavailable()));
  } catch (const VersionConflict&) {
    reply(error_response(ApiError(503, "busy", "The game changed meanwhile; try again.")));
  } catch (const std::exception& error) {
    std::cerr << "ur serve: internal error: " << error.what() << "\n";
    reply(error_response(
        ApiError(500, "internal", "The server failed to answer; the game is unchanged.")));
  }
}

void GameHub::Impl::route(const ApiRequest& request, const Reply& reply) {
  const std::string_view path = path_of(request.target);
  const std::string& method = request.method;
  if (path == "/api/health") {
    if (method != "GET") throw bad_method(method, "GET");
    reply(health());
    return;
  }
  if (path == "/api/ready") {
    if (method != "GET") throw bad_method(method, "GET");
    if (draining) {
      reply({503, {{"ready", false}, {"draining", true}}});
    } else {
      reply({200, {{"ready", true}}});
    }
    return;
  }
  if (path == kRuleSetsPath) {
    if (method != "GET") throw bad_method(method, "GET");
    reply({200, rule_sets_json()});
    return;
  }
  if (path == kTableBuildPath) {
    reply(table_build(method, request.body));
    return;
  }
  if (path == kReviewPath) {
    if (method != "POST") throw bad_method(method, "POST");
    reply(review(parse_body(request.body)));
    return;
  }
  if (path == kRecordsPath) {
    if (method != "POST") throw bad_method(method, "POST");
    reply(read_records(parse_body(request.body)));
    return;
  }
  if (path == kJoinPath) {
    if (method != "POST") throw bad_method(method, "POST");
    join(parse_body(request.body), reply);
    return;
  }
  if (path == kQrPath) {
    if (method != "POST") throw bad_method(method, "POST");
    reply(qr(parse_body(request.body)));
    return;
  }
  if (path == kQueuePath || path.starts_with(std::string(kQueuePath) + "/")) {
    queue_request(method, path, request.body, reply);
    return;
  }
  if (!path.starts_with(kGamesPrefix)) throw not_found(path);
  const auto parts = game_path_parts(path);
  if (parts.empty()) {
    if (method != "POST") throw bad_method(method, "POST");
    create_game(parse_body(request.body), reply);
    return;
  }
  const std::string id(parts[0]);
  const std::string token = request.seat_token;
  if (parts.size() == 1) {
    if (method != "GET") throw bad_method(method, "GET");
    on_game(id, reply, [this](GameSlot& slot) {
      const std::size_t first = slot.game.session.history().size();
      play_computer_turn(slot);
      return game_response(slot.game, first);
    });
    return;
  }
  if (parts.size() == 2 && parts[1] == "ws") {
    throw bad_request("/ws is a WebSocket: open it with a WebSocket upgrade request.");
  }
  if (parts.size() == 2 && parts[1] == kHelloAction) {
    throw bad_request(
        R"("hello" is a WebSocket message: send {"action":"hello","token":T} on /ws.)");
  }
  if (parts.size() == 2 && parts[1] == "hints" && method == "GET") {
    on_game(id, reply, [](GameSlot& slot) {
      refuse_while_online_game_runs(slot.game, "Hints are off");
      return ApiResponse{200, hints_json(slot.game.session)};
    });
    return;
  }
  if (parts.size() == 2 && parts[1] == "record") {
    if (method != "GET") throw bad_method(method, "GET");
    on_game(id, reply, [](GameSlot& slot) {
      refuse_while_online_game_runs(slot.game, "The record and its review are not offered");
      return series_record(slot.game);
    });
    return;
  }
  if (parts.size() == 2 && parts[1] == "invite") {
    if (method != "GET") throw bad_method(method, "GET");
    on_game(id, reply, [token](GameSlot& slot) {
      const Seating& seating = slot.game.seating;
      const auto held = require_seat(seating, token);
      if (!seating.online) {
        throw conflict("not_online", "This game is played on one device; it has no invite.");
      }
      // The seat the token holds, so that a page opened from a seat link knows its side.
      return ApiResponse{200,
                         {{"invite", seating.invite},
                          {"used", seating.invite_used},
                          {"side", side_name(held[0] ? Side::Light : Side::Dark)}}};
    });
    return;
  }
  if (parts.size() == 2 && parts[1] == "claim") {
    if (method != "POST") throw bad_method(method, "POST");
    require_only_members(parse_body(request.body), {}, "a claim");
    on_game(id, reply, [this](GameSlot& slot) { return claim_seats(slot); });
    return;
  }
  const auto action = parts.size() == 2 ? action_named(parts[1]) : std::nullopt;
  if (!action) throw not_found(path);
  if (method != "POST") throw bad_method(method, "POST");
  WebIntent intent = parse_intent(*action, parse_body(request.body));
  const bool from_socket = request.from_socket;
  auto act = [this, intent, token, from_socket](GameSlot& slot) mutable {
    const auto began = std::chrono::steady_clock::now();
    // Only the holder of a seat's token acts for that seat.
    const Side seat = authorize(slot.game.seating, slot.game.session, intent, token);
    const auto held = held_sides(slot.game.seating, token);
    if (held[0] != held[1]) intent.side = seat;
    // Another window (or a lost answer) has changed the game since the sender looked.
    if (intent.version && *intent.version != slot.game.version) {
      throw conflict("moved_on",
                     "The game moved on in another window; this page now shows where it is.");
    }
    const std::size_t first = slot.game.session.history().size();
    play_computer_turn(slot);  // finishes a turn a restart interrupted
    WebGame next = slot.game;
    const std::size_t intent_first = apply_intent(next, intent, now());
    if (intent.action == Action::New || intent.action == Action::Settings) {
      check_opponent(next.session.pending_settings().value_or(next.session.settings()));
      // A friend instead of the computer, or the other seat: the same person holds them.
      follow_settings(next.seating, next.session, token);
    }
    // Hints asked on while on, a rematch offered twice: nothing to store, no new version. On a
    // shared store the commit stays: its version check is what tells this server that another
    // one changed the game first (the intent is then judged again on the fresh game).
    if (store->shared() || !same_stored_state(slot.game, next)) {
      commit(slot, std::move(next), intent_first, false, began);
    }
    play_computer_turn(slot);
    // A socket's intent is answered by the updates it caused.
    if (from_socket) return ApiResponse{200, json::object()};
    return game_response(slot.game, first);
  };
  on_game(id, reply, std::move(act), Freshness::CheckOnRefusal);
}

ApiResponse GameHub::Impl::health() {
  json database = {{"backend", store->backend()}};
  try {
    store->ping();
    database["reachable"] = true;
    return {200, {{"ok", true}, {"database", std::move(database)}}};
  } catch (const std::exception& error) {
    database["reachable"] = false;
    database["error"] = error.what();
    return {503, {{"ok", false}, {"database", std::move(database)}}};
  }
}

void GameHub::Impl::refuse_while_online_game_runs(const WebGame& game, const std::string& what) {
  if (game.seating.online && game.session.phase() != session::Phase::Over) {
    throw conflict("online_fairness",
                   what + " in online games while the game runs; they are there when it ends.");
  }
}

session::Session GameHub::Impl::first_session(const json& body, std::uint64_t seed,
                                              std::optional<Side>& online_host) {
  auto patch = body.find("settings");
  json online_patch;
  if (patch != body.end() && patch->is_object()) {
    const auto opponent = patch->find("opponent");
    if (opponent != patch->end() && *opponent == kOnlineOpponent) {
      if (body.contains("from")) {
        throw bad_settings(
            "An online game starts from the beginning; play on from a record "
            "against the computer or a friend on this device.");
      }
      online_patch = *patch;
      online_patch["opponent"] = kFriend;
      online_patch.erase("seat");
      online_patch.erase("name");
      online_patch["starts"] = "alternate";  // a rematch is opened by the other player
      online_host = Side::Light;
      if (const auto seat = patch->find("seat"); seat != patch->end()) {
        const auto side =
            seat->is_string() ? side_from_name(seat->get<std::string>()) : std::nullopt;
        if (!side) {
          throw bad_request("setting \"seat\" must be \"light\" or \"dark\", got " +
                            protocol::quote_json(*seat));
        }
        online_host = *side;
      }
    }
  }
  session::Settings settings = default_web_settings();
  const auto from = body.find("from");
  records::GameRecord record;
  std::size_t plies = 0;
  if (from != body.end()) {
    record = continued_record(*from, plies);
    settings.rules = record.rules;  // the record's rules, whatever the settings say
  }
  if (patch != body.end()) {
    json members = online_host ? online_patch : *patch;
    if (from != body.end() && members.is_object()) {
      members.erase("pieces");
      members.erase("bear_off");
    }
    settings = merge_web_settings(settings, members);
  }
  if (online_host) {
    for (auto& seat : settings.seats) seat.name.clear();
    if (const auto name = patch->find("name"); name != patch->end()) {
      settings.seats[index_of(*online_host)].name = player_name(*name, "name");
    }
  }
  check_opponent(settings);
  if (from == body.end()) return session::Session::start(settings, seed, now());
  auto continued = records::continue_from(record, plies, settings, seed, now());
  if (auto* error = std::get_if<std::string>(&continued)) {
    throw bad_record("Cannot play on from ply " + std::to_string(plies) + ": " + *error + ".");
  }
  return std::get<session::Session>(std::move(continued));
}

void GameHub::Impl::create_game(const json& body, const Reply& reply) {
  require_only_members(body, {"settings", "from"}, "a new game request");
  std::optional<Side> online_host;
  session::Session session = first_session(body, random_value(), online_host);
  Seating seating = new_seating(session.settings(), online_host);
  WebGame game{new_game_id(), 0, std::move(session), seating};
  game.presence = Presence::since(now());
  const std::string id = game.id;
  if (online_host) store->save_invite(seating.invite, id);
  // The creator's seat token (both seats between friends on one device).
  const std::string token =
      seating.token(online_host.value_or(person_side(game.session.settings())));
  // A continued game's earlier plies are not news to the page: its events start after them.
  const std::size_t first = body.contains("from") ? game.session.history().size() : 0;
  auto slot = std::make_shared<GameSlot>(pool, std::move(game));
  asio::post(slot->strand, [this, slot, id, first, reply, token, seating] {
    guarded(reply, [&] {
      commit(*slot, slot->game, first, false);
      {
        std::lock_guard lock(cache_mutex);
        cache_slot(id, slot);
      }
      play_computer_turn(*slot);
      ApiResponse response = game_response(slot->game, first, 201);
      response.body["token"] = token;
      if (!seating.invite.empty()) response.body["invite"] = seating.invite;
      reply(std::move(response));
    });
  });
}

GameHub::GameHub(HubOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

GameHub::~GameHub() {
  join_workers();
}

void GameHub::join_workers() {
  impl_->stop_sweeping();
  impl_->pool.join();
}

void GameHub::submit(ApiRequest request, Reply reply) {
  {
    std::lock_guard lock(impl_->drain_mutex);
    ++impl_->in_flight;
  }
  Impl* impl = impl_.get();
  auto once = [impl, reply = std::move(reply)](ApiResponse response) {
    reply(std::move(response));
    impl->finished();
  };
  // route() either answers at once (health, errors) or hands `once` on to a game's strand.
  asio::post(impl->pool, [impl, request = std::move(request), once = std::move(once)] {
    Impl::guarded(once, [&] { impl->route(request, once); });
  });
}

ApiResponse GameHub::handle(ApiRequest request) {
  std::promise<ApiResponse> answer;
  auto future = answer.get_future();
  submit(std::move(request),
         [&answer](ApiResponse response) { answer.set_value(std::move(response)); });
  return future.get();
}

void GameHub::subscribe(const std::string& id, std::weak_ptr<GameListener> listener,
                        std::function<void(Subscription)> done) {
  Impl* impl = impl_.get();
  asio::post(impl->pool, [impl, id, listener = std::move(listener), done = std::move(done)] {
    const Impl::SlotPtr slot = impl->slot_for_socket(id);
    if (!slot) {
      done(nullptr);
      return;
    }
    asio::post(slot->strand, [impl, slot, listener, done] {
      if (const auto live = listener.lock()) {
        live->on_game_update(impl->first_update(*slot), false);
        slot->listeners.push_back(listener);
      }
      done(slot);
      Impl::guarded([](const ApiResponse&) {}, [&] { impl->play_computer_turn(*slot); });
    });
  });
}

void GameHub::start_draining() {
  impl_->draining = true;
}

void GameHub::drain() {
  std::unique_lock lock(impl_->drain_mutex);
  impl_->drained.wait(lock, [this] { return impl_->in_flight == 0; });
}

}  // namespace ur::server
