#!/usr/bin/env bash
# Both puzzle engines side by side, interleaved: for each round and board, the byte
# engine then the two-bit engine (order swapped every other round), wall, user and
# system time and peak memory (GNU time), the table's size, and the per-depth counts
# compared. Usage: scripts/twobit-compare.sh [ROUNDS] [BOARDS...]  (default 3, 3x4 2x6)
set -euo pipefail
BIN=${BIN:-bin/tablesmith}
OUT=${OUT:-bin/bench/twobit}
ROUNDS=${1:-3}; shift || true
BOARDS=${*:-3x4 2x6}
mkdir -p "$OUT"
echo "# $(date -u +%FT%TZ) $(uname -n) $(nproc) CPUs, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem:/{print $2}') GiB"
for r in $(seq 1 "$ROUNDS"); do
  for b in $BOARDS; do
    rows=${b%x*}; cols=${b#*x}
    engines="bytes two-bit"; [ $((r % 2)) = 0 ] && engines="two-bit bytes"
    for e in $engines; do
      f="$OUT/slide-$b-$e.tsm"
      t=$( { /usr/bin/time -f "%e %U %S %M" "$BIN" build slide --rows "$rows" --cols "$cols" --engine "$e" --checkpoint never -o "$f" --json > "$OUT/last.json"; } 2>&1 | tail -1)
      read -r wall user sys rss <<<"$t"
      s=$(python3 -c "import json;d=json.load(open('$OUT/last.json'));print(f\"{d['search_seconds']:.2f} {d['write_seconds']:.2f} {d['bytes']}\")")
      read -r search write bytes <<<"$s"
      printf "round %d %s %-8s wall %6.2f s  search %6.2f s  write %5.2f s  user %6.2f s  sys %5.2f s  peak %7.1f MiB  table %7.1f MiB\n" \
        "$r" "$b" "$e" "$wall" "$search" "$write" "$user" "$sys" "$(echo "$rss/1024" | bc -l)" "$(echo "$bytes/1048576" | bc -l)"
    done
    a=$("$BIN" info --json "$OUT/slide-$b-bytes.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    c=$("$BIN" info --json "$OUT/slide-$b-two-bit.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    [ "$a" = "$c" ] && echo "round $r $b counts identical: $c" || { echo "round $r $b COUNTS DIFFER: bytes $a two-bit $c"; exit 1; }
  done
done
