#!/usr/bin/env bash
# Installs what a fresh Debian 12 machine lacks (as root), then the npm tooling from the lock
# file. Safe to run again: it installs only what is missing.
set -euo pipefail
cd "$(dirname "$0")/.."

# fonts-wqy-microhei: CJK glyphs for the page in headless Chromium (screenshots). xz-utils: the
# wasm is stored in the page as an xz stream (scripts/dist_pack.cjs).
packages=(cmake make g++ nlohmann-json3-dev catch2 emscripten node-acorn chromium shellcheck poppler-utils
          fonts-wqy-microhei clang-format python3 xz-utils)
command -v node >/dev/null 2>&1 || packages+=(nodejs)
command -v npm >/dev/null 2>&1 || packages+=(npm)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if [ ! -d node_modules/playwright-core ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
