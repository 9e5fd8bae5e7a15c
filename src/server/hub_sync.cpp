// Several servers on one database: taking up what the others changed, and sharing presence.
#include "server/hub_impl.h"

namespace ur::server {

void GameHub::Impl::refresh(GameSlot& slot) {
  const auto stored = store->load(slot.game.id);
  if (!stored || static_cast<std::uint64_t>(stored->version) <= slot.game.version) return;
  WebGame fresh = read_stored(*stored);
  const std::size_t events = stored_events(*stored, fresh);
  take_up(slot, std::move(fresh), events);
}

void GameHub::Impl::take_up(GameSlot& slot, WebGame fresh, std::size_t stored_events) {
  fresh.presence = slot.game.presence;
  const std::size_t known = slot.game.session.history().size();
  const std::size_t first = std::min(known, fresh.session.history().size());
  slot.game = std::move(fresh);
  slot.stored_events = stored_events;
  if (slot.listeners.empty()) return;
  tell_listeners(slot, update_message(slot, web_events(slot.game.session, first), {}), false);
}

GameHub::Impl::SlotPtr GameHub::Impl::slot_for_socket(const std::string& id) {
  try {
    return find_or_load(id);
  } catch (const storage::Unavailable& error) {
    std::cerr << "ur serve: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "ur serve: internal error: " << error.what() << "\n";
  }
  return nullptr;
}

bool GameHub::Impl::refresh_if_behind(GameSlot& slot, std::int64_t stored_version) {
  if (stored_version <= static_cast<std::int64_t>(slot.game.version)) return false;
  refresh(slot);
  return true;
}

bool GameHub::Impl::refresh_if_stale(GameSlot& slot) {
  return refresh_if_behind(slot, store->version_of(slot.game.id));
}

void GameHub::Impl::on_notice(const storage::Notice& notice) {
  SlotPtr slot = cached_slot(notice.game_id);
  if (!slot) return;
  asio::post(slot->strand, [this, slot, notice] {
    guarded([](const ApiResponse&) {},
            [&] {
              if (notice.kind == storage::Notice::Kind::Game) {
                const auto version = static_cast<std::uint64_t>(notice.version);
                if (version <= slot->game.version) return;
                // The next version with its change: taken up without loading the game.
                std::optional<WebGame> next;
                if (version == slot->game.version + 1 && !notice.change.empty()) {
                  try {
                    next.emplace(game_with_change(slot->game, json::parse(notice.change), version));
                  } catch (const std::exception& error) {
                    std::cerr << "ur serve: loading game " << notice.game_id
                              << ", whose change cannot be taken up: " << error.what() << "\n";
                  }
                }
                if (next) {
                  // The saver stored its whole history: the one the change carries on to.
                  const std::size_t events = next->session.history().size();
                  take_up(*slot, std::move(*next), events);
                } else {
                  refresh(*slot);
                }
                return;
              }
              slot->elsewhere = sum(store->others_presence(slot->game.id));
              tell_presence(*slot);
            });
  });
}

void GameHub::Impl::on_resumed() {
  std::vector<SlotPtr> slots;
  {
    std::lock_guard lock(cache_mutex);
    for (const auto& [id, slot] : cache) slots.push_back(slot);
  }
  for (const SlotPtr& slot : slots) {
    asio::post(slot->strand, [this, slot] {
      guarded([](const ApiResponse&) {},
              [&] {
                refresh(*slot);
                slot->elsewhere = sum(store->others_presence(slot->game.id));
                tell_presence(*slot);
              });
    });
  }
}

void GameHub::Impl::sweep_stale_games() {
  std::unique_lock lock(sweep_mutex);
  while (!sweep_stop.wait_for(lock, options.stale_sweep_every, [this] { return sweep_stopping; })) {
    lock.unlock();
    std::vector<std::string> ids;
    std::vector<SlotPtr> slots;
    {
      std::lock_guard cached(cache_mutex);
      for (const auto& [id, slot] : cache) {
        ids.push_back(id);
        slots.push_back(slot);
      }
    }
    try {
      const std::vector<std::int64_t> stored = store->versions_of(ids);
      for (std::size_t i = 0; i < slots.size(); ++i) {
        // The slot's version is read on its strand; most are current and return at once.
        asio::post(slots[i]->strand, [this, slot = slots[i], version = stored[i]] {
          guarded([](const ApiResponse&) {}, [&] { refresh_if_behind(*slot, version); });
        });
      }
    } catch (const std::exception&) {
      // The database is away: on_resumed() takes every game up again once it is back.
    }
    lock.lock();
  }
}

void GameHub::Impl::stop_sweeping() {
  {
    std::lock_guard lock(sweep_mutex);
    sweep_stopping = true;
  }
  sweep_stop.notify_all();
  if (sweeper.joinable()) sweeper.join();
}

void GameHub::Impl::publish_presence(GameSlot& slot) {
  if (store->shared()) store->publish_presence(slot.game.id, stored_presence(slot.here));
}

}  // namespace ur::server
