#include "storage/pg_connection.h"

#include <stdexcept>
#include <vector>

#include "storage/game_store.h"

namespace ur::storage::pg {
namespace {

// SQLSTATE classes of a database that is not there now: connection exceptions (08),
// operator intervention such as a shutdown (57P), insufficient resources (53).
bool is_unavailable_state(const char* state) {
  if (state == nullptr) return true;
  const std::string code = state;
  return code.starts_with("08") || code.starts_with("57P") || code.starts_with("53");
}

}  // namespace

std::string first_line(const char* message) {
  std::string text = message ? message : "";
  if (const auto end = text.find('\n'); end != std::string::npos) text.resize(end);
  while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.pop_back();
  return text.empty() ? "unknown error" : text;
}

std::string text_array(const std::vector<std::string>& items) {
  std::string array = "{";
  for (const std::string& item : items) {
    if (array.size() > 1) array += ',';
    array += '"';
    for (const char c : item) {
      if (c == '"' || c == '\\') array += '\\';
      array += c;
    }
    array += '"';
  }
  array += '}';
  return array;
}

std::string Result::text(int row, int column) const {
  return std::string(PQgetvalue(result_, row, column),
                     static_cast<std::size_t>(PQgetlength(result_, row, column)));
}

int Result::affected() const {
  const char* count = PQcmdTuples(result_);
  return count && *count ? std::stoi(count) : 0;
}

Connection::Connection(const std::string& url) : conn_(PQconnectdb(url.c_str())) {
  if (PQstatus(conn_) != CONNECTION_OK) {
    const std::string why = first_line(PQerrorMessage(conn_));
    PQfinish(conn_);
    throw Unavailable(why);
  }
  // NOTICEs (such as "already exists, skipping") are not for the server's log.
  PQsetNoticeProcessor(
      conn_, [](void*, const char*) {}, nullptr);
}

Connection::~Connection() {
  PQfinish(conn_);
}

void Connection::ensure() {
  if (PQstatus(conn_) == CONNECTION_OK) return;
  reset();
  if (PQstatus(conn_) != CONNECTION_OK) {
    throw Unavailable("the database cannot be reached: " + first_line(PQerrorMessage(conn_)));
  }
}

void Connection::reset() {
  PQreset(conn_);
  prepared_.clear();
}

void Connection::rollback() {
  if (PQstatus(conn_) == CONNECTION_OK) PQclear(PQexec(conn_, "ROLLBACK"));
}

Result Connection::run(const char* sql, std::initializer_list<Param> params) {
  ensure();
  std::vector<const char*> values;
  values.reserve(params.size());
  for (const Param& param : params) values.push_back(param ? param->c_str() : nullptr);
  const int count = static_cast<int>(values.size());
  auto exec = [&]() -> PGresult* {
    if (count == 0) return PQexecParams(conn_, sql, 0, nullptr, nullptr, nullptr, nullptr, 0);
    auto name = prepared_.find(sql);
    if (name == prepared_.end()) {
      const std::string fresh = "ur_" + std::to_string(prepared_.size());
      PGresult* made = PQprepare(conn_, fresh.c_str(), sql, count, nullptr);
      if (PQresultStatus(made) != PGRES_COMMAND_OK) return made;  // answered as the statement
      PQclear(made);
      name = prepared_.emplace(sql, fresh).first;
    }
    return PQexecPrepared(conn_, name->second.c_str(), count, values.data(), nullptr, nullptr, 0);
  };
  PGresult* raw = exec();
  // A connection the database dropped while idle (it restarted) is found out only now; the
  // statement never reached a server, so it is sent again on a fresh connection. Not inside
  // a transaction, whose earlier statements died with the old connection.
  if (PQstatus(conn_) == CONNECTION_BAD && !in_transaction_) {
    PQclear(raw);
    reset();
    raw = PQstatus(conn_) == CONNECTION_OK ? exec() : nullptr;
  }
  Result result(raw);
  const ExecStatusType status = raw ? PQresultStatus(raw) : PGRES_FATAL_ERROR;
  if (status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK) return result;
  const char* state = raw ? PQresultErrorField(raw, PG_DIAG_SQLSTATE) : nullptr;
  const std::string why = first_line(raw ? PQresultErrorMessage(raw) : PQerrorMessage(conn_));
  if (PQstatus(conn_) != CONNECTION_OK || is_unavailable_state(state)) {
    throw Unavailable("the database cannot be reached: " + why);
  }
  throw std::runtime_error("database: " + why);
}

}  // namespace ur::storage::pg
