// A refused API request, as the HTTP layer answers it: the status, a stable code
// (docs/web-api.md) and a sentence saying what was wrong and what is expected. The game
// model knows nothing of this: the server maps the session's refusal codes onto it here.
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "session/session.h"

namespace ur::server {

class ApiError : public std::runtime_error {
 public:
  ApiError(int status, std::string code, const std::string& message)
      : std::runtime_error(message), status_(status), code_(std::move(code)) {}
  int status() const { return status_; }
  const std::string& code() const { return code_; }
  // Members the error body carries beyond "error" and "code" (a JSON object).
  const nlohmann::json& details() const { return details_; }
  ApiError&& with_detail(const std::string& name, nlohmann::json value) && {
    details_[name] = std::move(value);
    return std::move(*this);
  }

 private:
  int status_;
  std::string code_;
  nlohmann::json details_ = nlohmann::json::object();
};

ApiError bad_request(const std::string& message);
ApiError bad_settings(const std::string& message);
ApiError bad_record(const std::string& message);
ApiError conflict(std::string code, const std::string& message);  // 409 game-state refusals

// The API error for a session refusal, worded in `message` (already in the page's voice).
// Game-state refusals are 409s; the codes are the session's, except that a person acting on
// the computer's seat is `not_your_turn` and a pass with a move at hand is `illegal_move`,
// as the API has always said.
ApiError from_refusal(const session::Refusal& refusal, const std::string& message);

}  // namespace ur::server
