#include "server/api_error.h"

namespace ur::server {

ApiError bad_request(const std::string& message) {
  return ApiError(400, "bad_request", message);
}
ApiError bad_settings(const std::string& message) {
  return ApiError(400, "bad_settings", message);
}
ApiError bad_record(const std::string& message) {
  return ApiError(400, "bad_record", message);
}
ApiError conflict(std::string code, const std::string& message) {
  return ApiError(409, std::move(code), message);
}

ApiError from_refusal(const session::Refusal& refusal, const std::string& message) {
  using session::RefusalCode;
  switch (refusal.code) {
    case RefusalCode::BadSettings:
      return bad_settings(message);
    case RefusalCode::ComputerSeat:
      return conflict("not_your_turn", message);
    case RefusalCode::MoveAvailable:
      return conflict("illegal_move", message);
    case RefusalCode::NotYourTurn:
    case RefusalCode::GameOver:
    case RefusalCode::ThrowPending:
    case RefusalCode::NoThrowYet:
    case RefusalCode::IllegalMove:
    case RefusalCode::TakeBackOff:
    case RefusalCode::NothingToTakeBack:
      break;
  }
  return conflict(std::string(session::to_string(refusal.code)), message);
}

}  // namespace ur::server
