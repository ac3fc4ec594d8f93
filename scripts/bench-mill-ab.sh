#!/usr/bin/env bash
# Interleaved A/B of the Mühle engine: the tablesmith of commit OLD (exported with git
# archive and built apart) against this tree's, each building Nine Men's Morris's moving
# sectors with at most 10 stones (--max-stones 10: retrograde pairs) and the whole 5-stone
# game (--stones 5: placement sectors, one pass each), RUNS times in turn, 2 workers. It
# prints each run's wall, user and system seconds and peak memory, the medians, and
# fails unless every file the new engine writes is byte-identical to the old one's.
# Usage: scripts/bench-mill-ab.sh OLD [RUNS] [OUT]
set -euo pipefail
old=${1:?usage: scripts/bench-mill-ab.sh OLD-COMMIT [RUNS] [OUT]}
runs=${2:-3}
out=${3:-bin/bench/mill-ab}
top=$(git rev-parse --show-toplevel)
cd "$top"
rm -rf "$out" && mkdir -p "$out/old-src"
git archive "$old" | tar -x -C "$out/old-src"
(cd "$out/old-src" && go build -o ../ts-old ./cmd/tablesmith)
go build -o "$out/ts-new" ./cmd/tablesmith
times="$out/times.txt"
: > "$times"
for i in $(seq 1 "$runs"); do
  for who in old new; do
    for what in max10 stones5; do
      d="$out/set-$who-$what"; rm -rf "$d"
      case $what in max10) args="--max-stones 10";; stones5) args="--stones 5";; esac
      /usr/bin/time -f "$who $what wall %e user %U sys %S maxrss_kb %M" "$out/ts-$who" build mill $args --workers 2 -o "$d" >/dev/null 2>>"$times"
    done
  done
done
cat "$times"
# Medians: wall, and CPU (user + system), per engine and build.
for key in "old max10" "new max10" "old stones5" "new stones5"; do
  grep "^$key " "$times" | awk '{ print $4, $6 + $8 }' > "$out/one.txt"
  m=$(wc -l < "$out/one.txt")
  wall=$(cut -d' ' -f1 "$out/one.txt" | sort -n | sed -n "$(( (m + 1) / 2 ))p")
  cpu=$(cut -d' ' -f2 "$out/one.txt" | sort -n | sed -n "$(( (m + 1) / 2 ))p")
  printf 'median %-12s wall %7.2f s, CPU %7.2f s (%d runs)\n' "$key" "$wall" "$cpu" "$m"
done
for what in max10 stones5; do
  n=0; same=0
  for f in "$out/set-old-$what"/*.tsm; do
    n=$((n + 1))
    if cmp -s "$f" "$out/set-new-$what/$(basename "$f")"; then same=$((same + 1)); fi
  done
  echo "$what: $same of $n files byte-identical"
  [ "$same" -eq "$n" ] && [ "$(ls "$out/set-new-$what"/*.tsm | wc -l)" -eq "$n" ] || { echo "$what: the engines' files differ"; exit 1; }
done
