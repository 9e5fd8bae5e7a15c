// `ur serve`: the web game on Boost.Beast, with games kept in SQLite or PostgreSQL
// (src/storage).
#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>

#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <stdexcept>
#include <system_error>
#include <vector>

#include "agents/agent.h"
#include "cli/command.h"
#include "cli/options.h"
#include "server/http_server.h"
#include "server/seating.h"
#include "storage/game_store.h"
#include "storage/sqlite_store.h"

namespace ur::cli {

namespace {

// This machine's addresses other devices may reach (not loopback), as URL hosts.
std::vector<std::string> network_addresses(bool with_ipv6) {
  std::vector<std::string> found;
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return found;
  for (const ifaddrs* entry = list; entry != nullptr; entry = entry->ifa_next) {
    if (entry->ifa_addr == nullptr || (entry->ifa_flags & IFF_LOOPBACK) != 0 ||
        (entry->ifa_flags & IFF_UP) == 0) {
      continue;
    }
    const int family = entry->ifa_addr->sa_family;
    if (family != AF_INET && !(with_ipv6 && family == AF_INET6)) continue;
    char text[INET6_ADDRSTRLEN] = {};
    const void* address =
        family == AF_INET ? static_cast<const void*>(
                                &reinterpret_cast<const sockaddr_in*>(entry->ifa_addr)->sin_addr)
                          : static_cast<const void*>(
                                &reinterpret_cast<const sockaddr_in6*>(entry->ifa_addr)->sin6_addr);
    if (inet_ntop(family, address, text, sizeof text) == nullptr) continue;
    const std::string host = family == AF_INET ? text : "[" + std::string(text) + "]";
    // Link-local IPv6 needs a zone to be reached; such a link would not open.
    if (family == AF_INET6 && host.starts_with("[fe80")) continue;
    found.push_back(host);
  }
  freeifaddrs(list);
  return found;
}

struct ServeOptions {
  server::ServerOptions server;
  std::string data_dir;
  std::string public_url;
  std::vector<std::string> allowed_origins;
  std::string database;       // --database URL; empty: games.sqlite3 under the data directory
  bool migrate_only = false;  // --migrate-only
  std::string import_sqlite;  // --import-sqlite FILE
  int drain_seconds = 0;      // --drain-seconds
};

// Opens the --database store, or says in one line why not (exit status 2).
std::shared_ptr<storage::GameStore> open_database(const ServeOptions& options,
                                                  const std::filesystem::path& data_dir) {
  // Names this process in a shared database (its notices and its sockets' presence).
  const std::string server_id = "s-" + server::random_hex(16);
  try {
    return storage::open_store(options.database, data_dir.string(), server_id);
  } catch (const std::invalid_argument& error) {
    std::cerr << "ur serve: --database: " << error.what() << "\n";
  } catch (const std::exception& error) {
    std::cerr << "ur serve: " << error.what() << "\n";
  }
  return nullptr;
}

// --import-sqlite FILE: copies a games.sqlite3 into the --database store.
int import_games(storage::GameStore& store, const std::string& file) {
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error)) {
    std::cerr << "ur serve: --import-sqlite: " << file << " is not a file\n";
    return kUsageError;
  }
  if (const auto why = storage::SqliteStore::not_a_game_store(file)) {
    std::cerr << "ur serve: --import-sqlite: " << file
              << " is not a games.sqlite3 of ur serve: " << *why << "\n";
    return kUsageError;
  }
  try {
    storage::SqliteStore source{std::filesystem::path(file)};
    if (source.location() == store.location()) {
      std::cerr << "ur serve: --import-sqlite: " << file << " is the --database itself\n";
      return kUsageError;
    }
    const auto copied = store.import_from(source);
    std::cout << "ur serve: imported " << copied.games << " games and " << copied.invites
              << " invites from " << file << " (" << copied.kept
              << " already there, left as they were)\n";
    return 0;
  } catch (const std::exception& failure) {
    std::cerr << "ur serve: --import-sqlite " << file << ": " << failure.what() << "\n";
    return kUsageError;
  }
}

// $XDG_DATA_HOME/ur, else ~/.local/share/ur (the XDG base directory default).
std::filesystem::path default_data_dir() {
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg != nullptr && *xdg == '/') {
    return std::filesystem::path(xdg) / "ur";
  }
  const char* home = std::getenv("HOME");
  return std::filesystem::path(home != nullptr && *home != '\0' ? home : ".") / ".local" / "share" /
         "ur";
}

int run_serve(ServeOptions options) {
  // Checked before anything is opened, so a mistyped origin changes nothing.
  try {
    if (!options.public_url.empty()) {
      options.server.trusted_origins.push_back(
          server::parse_origin_option(options.public_url, "--public-url"));
    }
    for (const auto& origin : options.allowed_origins) {
      options.server.trusted_origins.push_back(
          server::parse_origin_option(origin, "--allow-origin"));
    }
  } catch (const std::invalid_argument& error) {
    std::cerr << "ur serve: " << error.what() << "\nsee ur serve --help\n";
    return kUsageError;
  }
  const std::filesystem::path data_dir =
      options.data_dir.empty() ? default_data_dir() : std::filesystem::path(options.data_dir);
  std::error_code error;
  std::filesystem::create_directories(data_dir, error);
  if (error || !std::filesystem::is_directory(data_dir)) {
    std::cerr << "ur serve: cannot use the data directory " << data_dir << ": "
              << (error ? error.message() : "not a directory") << "\n";
    return 1;
  }
  const std::shared_ptr<storage::GameStore> store = open_database(options, data_dir);
  if (!store) return kUsageError;
  if (!options.import_sqlite.empty()) return import_games(*store, options.import_sqlite);
  if (options.migrate_only) {
    std::cout << "ur serve: database schema is at version " << storage::kSchemaVersion << " ("
              << store->location() << ")\n";
    return 0;
  }
  options.server.drain_grace = std::chrono::seconds(options.drain_seconds);
  try {
    server::HubOptions hub;
    hub.data_dir = data_dir;
    hub.store = store;
    hub.make_agent = [](std::string_view spec, std::uint64_t seed) {
      return make_agent(spec, seed);
    };
    server::HttpServer http(std::move(hub), options.server);
    // A wildcard address is not something to open; IPv6 addresses need brackets in a URL.
    std::string shown_host = options.server.host;
    if (shown_host == "0.0.0.0") shown_host = "127.0.0.1";
    if (shown_host == "::") shown_host = "::1";
    if (shown_host.find(':') != std::string::npos) shown_host = "[" + shown_host + "]";
    if (http.guard().wildcard()) {
      std::cerr << "ur serve: warning: listening on every network interface ("
                << options.server.host << "): anyone who can reach this machine on port "
                << http.port()
                << " can open the page, start games and watch any game whose link they have "
                   "(only a seat's token acts for it); open it by IP address, or name other host "
                   "names with --public-url or --allow-origin (docs/deploying.md)\n";
      // Invite links carry the page's address: opened by one of these, they reach a friend.
      for (const std::string& address : network_addresses(options.server.host == "::")) {
        std::cout << "ur serve: other devices open http://" << address << ":" << http.port()
                  << "/\n";
      }
    }
    http.run_until_signal([&] {
      if (!options.public_url.empty()) {
        std::cout << "ur serve: served at " << options.server.trusted_origins.front().text()
                  << "/ (through the proxy in front of it)\n";
      }
      std::cout << "ur serve: open http://" << shown_host << ":" << http.port() << "/ to play\n"
                << "ur serve: games are kept in " << store->location()
                << "; Ctrl-C stops the server\n"
                << std::flush;
    });
    std::cout << "ur serve: stopped; every game is saved\n";
    return 0;
  } catch (const std::exception& failure) {
    std::cerr << "ur serve: " << failure.what() << "\n";
    return 1;
  }
}

CommandRunner setup_serve(CLI::App& app) {
  auto options = std::make_shared<ServeOptions>();
  CLI::App* command = app.add_subcommand("serve", "Play in the browser: serve the web game");
  command
      ->add_option("--host", options->server.host,
                   "Address to listen on (127.0.0.1 keeps it private to this machine)")
      ->default_val("127.0.0.1");
  command->add_option("--port", options->server.port, "TCP port (0 picks a free one)")
      ->default_val(8080)
      ->check(CLI::Range(0, 65535));
  command
      ->add_option("--data", options->data_dir,
                   "Directory for the game database and the solved tables it builds "
                   "(default $XDG_DATA_HOME/ur, else ~/.local/share/ur)")
      ->check(cli::non_empty_path());
  command->add_option("--public-url", options->public_url,
                      "The origin the site is reached at behind a reverse proxy, e.g. "
                      "https://ur.example.org (its pages may play; see docs/deploying.md)");
  command->add_option("--allow-origin", options->allowed_origins,
                      "Another origin whose pages may play, e.g. http://myhost.lan:8080 "
                      "(repeatable)");
  CLI::Option* database =
      command->add_option("--database", options->database,
                          "Where games are kept: sqlite:PATH (default: games.sqlite3 under --data) "
                          "or postgresql://user[:password]@host[:port]/database, which several "
                          "servers may share (docs/deploying.md)");
  command->add_flag("--migrate-only", options->migrate_only,
                    "Create or migrate the database's schema, then exit");
  command
      ->add_option("--import-sqlite", options->import_sqlite,
                   "Copy every game of a games.sqlite3 file into --database, then exit")
      ->check(cli::non_empty_path());
  command
      ->add_option("--drain-seconds", options->drain_seconds,
                   "On SIGTERM, keep serving this long with /api/ready answering 503 before "
                   "closing, so a balancer moves new players elsewhere first")
      ->default_val(0)
      ->check(CLI::Range(0, 600));
  command
      ->add_option_function<std::string>(
          "--table-builds",
          [options](const std::string& value) {
            const auto policy = server::parse_table_builds(value);
            if (!policy) {
              throw CLI::ValidationError("--table-builds",
                                         "expected local, anyone or off, got \"" + value + "\"");
            }
            options->server.table_builds = *policy;
          },
          "Who may build the perfect opponent's tables from the page (every core, up to 7 GiB): "
          "local (players on this machine), anyone, or off")
      ->default_str("local");
  command->add_flag("--quiet,-q", options->server.quiet, "Do not log a line per request");
  return [options, database] {
    if (database->count() > 0 && options->database.empty()) {
      std::cerr << "ur serve: --database: expected sqlite:PATH or "
                   "postgresql://user[:password]@host[:port]/database, got an empty value\n";
      return kUsageError;
    }
    return run_serve(*options);
  };
}

const CommandRegistrar registrar{10, &setup_serve};

}  // namespace
}  // namespace ur::cli
