// QR codes as SVG, for invite links a phone beside the screen can open. The symbol comes
// from libqrencode; this file only draws it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace ur::server {

inline constexpr std::size_t kMaxQrTextBytes = 512;

// The QR code of `text` (1..kMaxQrTextBytes bytes) as an SVG document: black modules on a
// white square with a quiet zone of 4 modules, the viewBox in modules. Nothing when
// libqrencode cannot encode it.
std::optional<std::string> qr_svg(std::string_view text);

}  // namespace ur::server
