#!/usr/bin/env bash
# make bench: figures, not pass/fail. Everything compared is measured in this one run.
#   1. bare tesseract (xargs -P cores, OMP_THREAD_LIMIT=1, --psm 6) vs receipts batch into a fresh store (and
#      with --no-second-pass), on N scans and on N phone photos (WILD_SET): ROUNDS rounds of the three back to
#      back, each round's ratios of its own measures, the median round reported
#   2. the same batch again on the unchanged folder (everything skipped by content hash)
#   3. peak memory for N and 4N receipts, for `parse` of a 600-dpi A4 page (SampleReceipts/my-a4-invoice-01.jpg),
#      and for a batch of every dev scan
#   3b. where the time goes, per set: `receipts eval --limit N` prints the seconds per receipt of each stage and
#      what each kind of extra look changed against the labels
#   4. the reconcile benchmark (10,000 receipts × 10,000 items)
#   5. the parser's cost against its input's size (1,000 / 10,000 / 100,000 lines, one 1 MB line, 5,000 dates),
#      and its throughput on the dev sets' true text and on SampleReceipts/text (receipts/s on one core, in process;
#      sets absent are skipped)
#   6. the store on both engines: a batch's claim-and-store calls per receipt with no OCR, and the
#      reconcile benchmark on PostgreSQL (a throw-away cluster with fsync on, unless
#      RECEIPTS_BENCH_POSTGRES names a server: then schemas bench_* are made there)
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=${BIN:-.build/release/receipts}
DEV=${DEV_SET:-../shared/data/sroie-dev}
WILD=${WILD_SET:-../shared/data/wild-dev}
N=${N:-40}
# Rounds of each speed comparison (bare tesseract, batch, one pass), interleaved; the median is reported.
ROUNDS=${ROUNDS:-3}
JOBS=${JOBS:-$(nproc)}
export OMP_THREAD_LIMIT=1
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mkdir -p "$work/n" "$work/4n"
# (no `ls | head` here: under pipefail, ls dies of SIGPIPE and takes the script with it)
if [ -d "$DEV/img" ]; then all=("$DEV"/img/*.jpg); else all=(SampleReceipts/*.png SampleReceipts/*.jpg); fi
src=("${all[@]:0:$N}")
for f in "${src[@]}"; do cp "$f" "$work/n/"; done
n=$(ls "$work/n" | wc -l)
# 4N distinct images: copies differ by trailing newlines after the image data (a new content hash each).
for k in 0 1 2 3; do for f in "$work"/n/*; do b=$(basename "$f"); { cat "$f"; printf '%*s' "$k" '' | tr ' ' '\n'; } > "$work/4n/$k-$b"; done; done

echo "bench: $n receipts, $JOBS jobs, $ROUNDS rounds, $(tesseract --version 2>&1 | head -1)"
# One measure: "wall:cpu", the wall-clock seconds and the CPU seconds (user + system, of everything it started) of a command.
timed() { python3 -c 'import resource, subprocess, sys, time
c0 = resource.getrusage(resource.RUSAGE_CHILDREN); t0 = time.monotonic()
subprocess.run(["bash", "-c", sys.argv[1]])
t1 = time.monotonic(); c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
print(f"{t1 - t0:.3f}:{c1.ru_utime + c1.ru_stime - c0.ru_utime - c0.ru_stime:.3f}")' "$1"; }
# Bare tesseract on a folder, or receipts batch into a fresh store (its log kept).
bare_secs() { timed "printf '%s\n' '$1'/* | xargs -P $JOBS -I{} tesseract {} - --psm 6 >/dev/null 2>&1"; }
batch_secs() { # DIR STORE LOG [flags]
  local d=$1 st=$2 log=$3; shift 3; rm -f "$st"
  timed "'$BIN' batch --quiet --jobs $JOBS $* --store '$st' '$d' 2> '$log' || true"
}
# One set: ROUNDS rounds of bare tesseract, receipts batch and batch --no-second-pass, back to back, the order
# turned round every other round; each round's ratios are of its own three measures (the shared machine's speed
# drifts within a run, so measures minutes apart are not compared), and the median round is reported; beside it the
# ratio of the CPU seconds each took (what a receipt costs the cores, whatever else the machine was doing).
# Prints its rows of the table (the looks taken counted in round 1).
compare() { # DIR LABEL TAG
  local d=$1 label=$2 tag=$3 k=$(ls "$1" | wc -l) r m order second
  local bares=() fulls=() singles=()
  for r in $(seq 1 "$ROUNDS"); do
    if [ $((r % 2)) = 1 ]; then order="bare full single"; else order="single full bare"; fi
    for m in $order; do
      case $m in
        bare) bares+=("$(bare_secs "$d")") ;;
        full) fulls+=("$(batch_secs "$d" "$work/$tag-a.sqlite" "$work/$tag-a$r.log")") ;;
        single) singles+=("$(batch_secs "$d" "$work/$tag-b.sqlite" "$work/$tag-b$r.log" --no-second-pass)") ;;
      esac
    done
  done
  second=$(grep -o 'second OCR look on [0-9]*' "$work/$tag-a1.log" | grep -o '[0-9]*$')
  python3 - "$k" "$label" "$second" "$JOBS" "${bares[*]}" "${fulls[*]}" "${singles[*]}" <<'PY'
import statistics, sys
k = int(sys.argv[1]); label, second, jobs = sys.argv[2], sys.argv[3], sys.argv[4]
# Each measure "wall:cpu" seconds, one a round.
bare, full, single = ([tuple(float(v) for v in x.split(":")) for x in a.split()] for a in sys.argv[5:8])
def row(name, times):
    rates = [k / t[0] for t in times]
    ratios = [b[0] / t[0] for b, t in zip(bare, times)]  # receipts/s against bare tesseract's in the same round
    cpu = [b[1] / t[1] for b, t in zip(bare, times)]     # the same by the CPU seconds each took
    cells = " / ".join(f"{x:.2f}" for x in ratios)
    print(f"| {name} | {statistics.median(rates):.2f} | {cells} | **{statistics.median(ratios):.2f}** | {statistics.median(cpu):.2f} |")
print(f"| bare tesseract on {k} {label}, xargs -P{jobs}, psm 6 | {statistics.median([k / t[0] for t in bare]):.2f} | "
      + " / ".join("1.00" for _ in bare) + " | 1.00 | 1.00 |")
row(f"receipts batch on the {label} (second look on {second} of {k})", full)
row(f"receipts batch --no-second-pass on the {label}", single)
PY
}
echo
echo "| measure | receipts/s (median round) | ratio to bare tesseract, round by round | median ratio | by CPU seconds (median) |"
echo "| --- | --- | --- | --- | --- |"
compare "$work/n" scans s
again=$(timed "'$BIN' batch --quiet --jobs $JOBS --store '$work/s-a.sqlite' '$work/n' 2> '$work/c.log' || true")
again=$(python3 -c "print(f'{$n/${again%%:*}:.2f}')")
echo "| receipts batch again on the unchanged scans folder | $again | (every image skipped by its hash) | | |"
"$BIN" batch --quiet --jobs "$JOBS" --no-second-pass --store "$work/d.sqlite" "$work/4n" 2> "$work/d.log" || true
mem_n=$(grep -o 'peak memory [0-9]* MB' "$work/s-b1.log" | grep -o '[0-9]*')
mem_4n=$(grep -o 'peak memory [0-9]* MB' "$work/d.log" | grep -o '[0-9]*')
# The phone photos: the same comparison on N of them (they take the second look and the re-reads far more often).
if [ -d "$WILD/img" ]; then
  mkdir -p "$work/p"; pall=("$WILD"/img/*.jpeg); for f in "${pall[@]:0:$N}"; do cp "$f" "$work/p/"; done
  compare "$work/p" "phone photos" p
fi
echo
echo "peak memory: $mem_n MB for $n receipts, $mem_4n MB for $((4 * n)) receipts"
# One process's peak resident memory (MB), from the kernel's accounting of finished children.
peak() { python3 -c 'import resource, subprocess, sys
subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024)' "$@"; }
a4=SampleReceipts/my-a4-invoice-01.jpg
echo "peak memory, parse of a 600-dpi A4 page ($a4): $(peak "$BIN" parse "$a4") MB (bare tesseract on it: $(peak tesseract "$a4" - --psm 6) MB)"
if [ -d "$DEV/img" ]; then
  "$BIN" batch --quiet --jobs "$JOBS" --store "$work/all.sqlite" "$DEV/img" 2> "$work/all.log" || true
  echo "peak memory, batch of every dev scan ($(ls "$DEV/img" | wc -l)), $JOBS jobs: $(grep -o 'peak memory [0-9]* MB' "$work/all.log" | grep -o '[0-9]*') MB"
fi
# Where the time goes: each stage's seconds per receipt and what the extra looks changed, on N of each set.
for set in "$DEV" "$WILD"; do
  [ -d "$set/key" ] || continue
  flags=(); [ "$set" = "$WILD" ] && flags=(--spaceless --month-first --either-order)
  echo; echo "== $(basename "$set"), first $N receipts: receipts eval --limit $N --jobs $JOBS ${flags[*]}"
  "$BIN" eval --limit "$N" --jobs "$JOBS" "${flags[@]}" "$set" 2>/dev/null | sed -n '/^seconds per receipt/,/^misses/p' | grep -v '^misses' || true
done
if swift build -c release --product receipts-bench >/dev/null 2>&1; then
  echo; .build/release/receipts-bench reconcile
  echo; .build/release/receipts-bench parser
  # (SampleReceipts/text: the project's own German, French, Spanish and British receipts as true text, lines
  # with letters and signs that are not ASCII, which the dev sets hardly have. Always there.)
  sets=(SampleReceipts/text)
  for d in "$DEV" "$WILD"; do
    if [ -d "$d/box" ]; then sets+=("$d"); else echo; echo "parser throughput on $d skipped: no true text there ($d/box)"; fi
  done
  # (The five slowest receipts of each set, and their share: where a parser change looks first.)
  if [ ${#sets[@]} -gt 0 ]; then echo; .build/release/receipts-bench parse-text --slowest 5 "${sets[@]}"; fi
  # 6. SQLite against PostgreSQL, same machine, same run.
  pg=${RECEIPTS_BENCH_POSTGRES:-}
  if [ -z "$pg" ]; then
    if pg=$(PG_FSYNC=on scripts/pg-test-cluster start "$work/pg" 2>"$work/pg.err"); then
      trap 'scripts/pg-test-cluster stop "$work/pg"; rm -rf "$work"' EXIT
    else pg=""; echo; echo "PostgreSQL figures skipped: $(head -1 "$work/pg.err")"; fi
  fi
  if [ -n "$pg" ]; then
    schema() { local s="bench_$1_$$"; psql "$pg" -qc "CREATE SCHEMA $s" >/dev/null; echo "$pg$([[ $pg == *\?* ]] && echo '&' || echo '?')options=-csearch_path%3D$s"; }
    echo
    echo "the store's own cost (no OCR; a receipt takes about 1,000 ms of OCR):"
    .build/release/receipts-bench store --store "$work/claims.sqlite" --count 2000 --jobs "$JOBS"
    .build/release/receipts-bench store --store "$(schema claims)" --count 2000 --jobs "$JOBS"
    echo; echo "on PostgreSQL:"; .build/release/receipts-bench reconcile --store "$(schema reconcile)"
  fi
fi
