#!/usr/bin/env bash
# The puzzle engines side by side, interleaved: for each round and board, the byte
# engine, the two-bit engine with half-depth codes (2 bits a slot, the default on slide),
# with depth-mod-3 codes (3 bits a slot while searching) and its lean search (2 bits a
# slot), in an order rotated every round: wall, user and system time and peak memory
# (GNU time), the table's size, and the per-depth counts compared. Usage: scripts/twobit-compare.sh [ROUNDS] [BOARDS...]  (default 3, 3x4 2x6)
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
    case $((r % 4)) in
      1) engines="bytes half two-bit lean" ;;
      2) engines="half two-bit lean bytes" ;;
      3) engines="two-bit lean bytes half" ;;
      0) engines="lean bytes half two-bit" ;;
    esac
    for e in $engines; do
      f="$OUT/slide-$b-$e.tsm"
      flags=(--engine "$e")
      [ "$e" = half ] && flags=(--engine two-bit --codes half-depth)
      [ "$e" = two-bit ] && flags+=(--codes depth-mod-3 --search-bits 3)
      [ "$e" = lean ] && flags=(--engine two-bit --codes depth-mod-3 --search-bits 2)
      t=$( { /usr/bin/time -f "%e %U %S %M" "$BIN" build slide --rows "$rows" --cols "$cols" "${flags[@]}" --checkpoint never -o "$f" --json > "$OUT/last.json"; } 2>&1 | tail -1)
      read -r wall user sys rss <<<"$t"
      s=$(python3 -c "import json;d=json.load(open('$OUT/last.json'));print(f\"{d['search_seconds']:.2f} {d['write_seconds']:.2f} {d['bytes']}\")")
      read -r search write bytes <<<"$s"
      printf "round %d %s %-8s wall %6.2f s  search %6.2f s  write %5.2f s  user %6.2f s  sys %5.2f s  peak %7.1f MiB  table %7.1f MiB\n" \
        "$r" "$b" "$e" "$wall" "$search" "$write" "$user" "$sys" "$(echo "$rss/1024" | bc -l)" "$(echo "$bytes/1048576" | bc -l)"
    done
    a=$("$BIN" info --json "$OUT/slide-$b-bytes.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    c=$("$BIN" info --json "$OUT/slide-$b-two-bit.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    l=$("$BIN" info --json "$OUT/slide-$b-lean.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    h=$("$BIN" info --json "$OUT/slide-$b-half.tsm" | python3 -c "import json,sys;print(json.load(sys.stdin)['counts'])")
    [ "$a" = "$c" ] && [ "$a" = "$l" ] && [ "$a" = "$h" ] && echo "round $r $b counts identical: $c" || { echo "round $r $b COUNTS DIFFER: bytes $a two-bit $c lean $l half $h"; exit 1; }
  done
done
