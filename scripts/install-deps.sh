#!/usr/bin/env bash
# Installs the Debian (bookworm) packages USMP Explorer builds and tests with.
# Does nothing when all are present; uses sudo when not run as root.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config ccache
  qt6-base-dev qt6-svg-dev libqcustomplot-dev libgl-dev
  nlohmann-json3-dev libarchive-dev libclang-dev libflatbuffers-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  gcc-arm-none-eabi libnewlib-arm-none-eabi qemu-system-arm
  help2man dpkg-dev python3-clang-14
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "install-deps: apt-get not found; install these packages by hand: ${missing[*]}" >&2
  exit 1
fi
sudo=()
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    echo "install-deps: need root (or sudo) to install: ${missing[*]}" >&2
    exit 1
  fi
fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
if ! "${sudo[@]}" apt-get update -q || ! "${sudo[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"; then
  echo "install-deps: apt-get failed to install: ${missing[*]}" >&2
  echo "install-deps: this project expects Debian bookworm with its standard archive reachable." >&2
  exit 1
fi
