// One libpq connection and the results of its statements: the plumbing that PostgresStore's
// pool, listener and migration share. Failures are told apart as the store needs them:
// Unavailable when the database is not there now (the caller may try again), and
// std::runtime_error for anything else.
#pragma once

#include <libpq-fe.h>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <type_traits>
#include <unordered_map>
#include <vector>

namespace ur::storage::pg {

// The first line of a libpq message, without trailing blanks ("unknown error" when empty):
// libpq's messages end in a newline and may run over several lines.
std::string first_line(const char* message);

// `items` as one text[] literal, {"a","b",...}, each quoted with its quotes and backslashes
// escaped: a statement's parameter for `$1::text[]`.
std::string text_array(const std::vector<std::string>& items);

// The result of one statement; owns its PGresult.
class Result {
 public:
  explicit Result(PGresult* result) : result_(result) {}
  ~Result() { PQclear(result_); }
  Result(const Result&) = delete;
  Result& operator=(const Result&) = delete;
  Result(Result&& other) noexcept : result_(other.result_) { other.result_ = nullptr; }

  int rows() const { return PQntuples(result_); }
  std::string text(int row, int column) const;
  bool null(int row, int column) const { return PQgetisnull(result_, row, column) != 0; }
  std::int64_t number(int row, int column) const { return std::stoll(text(row, column)); }
  int affected() const;  // rows an INSERT, UPDATE or DELETE changed

 private:
  PGresult* result_;
};

// A statement's text parameter; nullopt is NULL.
using Param = std::optional<std::string>;

class Connection {
 public:
  // Throws Unavailable saying why when the database cannot be reached or refuses the login.
  explicit Connection(const std::string& url);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Runs one statement. A statement with parameters is prepared once per connection (parsed
  // and planned once, then only executed). A connection the database dropped while idle is
  // reopened and the statement sent again, outside a transaction. Throws Unavailable when the
  // database went away, std::runtime_error for any other failure.
  Result run(const char* sql, std::initializer_list<Param> params = {});

  // Runs `work` inside BEGIN ... COMMIT, rolling back when it throws; returns what it returns.
  template <class Work>
  auto transaction(Work&& work) {
    run("BEGIN");
    in_transaction_ = true;
    struct Ended {
      bool& flag;
      ~Ended() { flag = false; }
    } ended{in_transaction_};
    try {
      if constexpr (std::is_void_v<decltype(work())>) {
        work();
        run("COMMIT");
      } else {
        auto value = work();
        run("COMMIT");
        return value;
      }
    } catch (...) {
      rollback();
      throw;
    }
  }

  // The libpq handle, for waiting on the socket and reading notifications.
  PGconn* native() { return conn_; }

 private:
  void ensure();    // reconnects a connection the database dropped (a restart)
  void reset();     // a new session: the statements prepared on the old one are gone with it
  void rollback();  // best effort: a dead connection has nothing to roll back

  PGconn* conn_;
  bool in_transaction_ = false;
  std::unordered_map<std::string, std::string> prepared_;  // statement text -> its name
};

}  // namespace ur::storage::pg
