#!/usr/bin/env bash
# A build with AddressSanitizer, UBSan and libstdc++'s bounds checks (_GLIBCXX_ASSERTIONS) next
# to a main build, then the C++ test programs and a battery of `aries` commands under it: every
# topology and node model, both local-port counts, faults, threads, every algorithm on every
# topology it serves, every collective, the figures, and inputs that must be refused. Prints
# each finding (a sanitizer report, a test failure, an exit status other than the expected) and
# exits 1 on any. The Verilated models make the first build long (about 40 minutes on two
# cores); later runs rebuild what changed.
#
#   bash tests/sanitize/run.sh [SANITIZED_BUILD_DIR]      (default: build-san)
set -uo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
out=$(mkdir -p "${1:-build-san}" && cd "${1:-build-san}" && pwd)
flags="-fsanitize=address,undefined -fno-sanitize-recover=undefined -D_GLIBCXX_ASSERTIONS"
flags="$flags -fno-omit-frame-pointer"
cmake -S "$src" -B "$out" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS="$flags" \
  -DCMAKE_EXE_LINKER_FLAGS="-fsanitize=address,undefined" > "$out/sanitize.configure.log" 2>&1 ||
  { cat "$out/sanitize.configure.log"; exit 2; }
tests=(aries_controller_tests aries_energy_tests aries_train_tests aries_config_tests
       aries_tb_tests aries_fast_node_tests aries_package_tests aries_coll_package_tests
       aries_dma_tests)
nice ninja -C "$out" -j2 aries "${tests[@]}" > "$out/sanitize.build.log" 2>&1 ||
  { tail -30 "$out/sanitize.build.log"; exit 2; }
export ASAN_OPTIONS=detect_leaks=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
logs=$(mktemp -d)
findings=0
report() {  # report NAME LOG RC WANT (ok | refused)
  local bad=0
  if grep -qE "AddressSanitizer|runtime error:" "$2"; then bad=1; fi
  if [ "$4" = ok ] && [ "$3" -ne 0 ]; then bad=1; fi
  if [ "$4" = refused ] && { [ "$3" -eq 0 ] || [ "$3" -ge 128 ]; }; then bad=1; fi
  if [ "$bad" = 1 ]; then
    findings=$((findings + 1))
    echo "FINDING: $1 (exit $3, wanted $4)"
    grep -m4 -E "AddressSanitizer|runtime error:|SUMMARY|FAILED|error:" "$2" | sed 's/^/  /'
  fi
}
# Each test in a process of its own, as ctest runs them (SystemC elaborates once per process).
for t in "${tests[@]}"; do
  n=0
  while read -r name; do
    n=$((n + 1))
    "$out/tests/$t" --gtest_filter="$name" > "$logs/t.log" 2>&1
    report "$t $name" "$logs/t.log" $? ok
  done < <("$out/tests/$t" --gtest_list_tests | awk '/^[^ ]/ { s = $1 } /^  / { print s $1 }')
  echo "$t: $n tests"
done
a="$out/sim/aries"
runs=0
run() {  # run ok|refused ARGS...
  local want=$1
  shift
  runs=$((runs + 1))
  (cd "$logs" && "$a" "$@") > "$logs/r.log" 2>&1
  report "aries $*" "$logs/r.log" $? "$want"
}
S="--set sim.warmup=200 --set sim.measure=600"
for t in mesh torus fbfly aries; do
  for m in fast rtl; do
    run ok $S --set package.topology=$t --set package.k=4 --set sim.model=$m --set traffic.rate=0.3
  done
  for al in ring dbt mtree cmtree tree rd rabenseifner aries_lt aries_bw; do
    # An algorithm a topology does not serve is refused; one it serves is verified.
    if "$a" coll -k 4 --topology $t --algo $al --size 1K > /dev/null 2>&1; then
      run ok coll -k 4 --topology $t --algo $al --size 24K --verify --model fast
    else
      run refused coll -k 4 --topology $t --algo $al --size 24K --verify --model fast
    fi
  done
  for c in alltoall reducescatter allgather; do
    al=ring
    [ $c = alltoall ] && al=direct
    run ok coll -k 4 --topology $t --collective $c --algo $al --size 8K --verify
  done
  run ok coll -k 4 --topology $t --algo ring --size 16K --verify --set node.local_ports=2
done
run ok $S --set package.k=4 --set package.bypass=random --set sim.model=check
run ok $S --set package.k=4 --set node.local_ports=2 --set sim.model=fast --set traffic.rate=0.4
run ok $S --set package.k=4 --set node.local_ports=4 --set sim.model=fast --set traffic.rate=0.4
run ok $S --set package.k=4 --set 'package.faults=link:x(1,1), port:10.YP' --set sim.model=check
run ok $S --set package.k=8 --set sim.threads=2 --set sim.kernel=loop --set sim.model=fast
run ok $S --set package.k=4 --set traffic.pattern=transpose --set traffic.rate=0.5
run ok sweep --set package.k=4 --set sweep.rates=0.1,0.5 --set sim.measure=500
run ok coll -k 4 --topology aries --algo tree --embeddings 4 --size 96K --verify --model fast
run ok coll -k 4 --topology aries --algo ring --size 4K --verify --model check
run ok coll -k 4 --topology aries --algo tree --size 4K --verify --model rtl
run ok coll -k 4 --topology aries --type fp32 --op max --size 8K --verify
run ok coll -k 4 --topology aries --collective alltoallv --algo direct --counts random \
  --groups rows --size 16K --verify
run ok coll -k 4 --topology aries --groups "0,1,2,3;4,5,6,7" --size 16K --verify
run ok coll -k 4 --set 'package.faults=link:x(1,1)@800' --algo ring --size 64K --verify
run ok coll -k 8 --topology aries --algo mtree --size 64K --verify --set node.local_ports=2
run ok coll-sweep -k 4 --algos ring,dbt --topologies mesh,aries --sizes 1K,64K --csv s.csv
run ok fig10 --preset paper
run ok fig9 -k 4 --preset paper
run ok fig11 -k 4
run ok train --workload resnet50 --topology aries --algo dbt
run ok table1 -k 8
run refused --set package.k=0x4
run refused coll -k 4 --groups "0,1;1,2"
run refused --set package.topology=ring
run refused --set package.link_latency=1000 --set sim.watchdog=1000
echo "aries: $runs commands"
rm -rf "$logs"
echo "$findings findings"
[ "$findings" -eq 0 ]
