#!/usr/bin/env bash
# A real Slurm run of `tablesmith plan`: a one-node cluster on localhost (Debian's
# slurm-wlm and munge, every daemon's state, spool, log and pid files under a temporary
# directory), the Mühle sectors with at most 8 stones built as one job per sector pair,
# checked against an in-process build (SHA-256 of every file) and by `tablesmith verify`;
# then failures — a corrupted file, a cancelled job whose dependents Slurm cancels, a
# running job killed — each rescued by planning again and submitting the new script.
# Needs root (it installs packages and runs the daemons as root). Fails loudly: any
# problem exits non-zero after printing the daemons' and the jobs' logs.
set -euo pipefail
cd "$(dirname "$0")/.."
start=$SECONDS
say() { printf '== slurm-test [%3ds] %s\n' $((SECONDS - start)) "$*"; }
die() { echo "slurm-test: FAIL: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || die "run as root (installs slurm-wlm and munge, runs the daemons)"
if ! command -v slurmctld >/dev/null || ! command -v munged >/dev/null; then
  say "installing slurm-wlm and munge"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null
fi

T=$(mktemp -d /tmp/tablesmith-slurm.XXXXXX)
chmod 700 "$T"
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log" "$T/shared"
pids=()
cleanup() {
  rc=$?
  if [ "$rc" != 0 ]; then
    echo "---- slurm-test failed (exit $rc); squeue:"; squeue 2>&1 || true
    for f in "$T"/log/*.log "$T"/shared/*/logs/*.out; do
      [ -f "$f" ] || continue
      echo "---- $f"; tail -n 60 "$f"
    done
  fi
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do # slurmd, slurmctld, munged: by their own PIDs
    kill "${pids[i]}" 2>/dev/null || true
  done
  for p in "${pids[@]}"; do
    for _ in $(seq 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$p" 2>/dev/null || true
  done
  if [ "$rc" = 0 ]; then rm -rf "$T"; else echo "slurm-test: files kept in $T"; fi
  exit "$rc"
}
trap cleanup EXIT

# Two free TCP ports (another run of this script may hold the usual 6817/6818).
free_port() {
  local p
  while :; do
    p=$((20000 + RANDOM % 30000))
    (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null || { echo "$p"; return; }
  done
}
ctld_port=$(free_port)
slurmd_port=$(free_port)
[ "$ctld_port" != "$slurmd_port" ] || slurmd_port=$((ctld_port + 1))

say "munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged --foreground --force --key-file="$T/munge/munge.key" --socket="$T/munge/munge.socket" \
  --pid-file="$T/munge/munged.pid" --seed-file="$T/munge/munge.seed" --log-file="$T/log/munged.log" \
  >"$T/log/munged.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 50); do [ -S "$T/munge/munge.socket" ] && break; sleep 0.1; done
[ -S "$T/munge/munge.socket" ] || die "munged did not start"

cpus=$(nproc)
mem_mb=$(free -m | awk '/^Mem:/ { printf "%d", $2 * 0.9 }')
export SLURM_CONF="$T/slurm.conf"
cat >"$SLURM_CONF" <<EOF
ClusterName=tablesmith-test
SlurmctldHost=$(hostname -s)(127.0.0.1)
SlurmctldPort=$ctld_port
SlurmdPort=$slurmd_port
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.socket
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=5
SlurmctldTimeout=30
SlurmdTimeout=30
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF

say "slurmctld (port $ctld_port) and slurmd (port $slurmd_port): $cpus CPUs, $mem_mb MB"
slurmctld -D -c -f "$SLURM_CONF" >"$T/log/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$T/log/slurmd.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 120); do
  state=$(sinfo -h -n localhost -o %t 2>/dev/null || true)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || die "the node is not idle after 60 s (sinfo says '$state')"
say "node idle"

say "building bin/tablesmith and the in-process reference set"
go build -o bin/tablesmith ./cmd/tablesmith
TS=$(pwd)/bin/tablesmith
REF=$T/ref
DIR=$T/shared/mill8
"$TS" build mill --max-stones 8 --workers 2 -o "$REF" >/dev/null

# wait_jobs: poll squeue until no job is left (at most 240 s).
wait_jobs() {
  local n
  for _ in $(seq 480); do
    n=$(squeue -h | wc -l)
    [ "$n" = 0 ] && return 0
    sleep 0.5
  done
  die "jobs still queued after 240 s"
}

# job_state ID: the job's state, from slurmctld's memory (MinJobAge keeps finished jobs).
job_state() { scontrol show job "$1" | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p'; }

# same_as_ref: every table file of DIR is the reference's, byte for byte, and the set
# verifies.
same_as_ref() {
  local want got
  want=$(cd "$REF" && sha256sum sector-*.tsm)
  got=$(cd "$DIR" && sha256sum sector-*.tsm)
  [ "$want" = "$got" ] || { diff <(echo "$want") <(echo "$got") || true; die "the cluster-built set differs from the in-process build"; }
  "$TS" verify --workers 2 "$DIR" || die "verify $DIR"
  [ "$("$TS" plan mill --max-stones 8 -o "$DIR" --emit json | grep -o '"id"' | wc -l)" = 0 ] || die "a complete set still plans units"
}

# pending: the units a plan of DIR lists, as "mill-4-3 mill-4-4 …".
pending() { "$TS" plan mill --max-stones 8 -o "$DIR" --emit json | grep -o '"id":"[^"]*"' | cut -d'"' -f4 | xargs; }

# submit [FLAGS]: plan, submit, and print "unit job-id" lines.
submit() { "$TS" plan mill --max-stones 8 -o "$DIR" --emit slurm --submit --cores 1 "$@"; }

say "1. the whole set: plan, submit, wait"
"$TS" plan mill --max-stones 8 -o "$DIR" --cores 1
submit | tee "$T/jobs1"
[ "$(wc -l <"$T/jobs1")" = 4 ] || die "want 4 jobs"
wait_jobs
while read -r unit id; do
  s=$(job_state "$id")
  [ "$s" = COMPLETED ] || die "job $id ($unit) ended $s"
done <"$T/jobs1"
same_as_ref
say "1. OK: 4 jobs, the same bytes as the in-process build, verify OK"

say "2. a corrupted file: only its pair is planned again"
f=$DIR/sector-4-3.tsm
size=$(stat -c %s "$f")
printf '\xff' | dd of="$f" bs=1 seek=$((size / 2)) conv=notrunc status=none
[ "$(pending)" = mill-4-3 ] || die "after corrupting sector-4-3.tsm the plan lists '$(pending)', want mill-4-3"
submit | tee "$T/jobs2"
wait_jobs
same_as_ref
say "2. OK: rescued"

say "3. a cancelled job: Slurm cancels its dependents; the rescue plan holds all three"
rm "$DIR"/sector-4-3.tsm "$DIR"/sector-3-4.tsm "$DIR"/sector-4-4.tsm "$DIR"/sector-5-3.tsm "$DIR"/sector-3-5.tsm
[ "$(pending)" = "mill-4-3 mill-4-4 mill-5-3" ] || die "plan lists '$(pending)'"
submit --sbatch-flag=--hold | tee "$T/jobs3"
first=$(awk '$1 == "mill-4-3" { print $2 }' "$T/jobs3")
scancel "$first"
awk '$1 != "mill-4-3" { print $2 }' "$T/jobs3" | xargs scontrol release
wait_jobs
while read -r unit id; do
  s=$(job_state "$id")
  [ "$s" = CANCELLED ] || die "job $id ($unit) ended $s, want CANCELLED"
done <"$T/jobs3"
[ "$(pending)" = "mill-4-3 mill-4-4 mill-5-3" ] || die "after the cancellation the plan lists '$(pending)'"
submit | tee "$T/jobs3b"
wait_jobs
same_as_ref
say "3. OK: dependents cancelled, rescued"

say "4. a running job killed: its unit is planned again"
rm "$DIR"/sector-5-3.tsm
submit | tee "$T/jobs4"
id=$(awk '{ print $2 }' "$T/jobs4")
for _ in $(seq 240); do [ "$(job_state "$id")" = RUNNING ] && break; sleep 0.25; done
[ "$(job_state "$id")" = RUNNING ] || die "job $id did not start"
sleep 1
scancel "$id"
wait_jobs
[ "$(pending)" = mill-5-3 ] || die "after killing job $id the plan lists '$(pending)'"
submit
wait_jobs
same_as_ref
leftovers=$(find "$DIR" -name '.ts-*.tmp')
[ -z "$leftovers" ] || die "temporary files left behind: $leftovers"
say "4. OK: rescued, no temporary files left"

say "passed in $((SECONDS - start)) s"
