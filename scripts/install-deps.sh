#!/usr/bin/env bash
# Installs the Debian 12 packages ur needs, only those that are missing.
# Run as root (or with sudo available). Safe to run again: it does nothing when all is there.
set -euo pipefail

packages=(
  g++ cmake make pkg-config git
  libboost1.81-dev      # Beast/Asio; not libboost-dev, which conflicts
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev librapidcheck-dev libbenchmark-dev
  libzstd-dev libsqlite3-dev
  libpq-dev postgresql  # `ur serve --database postgresql://...`; tests start a throwaway cluster
  libqrencode-dev       # QR codes of invite links
  libjemalloc-dev       # ur's allocator: a quarter less server CPU than glibc's under load
  tmux                  # terminal-game tests drive `ur play` in a pseudo-terminal
  chromium              # browser tests (driven by @playwright/test, never downloaded)
)
command -v node > /dev/null 2>&1 || packages+=(nodejs)
command -v npm > /dev/null 2>&1 || packages+=(npm)

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2> /dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done

if ((${#missing[@]} == 0)); then
  exit 0
fi

echo "Installing missing packages: ${missing[*]}"
sudo_cmd=()
if [[ $(id -u) -ne 0 ]]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -qq
"${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
