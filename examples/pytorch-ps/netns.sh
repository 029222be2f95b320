#!/bin/bash
# Network namespaces for the PS harness: one for the shards (server side), one for
# the workers, joined by one veth pair per shard (each shard has its own link, as
# in the model), each pair in its own private /30 that exists only inside these two
# namespaces. Both directions of every link are shaped with a tc token bucket
# (tbf): the server side's egress is the pull direction, the worker side's egress
# the push direction. Nothing is attached to the host's own namespace.
#
# Source it and call:
#   sgdps_up SHARDS          create namespaces and links (sets SGDPS_* below)
#   sgdps_rate BYTES_PER_S   (re)shape every link, both directions
#   sgdps_down               kill what runs inside them, delete them (idempotent)
# Run directly, `netns.sh selftest` creates, shapes, measures one transfer, removes.
#
# Exported: SGDPS_SRV_NS SGDPS_WRK_NS SGDPS_HOSTS (shard addresses, comma-separated)
#           SGDPS_DEVS (ns:dev of every shaped interface, comma-separated)

SGDPS_TAG=${SGDPS_TAG:-$$}
SGDPS_SRV_NS=sgdps-srv-$SGDPS_TAG
SGDPS_WRK_NS=sgdps-wrk-$SGDPS_TAG
SGDPS_SHARDS=0
# Queue limit and bucket: a small bucket (16 KiB, about 11 packets) so that a
# 100+ KB message is paced at the rate rather than sent in one burst; a long queue
# (4 MiB) so that concurrent flows wait in FIFO order instead of being dropped.
SGDPS_BURST=${SGDPS_BURST:-16kb}
SGDPS_LIMIT=${SGDPS_LIMIT:-4mb}

sgdps_dev() { # side(s|w) shard -> interface name (<= 15 characters)
	echo "sg$1$SGDPS_TAG$2"
}

sgdps_up() {
	local shards=$1 k s w
	SGDPS_SHARDS=$shards
	ip netns add "$SGDPS_SRV_NS"
	ip netns add "$SGDPS_WRK_NS"
	ip -n "$SGDPS_SRV_NS" link set lo up
	ip -n "$SGDPS_WRK_NS" link set lo up
	if [ -n "${SGDPS_SLOW_START_AFTER_IDLE:-}" ]; then # namespace-local TCP setting, Linux default 1
		ip netns exec "$SGDPS_SRV_NS" sysctl -qw net.ipv4.tcp_slow_start_after_idle="$SGDPS_SLOW_START_AFTER_IDLE"
		ip netns exec "$SGDPS_WRK_NS" sysctl -qw net.ipv4.tcp_slow_start_after_idle="$SGDPS_SLOW_START_AFTER_IDLE"
	fi
	SGDPS_HOSTS=""
	SGDPS_DEVS=""
	for ((k = 0; k < shards; k++)); do
		s=$(sgdps_dev s "$k")
		w=$(sgdps_dev w "$k")
		# Create the pair directly inside the namespaces: it never appears in the host's.
		ip -n "$SGDPS_SRV_NS" link add "$s" type veth peer name "$w" netns "$SGDPS_WRK_NS"
		ip -n "$SGDPS_SRV_NS" addr add "10.213.$k.1/30" dev "$s"
		ip -n "$SGDPS_WRK_NS" addr add "10.213.$k.2/30" dev "$w"
		# No segmentation offload: tbf then sees wire-sized packets.
		ip -n "$SGDPS_SRV_NS" link set "$s" gso_max_size 1514 up
		ip -n "$SGDPS_WRK_NS" link set "$w" gso_max_size 1514 up
		SGDPS_HOSTS+="${SGDPS_HOSTS:+,}10.213.$k.1"
		SGDPS_DEVS+="${SGDPS_DEVS:+,}$SGDPS_SRV_NS:$s,$SGDPS_WRK_NS:$w"
	done
	export SGDPS_SRV_NS SGDPS_WRK_NS SGDPS_HOSTS SGDPS_DEVS
}

sgdps_rate() {
	local rate=$1 k
	for ((k = 0; k < SGDPS_SHARDS; k++)); do
		ip netns exec "$SGDPS_SRV_NS" tc qdisc replace dev "$(sgdps_dev s "$k")" root tbf \
			rate "${rate}bps" burst "$SGDPS_BURST" limit "$SGDPS_LIMIT"
		ip netns exec "$SGDPS_WRK_NS" tc qdisc replace dev "$(sgdps_dev w "$k")" root tbf \
			rate "${rate}bps" burst "$SGDPS_BURST" limit "$SGDPS_LIMIT"
	done
}

sgdps_down() {
	local ns pid
	for ns in "$SGDPS_WRK_NS" "$SGDPS_SRV_NS"; do
		[ -e "/run/netns/$ns" ] || continue
		# Only processes inside our own namespaces: the harness's shards and workers.
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill "$pid" 2>/dev/null || true; done
		sleep 0.2
		for pid in $(ip netns pids "$ns" 2>/dev/null); do kill -9 "$pid" 2>/dev/null || true; done
		ip netns del "$ns" 2>/dev/null || true # deleting a namespace deletes its veth ends
	done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -euo pipefail
	case "${1:-}" in
	selftest)
		trap sgdps_down EXIT
		trap 'exit 130' INT TERM
		sgdps_up 1
		sgdps_rate "${2:-1000000}"
		ip netns exec "$SGDPS_SRV_NS" tc qdisc show
		ip netns exec "$SGDPS_SRV_NS" /usr/bin/python3 -c '
import socket
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("10.213.0.1", 7799)); s.listen(1); c, _ = s.accept()
c.sendall(b"x" * 2000000); c.close()' &
		sleep 1
		ip netns exec "$SGDPS_WRK_NS" /usr/bin/python3 -c '
import socket, time
s = socket.create_connection(("10.213.0.1", 7799)); t = time.time(); n = 0
while True:
    b = s.recv(1 << 16)
    if not b: break
    n += len(b)
dt = time.time() - t
print("received %d bytes in %.3f s: %.0f B/s payload" % (n, dt, n / dt))'
		wait
		;;
	*)
		echo "usage: netns.sh selftest [BYTES_PER_S]   (or source it; see the header)" >&2
		exit 2
		;;
	esac
fi
