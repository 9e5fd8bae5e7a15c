// The storage suite: every test runs against both backends, SQLite in a temporary directory and
// PostgreSQL on a throwaway cluster started for this run (scripts/pg-cluster.sh). A test of
// what only a shared store does (notices, shared presence and queue) runs on PostgreSQL alone.
#include <gtest/gtest.h>
#include <libpq-fe.h>
#include <rapidcheck/gtest.h>
#include <sqlite3.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <mutex>
#include <random>
#include <string>
#include <thread>

#include "storage/game_store.h"
#include "storage/postgres_store.h"
#include "storage/sqlite_store.h"
#include "storage/test_cluster.h"

namespace ur::storage {
namespace {

using Cluster = TestCluster;

const auto* const cluster = ::testing::AddGlobalTestEnvironment(new Cluster);

// Saves `record` as a head without events (these tests are about the versions and the
// tables, not the history: EventsAreKeptOneARow is).
bool save_whole(GameStore& store, const std::string& id, int format, const std::string& record,
                std::int64_t version, std::int64_t expected, const std::string& change = "") {
  return store.save(id, GameWrite{format, record, 0, {}}, version, expected, change);
}

enum class Backend { Sqlite, Postgres };

class StoreSuite : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    directory_ = fresh_directory("ur-store-suite-");
    location_ = GetParam() == Backend::Sqlite ? (directory_ / "games.sqlite3").string()
                                              : Cluster::new_database();
  }
  void TearDown() override { std::filesystem::remove_all(directory_); }

  std::unique_ptr<GameStore> open(const std::string& server = "s1") {
    if (GetParam() == Backend::Sqlite) return std::make_unique<SqliteStore>(location_);
    return std::make_unique<PostgresStore>(location_, server, 2);
  }
  // Sets the recorded schema version behind the store's back.
  void set_schema_version(int version) {
    if (GetParam() == Backend::Sqlite) {
      sqlite3* db = nullptr;
      ASSERT_EQ(sqlite3_open(location_.c_str(), &db), SQLITE_OK);
      sqlite3_exec(db, ("PRAGMA user_version=" + std::to_string(version)).c_str(), nullptr, nullptr,
                   nullptr);
      sqlite3_close(db);
      return;
    }
    run_sql("UPDATE ur_schema SET version = " + std::to_string(version));
  }
  // Runs `sql` on the database behind the store's back; false when it failed.
  bool run_sql(const std::string& sql) {
    if (GetParam() == Backend::Sqlite) {
      sqlite3* db = nullptr;
      if (sqlite3_open(location_.c_str(), &db) != SQLITE_OK) return false;
      const bool ran = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, nullptr) == SQLITE_OK;
      sqlite3_close(db);
      return ran;
    }
    PGconn* db = PQconnectdb(location_.c_str());
    PGresult* result = PQexec(db, sql.c_str());
    const bool ran = PQresultStatus(result) == PGRES_COMMAND_OK;
    PQclear(result);
    PQfinish(db);
    return ran;
  }

  std::filesystem::path directory_;
  std::string location_;
};

INSTANTIATE_TEST_SUITE_P(Backends, StoreSuite,
                         ::testing::Values(Backend::Sqlite, Backend::Postgres),
                         [](const ::testing::TestParamInfo<Backend>& param_info) {
                           return param_info.param == Backend::Sqlite ? "Sqlite" : "Postgres";
                         });

TEST_P(StoreSuite, SavedGameLoadsWithItsFormatRecordAndVersion) {
  auto store = open();
  EXPECT_TRUE(save_whole(*store, "g-1", 2, R"({"a":1})", 1, 0));
  const auto loaded = store->load("g-1");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->format, 2);
  EXPECT_EQ(loaded->record, R"({"a":1})");
  EXPECT_EQ(loaded->version, 1);
  EXPECT_EQ(store->version_of("g-1"), 1);
  EXPECT_FALSE(store->load("g-2"));
  EXPECT_EQ(store->version_of("g-2"), 0);
}

// A record as the server writes it: a head and a history of events.
GameWrite game_write(std::size_t first, std::vector<std::string> events, int version) {
  return GameWrite{2, R"({"format":2,"id":"g-1","version":)" + std::to_string(version) + "}", first,
                   std::move(events)};
}

std::string whole_record(const std::string& events, int version) {
  return R"({"history":[)" + events + R"(],"format":2,"id":"g-1","version":)" +
         std::to_string(version) + "}";
}

TEST_P(StoreSuite, EventsAreKeptOneARowAppendedCutAndReplaced) {
  auto store = open();
  ASSERT_TRUE(store->save("g-1", game_write(0, {R"({"n":0})", R"({"n":1})"}, 1), 1, 0));
  EXPECT_EQ(store->load("g-1")->record, whole_record(R"({"n":0},{"n":1})", 1));
  // Appended: the first two stay as they are.
  ASSERT_TRUE(store->save("g-1", game_write(2, {R"({"n":2})"}, 2), 2, 1));
  EXPECT_EQ(store->load("g-1")->record, whole_record(R"({"n":0},{"n":1},{"n":2})", 2));
  // A take-back cuts the history.
  ASSERT_TRUE(store->save("g-1", game_write(1, {}, 3), 3, 2));
  EXPECT_EQ(store->load("g-1")->record, whole_record(R"({"n":0})", 3));
  // Events after the first are replaced, and the history grows again.
  ASSERT_TRUE(store->save("g-1", game_write(1, {R"({"m":"a,b"})", R"({"m":"\"q\""})"}, 4), 4, 3));
  const std::string four = whole_record(R"({"n":0},{"m":"a,b"},{"m":"\"q\""})", 4);
  EXPECT_EQ(store->load("g-1")->record, four);
  // A stale save changes neither the head nor the events.
  EXPECT_FALSE(store->save("g-1", game_write(0, {R"({"stale":1})"}, 9), 4, 3));
  EXPECT_FALSE(store->save("g-1", game_write(0, {R"({"again":1})"}, 9), 1, 0));
  EXPECT_EQ(store->load("g-1")->record, four);
  // Events belong to their game.
  ASSERT_TRUE(store->save("g-2", game_write(0, {R"({"other":1})"}, 1), 1, 0));
  EXPECT_EQ(store->load("g-1")->record, four);
  std::vector<std::string> seen;
  store->for_each_game([&](const std::string& id, const StoredGame& game) {
    seen.push_back(id + " " + game.record);
  });
  ASSERT_EQ(seen.size(), 2u);
  EXPECT_EQ(seen[0], "g-1 " + four);
}

TEST_P(StoreSuite, SchemaFourRecordsAreCutIntoEventsAndGoOn) {
  open();  // creates the schema; then made what schema 4 was: whole records, no events table
  const std::string whole = R"({"format":2,"history":[{"n":0,"seed":18446744073709551615},)"
                            R"({"n":1}],"id":"g-1","version":3})";
  ASSERT_TRUE(run_sql("DROP TABLE game_events"));
  ASSERT_TRUE(run_sql("ALTER TABLE games RENAME COLUMN head TO record"));
  ASSERT_TRUE(
      run_sql("INSERT INTO games (id, format, record, version, updated_ms) VALUES ('g-1', 2, '" +
              whole + "', 3, 0)"));
  ASSERT_TRUE(
      run_sql("INSERT INTO games (id, format, record, version, updated_ms) VALUES ('g-2', 1, "
              "'{\"position\":1}', 1, 0)"));
  ASSERT_TRUE(
      run_sql("INSERT INTO games (id, format, record, version, updated_ms) VALUES ('g-3', 2, "
              "'not json', 1, 0)"));
  // More games than the migration reads in one batch.
  const std::string many =
      "SELECT 'g-x' || i, 2, '{\"history\":[{\"n\":' || i || '}],\"id\":\"x\"}', 1, 0";
  ASSERT_TRUE(
      run_sql(GetParam() == Backend::Sqlite
                  ? "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE "
                    "i < 600) INSERT INTO games (id, format, record, version, updated_ms) " +
                        many + " FROM n"
                  : "INSERT INTO games (id, format, record, version, updated_ms) " + many +
                        " FROM generate_series(1, 600) AS i"));
  set_schema_version(4);
  auto store = open();
  // A server of schema 4 still running can write no whole record any more: its column is gone.
  EXPECT_FALSE(run_sql("UPDATE games SET record = 'whole' WHERE id = 'g-1'"));
  for (const int i : {1, 256, 257, 600}) {
    const std::string id = "g-x" + std::to_string(i);
    EXPECT_EQ(store->load(id)->record,
              R"({"history":[{"n":)" + std::to_string(i) + R"(}],"id":"x"})");
    // Its event is a row now: a save that appends keeps it.
    ASSERT_TRUE(store->save(id, GameWrite{2, R"({"id":"x"})", 1, {R"({"n":"next"})"}}, 2, 1));
    EXPECT_EQ(store->load(id)->record,
              R"({"history":[{"n":)" + std::to_string(i) + R"(},{"n":"next"}],"id":"x"})");
  }
  // Loaded as it was (the members in another order), the largest seed exact.
  const auto loaded = store->load("g-1");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->record, R"({"history":[{"n":0,"seed":18446744073709551615},{"n":1}],)"
                            R"("format":2,"id":"g-1","version":3})");
  EXPECT_EQ(loaded->version, 3);
  // A record without a history, and a damaged one, are kept as they were.
  EXPECT_EQ(store->load("g-2")->record, R"({"position":1})");
  EXPECT_EQ(store->load("g-3")->record, "not json");
  // The migrated game goes on by appending.
  ASSERT_TRUE(store->save("g-1", game_write(2, {R"({"n":2})"}, 4), 4, 3));
  EXPECT_EQ(store->load("g-1")->record,
            whole_record(R"({"n":0,"seed":18446744073709551615},{"n":1},{"n":2})", 4));
}

TEST_P(StoreSuite, SaveGuardedByTheStoredVersion) {
  auto store = open();
  ASSERT_TRUE(save_whole(*store, "g-1", 2, "one", 1, 0));
  EXPECT_TRUE(save_whole(*store, "g-1", 2, "two", 2, 1));
  // A writer that read version 1 lost the race: nothing changes.
  EXPECT_FALSE(save_whole(*store, "g-1", 2, "stale", 2, 1));
  // A second creation of the same id is refused too.
  EXPECT_FALSE(save_whole(*store, "g-1", 2, "again", 1, 0));
  const auto loaded = store->load("g-1");
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->record, "two");
  EXPECT_EQ(loaded->version, 2);
}

TEST_P(StoreSuite, ConcurrentWritersOfOneVersionExactlyOneWins) {
  auto first = open("s1");
  auto second = open("s2");
  ASSERT_TRUE(save_whole(*first, "g-1", 2, "start", 1, 0));
  std::atomic<int> won{0};
  std::vector<std::thread> writers;
  for (int i = 0; i < 8; ++i) {
    writers.emplace_back([&, i] {
      GameStore& store = i % 2 == 0 ? *first : *second;
      if (save_whole(store, "g-1", 2, "writer " + std::to_string(i), 2, 1)) ++won;
    });
  }
  for (auto& writer : writers) writer.join();
  EXPECT_EQ(won.load(), 1);
  EXPECT_EQ(first->version_of("g-1"), 2);
}

TEST_P(StoreSuite, InvitesAreFoundByTheirCodeAndUnique) {
  auto store = open();
  store->save_invite("c0de", "g-1");
  EXPECT_EQ(store->find_invite("c0de"), "g-1");
  EXPECT_FALSE(store->find_invite("other"));
  EXPECT_THROW(store->save_invite("c0de", "g-2"), std::runtime_error);
  EXPECT_EQ(store->find_invite("c0de"), "g-1");
}

TEST_P(StoreSuite, CountsGames) {
  auto store = open();
  EXPECT_EQ(store->count(), 0);
  save_whole(*store, "g-1", 2, "x", 1, 0);
  save_whole(*store, "g-2", 2, "y", 1, 0);
  EXPECT_EQ(store->count(), 2);
}

TEST_P(StoreSuite, GamesSurviveReopening) {
  {
    auto store = open();
    save_whole(*store, "g-1", 2, "kept", 3, 0);
    store->save_invite("c0de", "g-1");
  }
  auto store = open();
  ASSERT_TRUE(store->load("g-1"));
  EXPECT_EQ(store->load("g-1")->record, "kept");
  EXPECT_EQ(store->find_invite("c0de"), "g-1");
}

TEST_P(StoreSuite, NewerSchemaIsRefusedNamingBothVersions) {
  open();  // creates the schema
  set_schema_version(kSchemaVersion + 5);
  try {
    open();
    FAIL() << "a newer schema was opened";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("schema version " + std::to_string(kSchemaVersion + 5)),
              std::string::npos)
        << message;
    EXPECT_NE(message.find(std::to_string(kSchemaVersion) + " this ur reads"), std::string::npos)
        << message;
  }
}

TEST_P(StoreSuite, ImportCopiesEveryGameAndInviteAndKeepsWhatIsThere) {
  SqliteStore source(directory_ / "source.sqlite3");
  save_whole(source, "g-1", 2, "first", 4, 0);
  save_whole(source, "g-2", 2, "second", 1, 0);
  ASSERT_TRUE(source.save("g-3", game_write(0, {R"({"n":0})", R"({"n":1})"}, 2), 2, 0));
  source.save_invite("c0de", "g-1");
  auto store = open();
  save_whole(*store, "g-2", 2, "already here", 7, 0);
  const auto copied = store->import_from(source);
  EXPECT_EQ(copied.games, 2);
  EXPECT_EQ(copied.kept, 1);
  EXPECT_EQ(copied.invites, 1);
  EXPECT_EQ(store->load("g-1")->record, "first");
  EXPECT_EQ(store->load("g-3")->record, whole_record(R"({"n":0},{"n":1})", 2));
  EXPECT_EQ(store->load("g-1")->version, 4);
  EXPECT_EQ(store->load("g-2")->record, "already here");
  EXPECT_EQ(store->find_invite("c0de"), "g-1");
  // Importing again copies nothing more.
  EXPECT_EQ(store->import_from(source).games, 0);
}

TEST(SqliteStore, AFileThatIsNotAGameStoreIsToldApartWithoutBeingChanged) {
  const auto directory = fresh_directory("ur-store-other-");
  const auto text = directory / "notes.txt";
  std::FILE* out = std::fopen(text.c_str(), "w");
  ASSERT_NE(out, nullptr);
  std::fputs("not a database at all, just some text that is long enough to be read\n", out);
  std::fclose(out);
  ASSERT_TRUE(SqliteStore::not_a_game_store(text));
  EXPECT_NE(SqliteStore::not_a_game_store(text)->find("not a SQLite database"), std::string::npos);
  const auto other = directory / "other.sqlite3";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(other.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db, "CREATE TABLE notes (t TEXT)", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(db);
  const auto size = std::filesystem::file_size(other);
  EXPECT_EQ(SqliteStore::not_a_game_store(other), "a SQLite database without a games table");
  EXPECT_EQ(std::filesystem::file_size(other), size);
  { SqliteStore store(directory / "games.sqlite3"); }
  EXPECT_FALSE(SqliteStore::not_a_game_store(directory / "games.sqlite3"));
  std::filesystem::remove_all(directory);
}

TEST(SqliteStore, SchemaThreeFileGetsVersionsFromItsRecords) {
  const auto directory = fresh_directory("ur-store-old-");
  const auto file = directory / "games.sqlite3";
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(file.c_str(), &db), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(db,
                         "CREATE TABLE games (id TEXT PRIMARY KEY NOT NULL, format INTEGER NOT "
                         "NULL, record TEXT NOT NULL, updated_ms INTEGER NOT NULL);"
                         "CREATE TABLE invites (code TEXT PRIMARY KEY NOT NULL, game_id TEXT NOT "
                         "NULL);"
                         "INSERT INTO games VALUES ('g-1', 2, '{\"version\": 12}', 0);"
                         "INSERT INTO games VALUES ('g-2', 1, '{}', 0);"
                         "PRAGMA user_version=3;",
                         nullptr, nullptr, nullptr),
            SQLITE_OK);
  sqlite3_close(db);
  SqliteStore store(file);
  EXPECT_EQ(store.version_of("g-1"), 12);
  EXPECT_EQ(store.version_of("g-2"), 1);
  EXPECT_TRUE(save_whole(store, "g-1", 2, "{}", 13, 12));
  std::filesystem::remove_all(directory);
}

// --- What only a shared store does: PostgreSQL ---

class SharedStore : public ::testing::Test {
 protected:
  void SetUp() override { url_ = Cluster::new_database(); }
  std::string url_;
};

// Collects notices a store's listener receives.
struct Heard {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<Notice> notices;
  int resumed = 0;

  bool wait_for(std::size_t count) {
    std::unique_lock lock(mutex);
    // Far beyond the usual milliseconds, for a loaded CI machine.
    return changed.wait_for(lock, std::chrono::seconds(30),
                            [&] { return notices.size() >= count; });
  }
};

TEST_F(SharedStore, ASaveReachesTheOtherServersButNotItself) {
  PostgresStore a(url_, "a", 2);
  PostgresStore b(url_, "b", 2);
  Heard heard_by_a;
  Heard heard_by_b;
  auto listen = [](PostgresStore& store, Heard& heard) {
    store.listen(
        [&heard](const Notice& notice) {
          std::lock_guard lock(heard.mutex);
          heard.notices.push_back(notice);
          heard.changed.notify_all();
        },
        [&heard] { ++heard.resumed; });
  };
  listen(a, heard_by_a);
  listen(b, heard_by_b);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // both are listening
  ASSERT_TRUE(save_whole(a, "g-1", 2, "x", 1, 0));
  ASSERT_TRUE(heard_by_b.wait_for(1));
  EXPECT_EQ(heard_by_b.notices[0].kind, Notice::Kind::Game);
  EXPECT_EQ(heard_by_b.notices[0].game_id, "g-1");
  EXPECT_EQ(heard_by_b.notices[0].version, 1);
  // A refused save tells nobody.
  EXPECT_FALSE(save_whole(a, "g-1", 2, "y", 2, 5));
  ASSERT_TRUE(save_whole(b, "g-1", 2, "z", 2, 1));
  ASSERT_TRUE(heard_by_a.wait_for(1));
  EXPECT_EQ(heard_by_a.notices[0].version, 2);
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  std::lock_guard lock(heard_by_b.mutex);
  EXPECT_EQ(heard_by_b.notices.size(), 1u);  // its own save is not news to b
}

TEST_F(SharedStore, ANoticeCarriesTheChangeWhenItFits) {
  PostgresStore a(url_, "a", 2);
  PostgresStore b(url_, "b", 2);
  Heard heard;
  b.listen(
      [&heard](const Notice& notice) {
        std::lock_guard lock(heard.mutex);
        heard.notices.push_back(notice);
        heard.changed.notify_all();
      },
      [] {});
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  const std::string change = R"({"from": 2, "events": [{"type": "throw"}], "note": "a b  c"})";
  ASSERT_TRUE(save_whole(a, "g-1", 2, "x", 1, 0, change));
  // Too long for a notice: the save goes through, the notice goes without it.
  const std::string long_change(8000, 'x');
  ASSERT_TRUE(save_whole(a, "g-1", 2, "y", 2, 1, long_change));
  ASSERT_TRUE(save_whole(a, "g-1", 2, "z", 3, 2));
  ASSERT_TRUE(heard.wait_for(3));
  std::lock_guard lock(heard.mutex);
  EXPECT_EQ(heard.notices[0].version, 1);
  EXPECT_EQ(heard.notices[0].change, change);
  EXPECT_EQ(heard.notices[1].version, 2);
  EXPECT_EQ(heard.notices[1].change, "");
  EXPECT_EQ(heard.notices[2].version, 3);
  EXPECT_EQ(heard.notices[2].change, "");
  EXPECT_EQ(b.load("g-1")->record, "z");
}

TEST_F(SharedStore, PresenceOfOneServerIsSeenByAnother) {
  PostgresStore a(url_, "a", 2);
  PostgresStore b(url_, "b", 2);
  a.listen([](const Notice&) {}, [] {});  // the heartbeat marks a alive
  SeatPresence here;
  here.sockets = {1, 0};
  here.seen = {true, false};
  here.left_at = {0, 1234};
  a.publish_presence("g-1", here);
  // a's first heartbeat follows its LISTEN on the listener's thread.
  auto others = b.others_presence("g-1");
  for (int tries = 0; others.empty() && tries < 300; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    others = b.others_presence("g-1");
  }
  ASSERT_EQ(others.size(), 1u);
  EXPECT_EQ(others[0].sockets, here.sockets);
  EXPECT_EQ(others[0].seen, here.seen);
  EXPECT_EQ(others[0].left_at, here.left_at);
  EXPECT_TRUE(a.others_presence("g-1").empty());  // a's own row is not "other"
}

TEST_F(SharedStore, QueuePairsTicketsOfDifferentServersOnce) {
  PostgresStore a(url_, "a", 2);
  PostgresStore b(url_, "b", 2);
  Ticket first{"q-1", "finkel", "Ann", 1000, 1000, "", "", "", 0};
  EXPECT_FALSE(a.queue_join(first, 0));
  Ticket second{"q-2", "finkel", "Bob", 2000, 2000, "", "", "", 0};
  const auto partner = b.queue_join(second, 0);
  ASSERT_TRUE(partner);
  EXPECT_EQ(partner->ticket, "q-1");
  EXPECT_EQ(partner->name, "Ann");
  // A third player finds nobody: Ann is taken.
  Ticket third{"q-3", "finkel", "Cy", 3000, 3000, "", "", "", 0};
  EXPECT_FALSE(a.queue_join(third, 0));
  // Other rules wait apart.
  Ticket other{"q-4", "masters", "Di", 3000, 3000, "", "", "", 0};
  EXPECT_FALSE(b.queue_join(other, 0));
  Ticket paired = first;
  paired.game_id = "g-9";
  paired.token = "t";
  paired.side = "light";
  paired.paired_at = 2500;
  b.queue_pair(paired);
  const auto polled = a.queue_poll("q-1", 2600, 0, 0);
  ASSERT_TRUE(polled);
  EXPECT_EQ(polled->game_id, "g-9");
  EXPECT_EQ(polled->side, "light");
  EXPECT_TRUE(a.queue_cancel("q-3"));
  EXPECT_FALSE(a.queue_poll("q-3", 2700, 0, 0));
  // A waiting ticket not polled since `alive_since` is gone.
  EXPECT_FALSE(b.queue_poll("q-4", 50'000, 40'000, 0));
}

TEST_F(SharedStore, ConcurrentJoinsPairEachTicketAtMostOnce) {
  PostgresStore a(url_, "a", 4);
  PostgresStore b(url_, "b", 4);
  std::atomic<int> partners{0};
  std::mutex mutex;
  std::vector<std::string> taken;
  std::vector<std::thread> players;
  for (int i = 0; i < 20; ++i) {
    players.emplace_back([&, i] {
      Ticket ticket{"q-" + std::to_string(i), "finkel", "p", 1000 + i, 1000 + i, "", "", "", 0};
      if (auto partner = (i % 2 ? a : b).queue_join(ticket, 0)) {
        ++partners;
        std::lock_guard lock(mutex);
        taken.push_back(partner->ticket);
      }
    });
  }
  for (auto& player : players) player.join();
  std::sort(taken.begin(), taken.end());
  EXPECT_EQ(std::adjacent_find(taken.begin(), taken.end()), taken.end());
  EXPECT_GE(partners.load(), 1);
}

TEST(PostgresUrl, BadUrlsAreRefusedSayingWhatIsExpected) {
  EXPECT_THROW(check_postgres_url("mysql://x"), std::invalid_argument);
  EXPECT_THROW(check_postgres_url("postgresql://host/db?nonsense=1"), std::invalid_argument);
  EXPECT_NO_THROW(check_postgres_url("postgresql://ur@/ur?host=/tmp"));
  EXPECT_THROW(open_store("ftp://x", ".", "s"), std::invalid_argument);
  EXPECT_THROW(open_store("sqlite://x", ".", "s"), std::invalid_argument);
}

TEST(PostgresUrl, PasswordIsNeverShown) {
  EXPECT_EQ(shown_url("postgresql://ur:secret@/ur?host=/tmp"), "postgresql://ur:***@/ur?host=/tmp");
  EXPECT_EQ(shown_url("postgresql://ur@db.example/ur"), "postgresql://ur@db.example/ur");
  EXPECT_EQ(shown_url("postgres://a:b@h:5432/d"), "postgres://a:***@h:5432/d");
  // What a user typed is repeated on one line: control characters are escaped.
  EXPECT_EQ(shown_url("postgresql://a:b@h/d\n\x01"), "postgresql://a:***@h/d\\n\\x01");
}

// Garbage after the scheme is either a URL libpq reads or refused with one line; the password,
// whatever it is, never shows in what is printed about the URL.
RC_GTEST_PROP(PostgresUrl, GarbageIsRefusedInOneLineAndNeverShowsThePassword,
              (const std::string& rest)) {
  try {
    check_postgres_url("postgresql://" + rest);
  } catch (const std::invalid_argument& error) {
    RC_ASSERT(std::string(error.what()).find('\n') == std::string::npos);
  }
  // A password no message would contain by chance: a marker and random letters and digits.
  const std::string password =
      "Pw9" + *rc::gen::container<std::string>(rc::gen::elementOf(std::string(
                  "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.~")));
  // Each is refused before any connection is tried: an unknown option, an unknown scheme.
  for (const std::string& url :
       {"postgresql://ur:" + password + "@/ur?host=/tmp&nonsense=1",
        "postgres://ur:" + password + "@h:1/d?nonsense=1", "mysql://ur:" + password + "@h/d"}) {
    RC_ASSERT(shown_url(url).find(password) == std::string::npos);
    try {
      (void)open_store(url, ".", "s");
      RC_FAIL("accepted " + url);
    } catch (const std::invalid_argument& error) {
      RC_ASSERT(std::string(error.what()).find(password) == std::string::npos);
    }
  }
}

TEST(PostgresStore, UnreachableOrWrongPasswordIsOneLine) {
  const auto directory = fresh_directory("ur-pg-none-");
  try {
    PostgresStore store("postgresql://ur@/ur?host=" + directory.string(), "s", 1);
    FAIL() << "connected to nothing";
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()).find('\n'), std::string::npos) << error.what();
  }
  std::string wrong = Cluster::url();
  wrong.replace(wrong.find(':', 13), wrong.find('@') - wrong.find(':', 13), ":not-the-password");
  try {
    PostgresStore store(wrong, "s", 1);
    FAIL() << "logged in with a wrong password";
  } catch (const std::runtime_error& error) {
    const std::string message = error.what();
    EXPECT_NE(message.find("password authentication failed"), std::string::npos) << message;
    EXPECT_EQ(message.find("not-the-password"), std::string::npos) << message;
  }
  std::filesystem::remove_all(directory);
}

}  // namespace
}  // namespace ur::storage
