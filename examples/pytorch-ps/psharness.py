#!/usr/bin/python3
"""Asynchronous SGD with parameter-server shards, written as sgdplan's canonical trace.

P shard processes hold contiguous slices of the flattened parameters of a small MLP
and apply plain SGD to every gradient they receive; N worker processes repeat
pull (from every shard, in parallel threads) -> gradient on a mini-batch of
scikit-learn's digits -> push (to every shard, in parallel threads), never waiting
for each other. One evaluator process samples the held-out loss during the run.
Every process is single-threaded for torch (torch.set_num_threads(1)).

All processes run on one machine and time themselves with CLOCK_MONOTONIC, which
they share; times in the trace are seconds since the run's start t0, chosen by
the orchestrator once every process is ready.

Subcommands (run-sweep.sh calls them; see README.md):
  data   OUT.npz                   write the digits train/test split once
  shard  ...                       one PS shard (server namespace)
  worker ...                       one worker (worker namespace)
  eval   ...                       the evaluator (server namespace, unshaped path)
  run    ...                       orchestrate one run and write its trace files

Wire protocol (TCP, big-endian, one persistent connection per worker and shard):
  request  = op:1s worker:i step:q read_version:q    (op P = pull, G = push, Q = quit)
  pull   reply = version:q, then the shard's float32 slice (its size is known)
  push   the request is followed by the gradient slice (float32);
         reply = version_after:q staleness:q apply_seconds:d
"""

import argparse
import contextlib
import csv
import json
import os
import socket
import struct
import subprocess
import sys
import threading
import time

# One thread per process, BLAS included: Debian's numpy and torch use OpenBLAS,
# whose extra threads spin between calls and, unchecked, burn more CPU than the
# gradients themselves (must be set before numpy or torch is imported).
for _v in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ[_v] = "1"

import numpy as np  # noqa: E402

REQ = struct.Struct("!ciqq")  # op, worker, step, read_version
PULL_REPLY = struct.Struct("!q")
PUSH_REPLY = struct.Struct("!qqd")
PORT = 7700


def now():
    return time.clock_gettime(time.CLOCK_MONOTONIC)


def recv_into(sock, view):
    """Fill the writable memoryview from sock; raise on a closed connection.

    MSG_WAITALL lets the kernel collect a large message, which arrives one paced
    packet at a time, without returning to Python for every packet."""
    n = len(view)
    got = 0
    while got < n:
        k = sock.recv_into(view[got:], n - got, socket.MSG_WAITALL)
        if k == 0:
            raise ConnectionError("connection closed by peer")
        got += k


def recv_exact(sock, n):
    buf = bytearray(n)
    recv_into(sock, memoryview(buf))
    return bytes(buf)


def connect(host, port, timeout=60.0):
    deadline = time.time() + timeout
    while True:
        try:
            s = socket.create_connection((host, port), timeout=30)
            s.settimeout(None)
            s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
            return s
        except OSError:
            if time.time() > deadline:
                raise
            time.sleep(0.05)


def wait_go(rundir):
    """Block until the orchestrator publishes t0 (CLOCK_MONOTONIC seconds)."""
    path = os.path.join(rundir, "go")
    while not os.path.exists(path):
        time.sleep(0.02)
    with open(path) as f:
        return float(f.read())


def touch(path):
    with open(path + ".tmp", "w") as f:
        f.write(str(os.getpid()))
    os.replace(path + ".tmp", path)


# ---------------------------------------------------------------- model


def build_model(hidden, seed):
    import torch

    torch.manual_seed(seed)
    return torch.nn.Sequential(
        torch.nn.Linear(64, hidden), torch.nn.ReLU(), torch.nn.Linear(hidden, 10)
    )


def flat_model(hidden, seed):
    """The model with every parameter a view into one flat float32 tensor."""
    import torch

    model = build_model(hidden, seed)
    params = list(model.parameters())
    flat = torch.cat([p.data.reshape(-1) for p in params]).contiguous()
    off = 0
    for p in params:
        n = p.numel()
        p.data = flat[off : off + n].view_as(p)
        off += n
    return model, params, flat


def shard_range(total, ps, k):
    return total * k // ps, total * (k + 1) // ps


# ---------------------------------------------------------------- shard


def cmd_shard(a):
    init = np.load(a.data)["init"]  # the model's initial flat parameters (see cmd_data)
    assert init.size == n_params(a.hidden), "data file made for another --hidden"
    lo, hi = shard_range(init.size, a.ps, a.shard)
    w = init[lo:hi].astype(np.float32).copy()
    n = hi - lo
    lock = threading.Lock()
    state = {"version": 0}
    log = []  # (worker, time, version, staleness, apply)
    stop = threading.Event()

    def serve(conn):
        grad = np.empty(n, dtype=np.float32)
        gview = memoryview(grad).cast("B")
        try:
            while True:
                op, worker, step, read_version = REQ.unpack(recv_exact(conn, REQ.size))
                if op == b"P":
                    with lock:
                        v = state["version"]
                        payload = w.tobytes()
                    conn.sendall(PULL_REPLY.pack(v) + payload)
                elif op == b"G":
                    recv_into(conn, gview)
                    with lock:
                        t = now()
                        np.subtract(w, a.lr * grad, out=w)
                        state["version"] += 1
                        v = state["version"]
                        stale = v - 1 - read_version
                        t2 = now()
                        log.append((worker, t2, v, stale, t2 - t))
                    conn.sendall(PUSH_REPLY.pack(v, stale, t2 - t))
                elif op == b"Q":
                    stop.set()
                    conn.sendall(b"k")
                    return
                else:
                    raise ValueError("bad op %r" % op)
        except (ConnectionError, OSError):
            return
        finally:
            conn.close()

    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind((a.host, a.port))
    srv.listen(64)
    srv.settimeout(0.2)
    touch(os.path.join(a.rundir, "ready-shard%d" % a.shard))
    while not stop.is_set():
        try:
            conn, _ = srv.accept()
        except socket.timeout:
            continue
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(conn,), daemon=True).start()
    srv.close()
    t0 = wait_go(a.rundir)
    with lock:
        rows = list(log)
    path = os.path.join(a.rundir, "updates-%d.csv" % a.shard)
    with open(path, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["run", "shard", "worker", "time", "version", "staleness", "apply"])
        for worker, t, v, s, ap in rows:
            wr.writerow([a.run, a.shard, worker, "%.6f" % (t - t0), v, s, "%.7f" % ap])


# ---------------------------------------------------------------- worker


class ShardLink:
    """One worker's connection to one shard and its slice of the flat parameters."""

    def __init__(self, host, port, flat_np, lo, hi):
        self.sock = connect(host, port)
        self.view = memoryview(flat_np[lo:hi]).cast("B")
        self.n = hi - lo
        self.version = 0
        self.ack = None

    def pull(self, worker, step):
        self.sock.sendall(REQ.pack(b"P", worker, step, -1))
        (self.version,) = PULL_REPLY.unpack(recv_exact(self.sock, PULL_REPLY.size))
        recv_into(self.sock, self.view)

    def push(self, worker, step, grad_bytes):
        self.sock.sendall(REQ.pack(b"G", worker, step, self.version))
        self.sock.sendall(grad_bytes)
        self.ack = PUSH_REPLY.unpack(recv_exact(self.sock, PUSH_REPLY.size))


def in_parallel(links, method, *args):
    if len(links) == 1:
        getattr(links[0], method)(*args)
        return
    errs = []

    def call(link):
        try:
            getattr(link, method)(*args)
        except BaseException as e:  # re-raised in the caller
            errs.append(e)

    threads = []
    for link in links:
        t = threading.Thread(target=call, args=(link,))
        t.start()
        threads.append(t)
    for t in threads:
        t.join()
    if errs:
        raise errs[0]


def push_all(links, a, g, total, step):
    """Push the gradient g to every shard, in parallel threads when there are several."""
    if len(links) == 1:
        links[0].push(a.worker, step, memoryview(g).cast("B"))
        return
    errs = []

    def push(link, lo, hi):
        try:
            link.push(a.worker, step, memoryview(g[lo:hi]).cast("B"))
        except BaseException as e:  # re-raised below
            errs.append(e)

    ts = []
    for k, link in enumerate(links):
        lo, hi = shard_range(total, a.ps, k)
        t = threading.Thread(target=push, args=(link, lo, hi))
        t.start()
        ts.append(t)
    for t in ts:
        t.join()
    if errs:
        raise errs[0]


def cmd_worker(a):
    import torch

    torch.set_num_threads(1)
    d = np.load(a.data)
    xtr = torch.from_numpy(d["xtr"])
    ytr = torch.from_numpy(d["ytr"])
    model, params, flat = flat_model(a.hidden, a.seed)
    flat_np = flat.numpy()
    total = flat.numel()
    hosts = a.hosts.split(",")
    links = []
    for k in range(a.ps):
        lo, hi = shard_range(total, a.ps, k)
        links.append(ShardLink(hosts[k], a.port, flat_np, lo, hi))
    rng = np.random.default_rng(1000 * a.seed + a.worker)
    lossf = torch.nn.CrossEntropyLoss()
    # Warm up torch's kernels off the clock so that step 0 is not an outlier.
    for _ in range(3):
        model.zero_grad(set_to_none=False)
        lossf(model(xtr[: a.batch]), ytr[: a.batch]).backward()
    touch(os.path.join(a.rundir, "ready-worker%d" % a.worker))
    t0 = wait_go(a.rundir)
    while now() < t0:
        time.sleep(0.001)
    rows = []
    cpu_compute = []
    step = 0
    # --profile: torch.profiler records this worker's steps (ProfilerStep#N) with
    # the phases named as sgdplan's chrome reader classifies them, and writes a
    # Chrome trace. It is for sample files; a profiled run is slower.
    prof, rf = None, (lambda name: contextlib.nullcontext())
    if a.profile:
        from torch.profiler import ProfilerActivity, profile, record_function, schedule

        def export(p):
            p.export_chrome_trace(a.profile)

        prof = profile(activities=[ProfilerActivity.CPU],
                       schedule=schedule(wait=1, warmup=1, active=a.profile_steps, repeat=1),
                       on_trace_ready=export)
        prof.start()
        rf = record_function
    while True:
        start = now()
        if start >= t0 + a.duration:
            break
        with rf("pull"):
            in_parallel(links, "pull", a.worker, step)
        t_pull = now()
        idx = torch.from_numpy(rng.integers(0, len(xtr), a.batch))
        for p in params:
            if p.grad is not None:
                p.grad.zero_()
        with rf("forward"):
            loss = lossf(model(xtr[idx]), ytr[idx])
        with rf("backward"):
            loss.backward()
            g = torch.cat([p.grad.reshape(-1) for p in params]).numpy()
        t_cpu = now()
        cpu_compute.append(t_cpu - t_pull)
        if a.compute_floor > 0:
            rest = t_pull + a.compute_floor - now()
            if rest > 0:
                with rf("forward_backward_on_emulated_accelerator (compute floor)"):
                    time.sleep(rest)
        t_comp = now()
        with rf("push"):
            push_all(links, a, g, total, step)
        end = now()
        stale = max(link.ack[1] for link in links)
        rows.append(
            (step, start - t0, end - t0, t_pull - start, t_comp - t_pull, end - t_comp, stale, float(loss))
        )
        step += 1
        if prof is not None:
            prof.step()
    if prof is not None:
        prof.stop()
    for link in links:
        link.sock.close()
    path = os.path.join(a.rundir, "steps-%d.csv" % a.worker)
    with open(path, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["run", "workers", "ps", "batch", "worker", "step", "start", "end",
                     "pull", "compute", "push", "staleness", "loss"])
        for st, s, e, pl, c, ps, sl, lo in rows:
            wr.writerow([a.run, a.workers, a.ps, a.batch, a.worker, st, "%.6f" % s, "%.6f" % e,
                         "%.6f" % pl, "%.6f" % c, "%.6f" % ps, sl, "%.5f" % lo])
    with open(os.path.join(a.rundir, "cpu-compute-%d.json" % a.worker), "w") as f:
        json.dump(cpu_compute, f)


# ---------------------------------------------------------------- evaluator


def cmd_eval(a):
    d = np.load(a.data)
    xte, yte = d["xte"], d["yte"]
    h = a.hidden
    total = n_params(h)
    flat_np = np.zeros(total, dtype=np.float32)
    # torch.nn.Linear stores weight (out x in) then bias; the flat vector is their concatenation.
    w1 = flat_np[: 64 * h].reshape(h, 64)
    b1 = flat_np[64 * h : 65 * h]
    w2 = flat_np[65 * h : 75 * h].reshape(10, h)
    b2 = flat_np[75 * h :]
    hosts = a.hosts.split(",")
    links = []
    for k in range(a.ps):
        lo, hi = shard_range(total, a.ps, k)
        links.append(ShardLink(hosts[k], a.port, flat_np, lo, hi))
    touch(os.path.join(a.rundir, "ready-eval"))
    t0 = wait_go(a.rundir)
    rows = []
    i = 0
    while True:
        due = t0 + i * a.interval
        if due > t0 + a.duration + 1e-9:
            break
        while now() < due:
            time.sleep(0.002)
        for link in links:
            link.pull(-1, i)
        t = now()
        updates = min(link.version for link in links)
        z = np.maximum(xte @ w1.T + b1, 0) @ w2.T + b2  # logits
        z = z - z.max(axis=1, keepdims=True)
        logp = z - np.log(np.exp(z).sum(axis=1, keepdims=True))
        loss = float(-logp[np.arange(len(yte)), yte].mean())  # cross-entropy, as the workers'
        acc = float((z.argmax(axis=1) == yte).mean())
        rows.append((t - t0, updates, loss, acc))
        i += 1
    for link in links:
        link.sock.close()
    with open(os.path.join(a.rundir, "evals-part.csv"), "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(["run", "time", "updates", "loss", "accuracy"])
        for t, u, lo, ac in rows:
            wr.writerow([a.run, "%.6f" % t, u, "%.5f" % lo, "%.4f" % ac])


# ---------------------------------------------------------------- data


def cmd_data(a):
    from sklearn.datasets import load_digits

    d = load_digits()
    x = (d.data / 16.0).astype(np.float32)
    y = d.target.astype(np.int64)
    perm = np.random.default_rng(7).permutation(len(x))
    nte = len(x) // 5
    te, tr = perm[:nte], perm[nte:]
    import torch

    model, _, flat = flat_model(a.hidden, a.seed)
    np.savez(a.out, xtr=x[tr], ytr=y[tr], xte=x[te], yte=y[te], init=flat.numpy())
    print("digits: %d train, %d test" % (len(tr), len(te)))


# ---------------------------------------------------------------- orchestrator


def tc_bytes(ns, dev):
    out = subprocess.run(["ip", "netns", "exec", ns, "tc", "-s", "qdisc", "show", "dev", dev],
                         capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        line = line.strip()
        if line.startswith("Sent "):
            return int(line.split()[1])
    return 0


def read_csv_rows(path):
    with open(path, newline="") as f:
        r = csv.reader(f)
        header = next(r)
        return header, list(r)


def cmd_run(a):
    rundir = os.path.abspath(a.rundir)
    os.makedirs(rundir, exist_ok=True)
    for f in os.listdir(rundir):
        os.remove(os.path.join(rundir, f))
    me = os.path.abspath(__file__)
    hosts = a.hosts.split(",")[: a.ps]
    common = ["--run", a.run, "--rundir", rundir, "--hidden", str(a.hidden), "--seed", str(a.seed),
              "--ps", str(a.ps), "--port", str(PORT)]
    py = sys.executable
    procs = []
    group = prioritise(a.nice)

    def spawn(ns, args, name):
        log = open(os.path.join(rundir, name + ".log"), "w")
        # `ip netns exec` and `nice` exec in turn: the pid is the python process's.
        cmd = ["ip", "netns", "exec", ns, "nice", "-n", str(a.nice), py, me] + args
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
        procs.append((name, p))
        return p

    try:
        t_launch = time.time()
        for k in range(a.ps):
            spawn(a.srv_ns, ["shard", "--shard", str(k), "--host", hosts[k], "--lr", str(a.lr),
                             "--data", a.data] + common,
                  "shard%d" % k)
        for k in range(a.ps):
            while not os.path.exists(os.path.join(rundir, "ready-shard%d" % k)):
                check_alive(procs, rundir)
                time.sleep(0.05)
        for i in range(a.workers):
            spawn(a.wrk_ns, ["worker", "--worker", str(i), "--workers", str(a.workers), "--batch", str(a.batch),
                             "--hosts", ",".join(hosts), "--data", a.data, "--duration", str(a.duration),
                             "--compute-floor", str(a.compute_floor)]
                  + (["--profile", os.path.abspath(a.profile)] if a.profile and i == 0 else []) + common,
                  "worker%d" % i)
        spawn(a.srv_ns, ["eval", "--hosts", ",".join(hosts), "--data", a.data, "--duration", str(a.duration),
                         "--interval", str(a.eval_interval)] + common, "eval")
        need = ["ready-worker%d" % i for i in range(a.workers)] + ["ready-eval"]
        while not all(os.path.exists(os.path.join(rundir, n)) for n in need):
            check_alive(procs, rundir)
            time.sleep(0.05)
        startup = time.time() - t_launch
        devs = [d.split(":") for d in a.tc_devs.split(",")] if a.tc_devs else []
        pids = [p.pid for _, p in procs]  # `ip netns exec` execs python: these are the harness
        t0 = now() + 0.3
        with open(os.path.join(rundir, "go.tmp"), "w") as f:
            f.write("%.9f" % t0)
        os.replace(os.path.join(rundir, "go.tmp"), os.path.join(rundir, "go"))
        # Measure the steady window [t0 + warm, t0 + duration]: link bytes (tbf
        # counters), machine CPU (/proc/stat), harness CPU (/proc/PID/stat).
        warm = min(a.warmup, a.duration / 2)
        sleep_until(t0 + warm)
        m0 = (now(), [tc_bytes(ns, dev) for ns, dev in devs], cpu_stat(), procs_cpu(pids), os.getloadavg()[0])
        sleep_until(t0 + a.duration)
        m1 = (now(), [tc_bytes(ns, dev) for ns, dev in devs], cpu_stat(), procs_cpu(pids), os.getloadavg()[0])
        for name, p in procs:
            if name.startswith("worker") or name == "eval":
                if p.wait(timeout=a.duration + 120) != 0:
                    fail(rundir, name, p.returncode)
        for k in range(a.ps):
            subprocess.run(["ip", "netns", "exec", a.srv_ns, py, "-c",
                            "import socket,struct;s=socket.create_connection((%r,%d));"
                            "s.sendall(struct.pack('!ciqq',b'Q',-1,0,0));s.recv(1)" % (hosts[k], PORT)],
                           check=True, timeout=30)
        for name, p in procs:
            if p.wait(timeout=60) != 0:
                fail(rundir, name, p.returncode)
    finally:
        for name, p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()

    # Merge the per-process files into the run's canonical files.
    steps = []
    for i in range(a.workers):
        header, rows = read_csv_rows(os.path.join(rundir, "steps-%d.csv" % i))
        steps += rows
    steps.sort(key=lambda r: (float(r[6]), int(r[4])))
    write_csv(os.path.join(a.out, "steps.csv"), header, steps)
    ups = []
    for k in range(a.ps):
        uh, rows = read_csv_rows(os.path.join(rundir, "updates-%d.csv" % k))
        ups += rows
    ups.sort(key=lambda r: (float(r[3]), int(r[1])))
    write_csv(os.path.join(a.out, "updates.csv"), uh, ups)
    eh, evals = read_csv_rows(os.path.join(rundir, "evals-part.csv"))
    write_csv(os.path.join(a.out, "evals.csv"), eh, evals)

    # Run-level measurements for runs.csv notes and the sweep summary.
    real = []
    for i in range(a.workers):
        with open(os.path.join(rundir, "cpu-compute-%d.json" % i)) as fh:
            real += json.load(fh)
    real.sort()
    param_bytes = 4 * n_params(a.hidden)
    nsteps = len(steps)
    win = m1[0] - m0[0]
    lo_t, hi_t = m0[0] - t0, m1[0] - t0
    steady = [r for r in steps if lo_t <= float(r[7]) < hi_t]  # steps that end in the window
    x = len(steady) / win
    busy = (m1[2][0] - m0[2][0]) / max(m1[2][1] - m0[2][1], 1)  # fraction of all CPUs busy
    tick = os.sysconf("SC_CLK_TCK")
    harness = (m1[3] - m0[3]) / tick / win  # cores used by shards, workers and evaluator
    util = []
    for (ns, dev), x0, x1 in zip(devs, m0[1], m1[1]):
        util.append((dev, (x1 - x0) / win / a.bandwidth if a.bandwidth > 0 else float("nan")))

    def mean(col, rows=steady):
        return sum(float(r[col]) for r in rows) / max(len(rows), 1)

    summary = {
        "run": a.run, "workers": a.workers, "ps": a.ps, "batch": a.batch, "bandwidth": a.bandwidth,
        "compute_floor": a.compute_floor, "nice": a.nice, "priority": group, "duration": a.duration, "window": [lo_t, hi_t], "steps": nsteps,
        "steps_per_s": x,
        "mean_pull": mean(8), "mean_compute": mean(9), "mean_push": mean(10), "mean_staleness": mean(11),
        "median_cpu_gradient": real[len(real) // 2] if real else float("nan"),
        "p90_cpu_gradient": real[int(len(real) * 0.9)] if real else float("nan"),
        "harness_cpu_cores": harness,
        "machine_cpu_busy": busy, "ncpu": os.cpu_count(), "loadavg_start": m0[4], "loadavg_end": m1[4],
        "link_util": {dev: u for dev, u in util}, "startup_s": startup, "param_bytes": param_bytes,
    }
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
    umax = max((u for _, u in util), default=float("nan"))
    notes = ("psharness.py (%s, nice %d); MLP 64-%d-10 on sklearn digits; plain SGD lr %g on the shards; "
             "pulls and pushes to the %d shards in parallel threads; compute = real CPU gradient "
             "(median %.1f ms) %s; tc tbf per shard link and direction; "
             "steady window %.0f-%.0f s: %.2f steps/s, max link utilisation %.2f, harness CPU %.2f of %d cores, "
             "machine CPU busy %.0f%%, loadavg %.1f"
             % (group, a.nice, a.hidden, a.lr, a.ps, 1000 * summary["median_cpu_gradient"],
                ("padded with sleep to %.0f ms to emulate an accelerator" % (1000 * a.compute_floor))
                if a.compute_floor > 0 else "not padded",
                lo_t, hi_t, x, umax, harness, os.cpu_count(), 100 * busy, m0[4]))
    epochs = nsteps * a.batch / a.dataset  # what the run trained: it is timed, not asked for epochs
    write_csv(os.path.join(a.out, "runs.csv"),
              ["run", "model", "mode", "param_bytes", "nodes", "bandwidth", "dataset", "epochs",
               "framework", "hardware", "notes"],
              [[a.run, "mlp-digits-h%d" % a.hidden, "async", param_bytes, 1, "%.0f" % a.bandwidth, a.dataset,
                "%.3f" % epochs, "pytorch %s (Debian python3-torch), CPU" % torch_version(), a.hardware, notes]])
    print(json.dumps({k: summary[k] for k in ("run", "steps_per_s", "mean_compute", "median_cpu_gradient",
                                               "mean_pull", "mean_push", "mean_staleness",
                                               "harness_cpu_cores", "machine_cpu_busy", "link_util")}))


def torch_version():
    out = subprocess.run([sys.executable, "-c", "import torch;print(torch.__version__)"],
                         capture_output=True, text=True)
    return out.stdout.strip() or "?"


def n_params(hidden):
    return 64 * hidden + hidden + hidden * 10 + 10


def prioritise(nice):
    """Give this run its own scheduler autogroup at the given niceness.

    With kernel.sched_autogroup_enabled (the default on desktops and on this
    machine), CPU time is shared fairly among sessions first, and a process's own
    nice value only counts inside its session: on a machine where other sessions
    compile, the harness as a whole would get 1/sessions of the CPU however nice its
    processes are. A new session (setsid) whose autogroup is reniced makes the
    harness's share independent of how many other sessions run. Returns a
    description for the run's notes."""
    if nice == 0:
        return "default priority"
    try:
        if os.getsid(0) != os.getpid():
            os.setsid()
    except OSError:
        pass
    try:
        with open("/proc/self/autogroup", "w") as f:
            f.write(str(nice))
        with open("/proc/self/autogroup") as f:
            return "own autogroup (%s)" % f.read().strip()
    except OSError:
        return "nice %d (no autogroup)" % nice


def sleep_until(t):
    while True:
        d = t - now()
        if d <= 0:
            return
        time.sleep(min(d, 0.5))


def procs_cpu(pids):
    """Sum of utime + stime, in clock ticks, of the given live processes."""
    total = 0
    for pid in pids:
        try:
            with open("/proc/%d/stat" % pid) as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return total


def cpu_stat():
    with open("/proc/stat") as f:
        parts = f.readline().split()[1:]
    vals = [int(x) for x in parts]
    idle = vals[3] + vals[4]
    total = sum(vals[:8])
    return total - idle, total


def fail(rundir, name, code):
    with open(os.path.join(rundir, name + ".log")) as f:
        tail = f.read()[-3000:]
    raise RuntimeError("psharness: %s exited with %d; its log ends:\n%s" % (name, code, tail))


def check_alive(procs, rundir):
    for name, p in procs:
        if p.poll() is not None:
            fail(rundir, name, p.returncode)


def write_csv(path, header, rows):
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        wr = csv.writer(f)
        wr.writerow(header)
        wr.writerows(rows)
    os.replace(tmp, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)

    def common(p):
        p.add_argument("--run", required=True)
        p.add_argument("--rundir", required=True)
        p.add_argument("--hidden", type=int, default=700)
        p.add_argument("--seed", type=int, default=1)
        p.add_argument("--ps", type=int, default=1)
        p.add_argument("--port", type=int, default=PORT)

    p = sub.add_parser("data")
    p.add_argument("out")
    p.add_argument("--hidden", type=int, default=700)
    p.add_argument("--seed", type=int, default=1)
    p = sub.add_parser("shard")
    common(p)
    p.add_argument("--shard", type=int, required=True)
    p.add_argument("--host", required=True)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--data", required=True)
    p = sub.add_parser("worker")
    common(p)
    p.add_argument("--worker", type=int, required=True)
    p.add_argument("--workers", type=int, required=True)
    p.add_argument("--batch", type=int, required=True)
    p.add_argument("--hosts", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--duration", type=float, required=True)
    p.add_argument("--compute-floor", type=float, default=0.0)
    p.add_argument("--profile", default="", help="write a torch.profiler Chrome trace of this worker here")
    p.add_argument("--profile-steps", type=int, default=8)
    p = sub.add_parser("eval")
    common(p)
    p.add_argument("--hosts", required=True)
    p.add_argument("--data", required=True)
    p.add_argument("--duration", type=float, required=True)
    p.add_argument("--interval", type=float, default=1.0)
    p = sub.add_parser("run")
    p.add_argument("--run", required=True)
    p.add_argument("--rundir", required=True)
    p.add_argument("--out", required=True, help="folder for this run's canonical files")
    p.add_argument("--workers", type=int, required=True)
    p.add_argument("--ps", type=int, required=True)
    p.add_argument("--batch", type=int, default=32)
    p.add_argument("--hidden", type=int, default=700)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--duration", type=float, default=30)
    p.add_argument("--compute-floor", type=float, default=0.0)
    p.add_argument("--eval-interval", type=float, default=1.0)
    p.add_argument("--warmup", type=float, default=3.0, help="seconds left out of the steady window")
    p.add_argument("--profile", default="", help="worker 0 writes a torch.profiler Chrome trace here")
    p.add_argument("--nice", type=int, default=0, help="niceness of the harness processes (negative: before other jobs)")
    p.add_argument("--hosts", required=True, help="shard addresses, one per shard link")
    p.add_argument("--srv-ns", required=True)
    p.add_argument("--wrk-ns", required=True)
    p.add_argument("--tc-devs", default="", help="ns:dev,... whose tbf byte counters measure link use")
    p.add_argument("--bandwidth", type=float, required=True, help="tbf rate per shard link and direction, B/s")
    p.add_argument("--data", required=True)
    p.add_argument("--dataset", type=int, default=1438)
    p.add_argument("--hardware", default="")
    a = ap.parse_args()
    {"data": cmd_data, "shard": cmd_shard, "worker": cmd_worker, "eval": cmd_eval, "run": cmd_run}[a.cmd](a)


if __name__ == "__main__":
    main()
