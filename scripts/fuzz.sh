#!/usr/bin/env bash
# make fuzz: every fuzz target under libFuzzer + AddressSanitizer for a fixed time each, then one
# line per target: inputs tried, crashes, timeouts, out-of-memory, peak memory.
#   SECONDS_EACH (default 60)  time per target;  TARGETS (default: all)  which ones;
#   CORPUS_ROOT (default .build-fuzz-work/corpus)  where each target's corpus grows;
#   SEED, RUNS_EACH (default: none)  a fixed seed and input count, so a run is the same on every machine
#   (`make test` runs that way: CI must not go red on a lucky draw; a crash found there is found here too).
# Findings are kept in .build-fuzz-work/artifacts/RUN/ (TARGET-crash-*, -timeout-*, -oom-*); the corpus grows in
# .build-fuzz-work/corpus/TARGET across runs. Replay one finding with a plain build:
#   swift build --product receipts-fuzz && .build/debug/receipts-fuzz TARGET FILE
set -euo pipefail
cd "$(dirname "$0")/.."
EACH=${SECONDS_EACH:-60}
fixed=""
[ -n "${SEED:-}" ] && fixed="$fixed -seed=$SEED"
[ -n "${RUNS_EACH:-}" ] && fixed="$fixed -runs=$RUNS_EACH"
TARGETS=${TARGETS:-"image parser inventory rules vendors"}
SCRATCH=.build-fuzz          # SwiftPM's build of the libFuzzer target
WORK=.build-fuzz-work        # corpus, findings, logs (apart: SwiftPM owns its scratch folder)
# Swift on Linux supports address, thread and fuzzer sanitizers (not undefined): Swift's own
# arithmetic and bounds are checked in every build; ASan watches memory (heap overflows, use after
# free, double free) in our code and, through its malloc, double frees anywhere.
# Linked with the toolchain's lld: Debian's gold fails on this link ("internal error in format_file_lineno").
mkdir -p "$SCRATCH"
swift build -c release --scratch-path "$SCRATCH" --product receipts-fuzz \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -DRECEIPTS_LIBFUZZER \
  -Xswiftc -Xclang-linker -Xswiftc -fuse-ld=lld >"$SCRATCH/build.log" 2>&1 \
  || { tail -30 "$SCRATCH/build.log"; echo "fuzz: the libFuzzer build failed (log: $SCRATCH/build.log)"; exit 1; }
BIN="$SCRATCH/release/receipts-fuzz"
RUN="$WORK/artifacts/$(date +%Y%m%d-%H%M%S)"
mkdir -p "$RUN" "$WORK/logs"
# Swift's own backtracer off: libFuzzer and ASan report a crash (and save the input) themselves.
export OMP_THREAD_LIMIT=1 ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0} SWIFT_BACKTRACE=enable=no
failed=0
printf '%-10s %10s %8s %8s %9s %6s %12s\n' target inputs crashes timeouts oom "s" "peak RSS"
for t in $TARGETS; do
  corpus="${CORPUS_ROOT:-$WORK/corpus}/$t"; log="$WORK/logs/$t.log"
  mkdir -p "$corpus"
  # -timeout: one input longer than 10 s is a hang; -rss_limit_mb: more than 2 GB is a memory bomb.
  # Inputs stay the size of the real thing (a receipt's text is a few KB; enormous inputs are the
  # parser benchmark's job): libFuzzer grows them gradually (-len_control, which our custom
  # mutator would otherwise turn off) up to -max_len.
  case $t in
    image) limits="-max_len=262144" ;;
    inventory) limits="-max_len=65536 -len_control=100" ;;
    *) limits="-max_len=4096 -len_control=100" ;;
  esac
  set +e
  FUZZ_TARGET=$t FUZZ_SEEDS_DIR="$corpus" FUZZ_REPO="$PWD" "$BIN" "$corpus" \
    -max_total_time="$EACH" -timeout=10 -rss_limit_mb=2048 $limits $fixed -print_final_stats=1 \
    -artifact_prefix="$RUN/$t-" >"$log" 2>&1
  rc=$?
  set -e
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo 0)
  rss=$(grep -o 'stat::peak_rss_mb: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  secs=$(grep -o 'Done [0-9]* runs in [0-9]* second' "$log" | grep -o 'in [0-9]*' | grep -o '[0-9]*' || echo "$EACH")
  crashes=$(ls "$RUN" | grep -c "^$t-crash-" || true); timeouts=$(ls "$RUN" | grep -c "^$t-timeout-" || true)
  ooms=$(ls "$RUN" | grep -c "^$t-oom-" || true)
  printf '%-10s %10s %8s %8s %9s %6s %9s MB\n' "$t" "$runs" "$crashes" "$timeouts" "$ooms" "$secs" "$rss"
  if [ "$rc" != 0 ] || [ "$crashes$timeouts$ooms" != 000 ]; then
    failed=1
    echo "  $t: libFuzzer exit $rc; findings in $RUN/, log $log:"
    grep -E 'ERROR|SUMMARY|Fatal|deadly|timeout' "$log" | head -5 | sed 's/^/    /'
  fi
done
exit $failed
