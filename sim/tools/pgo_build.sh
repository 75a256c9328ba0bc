#!/usr/bin/env bash
# Profile-guided speed build of the `aries` simulator (GCC):
#   bash sim/tools/pgo_build.sh [BUILD_DIR]     (default build-pgo)
# 1. configures BUILD_DIR with ARIES_PGO=generate and builds `aries` (instrumented);
# 2. runs the training set below, which writes profiles into BUILD_DIR/pgo;
# 3. reconfigures with ARIES_PGO=use and rebuilds `aries` with the profiles.
# The result is BUILD_DIR/sim/aries; its runs give the same reports as the normal build's
# (compare with `aries bench`). Tests are not built here (the checked build is the normal one).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build-pgo}
generator=()
if command -v ninja > /dev/null; then generator=(-G Ninja); fi

cmake -S . -B "$build" ${generator[@]+"${generator[@]}"} -DBUILD_TESTING=OFF -DARIES_PGO=generate
rm -rf "$build/pgo"
cmake --build "$build" -j2 --target aries
aries="$build/sim/aries"

# Training: point-to-point traffic at low and high load on mesh, torus and ARIES (1- and
# 10-cycle links, one and two threads), and collectives with the engine (in-network tree) and
# without (ring), on the Verilated node and on the fast model, so every hot path of the models
# and the harness is profiled.
run() { echo "train: $*"; "$aries" "$@" > /dev/null; }
for rate in 0.02 0.1 0.3; do
  run run --set package.topology=mesh --set package.k=8 --set package.link_latency=1 \
    --set traffic.rate=$rate --set sim.kernel=loop --set sim.threads=1 \
    --set sim.warmup=500 --set sim.measure=2000
done
run run --set package.topology=torus --set package.k=4 --set traffic.rate=0.3 \
  --set sim.kernel=loop --set sim.threads=2 --set sim.measure=2000
run run --set package.topology=aries --set package.k=4 --set package.bypass=random \
  --set sim.measure=2000
run run --set package.topology=mesh --set package.k=8 --set package.vc_alloc=dynamic \
  --set package.link_latency=1 --set traffic.rate=0.4 --set sim.kernel=loop \
  --set sim.threads=1 --set sim.measure=1000
# The cycle-equivalent C++ node (sim.model=fast), which sweeps, figures and the tuner run on.
for rate in 0.02 0.1 0.3; do
  run run --set package.topology=mesh --set package.k=8 --set package.link_latency=1 \
    --set traffic.rate=$rate --set sim.kernel=loop --set sim.threads=1 \
    --set sim.warmup=500 --set sim.measure=3000 --set sim.model=fast
done
run coll --k 4 --topology aries --algo aries_lt --size 4K --verify --model fast
run coll --k 4 --topology mesh --algo tree --size 4K --verify --model fast
run coll --k 4 --topology aries --algo aries_lt --size 4K --verify
run coll --k 4 --topology mesh --algo ring --size 4K --verify
run coll --k 4 --topology mesh --algo tree --size 4K --verify

cmake -S . -B "$build" -DARIES_PGO=use
cmake --build "$build" -j2 --target aries
echo "speed build: $aries (profiles in $build/pgo)"
