#!/usr/bin/env bash
# Installs what ARIES-sim needs on a Debian 12 machine. Idempotent: when every package is
# present it only runs dpkg queries (well under a second). Runs apt-get update at most once,
# and only when something is missing. Needs root (or sudo) for the install.
set -euo pipefail

PACKAGES=(
  build-essential cmake ninja-build pkg-config python3   # toolchain
  verilator                                              # RTL -> C++ (5.006 on Debian 12)
  libsystemc-dev                                         # SystemC 2.3.4 (package layer)
  yosys opensta                                          # synthesis gates, area, timing (OpenSTA)
  libfmt-dev libcli11-dev nlohmann-json3-dev             # C++ libraries
  libgtest-dev libgmock-dev                              # tests
  zlib1g-dev                                             # FST waveforms
  gtkwave xvfb xauth imagemagick                         # waveforms (FST), headless check, screenshots
  libopenmpi-dev openmpi-bin                             # ranks of a distributed run (mpirun)
  clang-format clang-tidy git                            # format and function-size checks (tests/)
  python3-matplotlib                                     # figures (sim/tools/aries_plot.py)
  python3-pandas                                         # the CSV check (tests/sim/check_csvs_load.sh)
  clang libclang-rt-14-dev                               # libFuzzer harnesses (tests/fuzz)
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
echo "setup: done"
