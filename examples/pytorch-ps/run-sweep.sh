#!/bin/bash
# One command, end to end: install the Debian packages, create the shaped
# namespaces, run the sweep, write the canonical trace (OUT/{steps,updates}.csv.gz,
# OUT/{runs,evals}.csv; the CPU-bound runs in OUT/cpu/), remove the namespaces.
#
#   sudo examples/pytorch-ps/run-sweep.sh [OUT]        (OUT defaults to testdata/asgd)
#
# Settings (environment):
#   DURATION   seconds of training per run (30)
#   WORKERS    worker counts ("1 2 3 4 6 8")
#   SHARDS     shard counts ("1 2")
#   RATES      link rates, bytes/s per shard link and direction ("3000000 6000000")
#   FLOOR      compute time floor, seconds, emulating an accelerator (0.1); 0 = none
#   BATCH HIDDEN LR   mini-batch (32), hidden units (700), SGD step (0.1)
#   NICE       niceness of the shards, workers and evaluator (-10): they use well under
#              one core, and a higher priority keeps other jobs on a shared machine from
#              adding scheduling delays to the transfers being measured
#   CPU_SERIES "1" adds runs cpu-* without the floor and with batch CPU_BATCH (8192,
#              sampled with replacement) at the slower rate and 1 shard: every worker
#              computes on the host CPU, and the 2 cores rather than the link limit the
#              job from 2 workers on (default 1)
#   SUMMARY    where the per-run summary table goes (results/summary.csv)
#   PROFILE_DIR  when set, worker 0 of each run writes a torch.profiler Chrome trace
#              there (NAME.pt.trace.json); profiling slows that worker: not for the sweep
#   ONLY       run only runs whose name contains this string (for tests)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/testdata/asgd}" && cd "${1:-$ROOT/testdata/asgd}" && pwd)
DURATION=${DURATION:-30}
WORKERS=${WORKERS:-"1 2 3 4 6 8"}
SHARDS=${SHARDS:-"1 2"}
RATES=${RATES:-"3000000 6000000"}
SUMMARY=${SUMMARY:-$HERE/results/summary.csv}
FLOOR=${FLOOR:-0.1}
BATCH=${BATCH:-32}
HIDDEN=${HIDDEN:-700}
LR=${LR:-0.1}
CPU_SERIES=${CPU_SERIES:-1}
CPU_BATCH=${CPU_BATCH:-8192}
NICE=${NICE:--10}
ONLY=${ONLY:-}
PY=/usr/bin/python3

if [ "$(id -u)" != 0 ]; then
	echo "run-sweep.sh: needs root (network namespaces, tc)" >&2
	exit 2
fi
need=()
for p in python3-torch python3-sklearn python3-numpy iproute2 gzip; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
	apt-get update -q
	DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -q \
		--no-install-recommends "${need[@]}"
fi

WORK=$(mktemp -d /tmp/sgdps-XXXXXX)
# shellcheck source=netns.sh
. "$HERE/netns.sh"
RUNPID=""
cleanup() {
	# The orchestrator of the current run, if any (our child, by pid), then
	# everything inside our namespaces, then the namespaces.
	[ -n "$RUNPID" ] && kill "$RUNPID" 2>/dev/null
	sgdps_down
	[ -n "${KEEP:-}" ] && echo "kept $WORK" >&2 || rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

maxps=0
for p in $SHARDS; do [ "$p" -gt "$maxps" ] && maxps=$p; done
sgdps_up "$maxps"
$PY "$HERE/psharness.py" data "$WORK/digits.npz" --hidden "$HIDDEN"
HARDWARE="$(nproc) CPU cores ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ *//')),"
HARDWARE+=" $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo), Linux $(uname -r);"
HARDWARE+=" shards and workers on one machine, links = veth + tc tbf"

runone() { # name workers ps rate batch floor nice
	local name=$1 n=$2 p=$3 rate=$4 batch=$5 floor=$6 nice=$7
	if [ -n "$ONLY" ] && [[ $name != *"$ONLY"* ]]; then return; fi
	sgdps_rate "$rate"
	local devs="" k
	for ((k = 0; k < p; k++)); do
		devs+="${devs:+,}$SGDPS_SRV_NS:$(sgdps_dev s "$k"),$SGDPS_WRK_NS:$(sgdps_dev w "$k")"
	done
	echo "== $name $(date -u +%T)" >&2
	# In the background + wait, so that INT/TERM interrupt the wait at once
	# (bash runs traps only between foreground commands).
	$PY "$HERE/psharness.py" run --run "$name" --rundir "$WORK/run" --out "$WORK/out/$name" \
		--workers "$n" --ps "$p" --batch "$batch" --hidden "$HIDDEN" --lr "$LR" \
		--duration "$DURATION" --compute-floor "$floor" --nice "$nice" --hosts "$SGDPS_HOSTS" \
		--srv-ns "$SGDPS_SRV_NS" --wrk-ns "$SGDPS_WRK_NS" --tc-devs "$devs" \
		--bandwidth "$rate" --data "$WORK/digits.npz" --hardware "$HARDWARE" \
		${PROFILE_DIR:+--profile "$PROFILE_DIR/$name.pt.trace.json"} &
	RUNPID=$!
	wait "$RUNPID"
	RUNPID=""
}

set -- $RATES
SLOW=$1
for rate in $RATES; do
	for p in $SHARDS; do
		for n in $WORKERS; do
			runone "$(printf 'r%dk-p%d-n%d' $((rate / 1000)) "$p" "$n")" "$n" "$p" "$rate" "$BATCH" "$FLOOR" "$NICE"
		done
	done
done
if [ "$CPU_SERIES" = 1 ]; then
	for n in $WORKERS; do
		runone "$(printf 'cpu-r%dk-p1-n%d' $((SLOW / 1000)) "$n")" "$n" 1 "$SLOW" "$CPU_BATCH" 0 "$NICE"
	done
fi

# Merge the runs into one set of canonical files with a run column.
$PY - "$WORK/out" "$OUT" "$SUMMARY" <<'EOF'
import csv, gzip, json, os, sys
src, out = sys.argv[1], sys.argv[2]
runs = sorted(os.listdir(src))
# The CPU-bound runs (cpu-*) go to OUT/cpu: they have another batch and no
# compute floor, and a fit of the link-bound sweep must not mix them in.
parts = [(out, [r for r in runs if not r.startswith("cpu-")]),
         (os.path.join(out, "cpu"), [r for r in runs if r.startswith("cpu-")])]
for dst, sel in parts:
    if not sel:
        continue
    os.makedirs(dst, exist_ok=True)
    for name, gz in (("steps.csv", True), ("updates.csv", True), ("evals.csv", False), ("runs.csv", False)):
        path = os.path.join(dst, name + (".gz" if gz else ""))
        tmp = path + ".tmp"
        with (gzip.open(tmp, "wt", newline="", compresslevel=9) if gz else open(tmp, "w", newline="")) as f:
            w = csv.writer(f)
            header = None
            for r in sel:
                with open(os.path.join(src, r, name), newline="") as g:
                    rd = csv.reader(g)
                    h = next(rd)
                    if header is None:
                        header = h
                        w.writerow(h)
                    assert h == header, (r, name, h)
                    w.writerows(rd)
        os.replace(tmp, path)
keys = ["run", "workers", "ps", "batch", "bandwidth", "compute_floor", "duration", "steps", "steps_per_s",
        "mean_pull", "mean_compute", "median_cpu_gradient", "mean_push", "mean_staleness",
        "harness_cpu_cores", "machine_cpu_busy", "loadavg_start", "max_link_util", "startup_s"]
summ = sys.argv[3]
os.makedirs(os.path.dirname(summ), exist_ok=True)
with open(summ, "w", newline="") as f:
    w = csv.writer(f)
    w.writerow(keys)
    for r in runs:
        with open(os.path.join(src, r, "summary.json")) as g:
            s = json.load(g)
        s["max_link_util"] = max(s["link_util"].values()) if s["link_util"] else float("nan")
        w.writerow([("%.4g" % s[k]) if isinstance(s[k], float) else s[k] for k in keys])
print("wrote", out, "and", summ)
EOF
