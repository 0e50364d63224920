#!/usr/bin/env python3
"""Measurement helpers for bench/load/run.sh (Python 3 standard library only).

  ticks PID[,PID...]          utime+stime clock ticks of the processes (all their threads), -1 if one is gone
  gate --pids P,.. [--max-foreign 0.15] [--window 2] [--max-wait 120]
                              wait until the CPU time of every process *not* in --pids (plus VM steal)
                              stays at or below --max-foreign cores for one window; prints "waited_s cores"
  measure --out JSONL --target NAME --mode M --conns C --rep R --attempt A --duration S --url URL
          --body FILE --lua FILE [--header 'H: v'] [--gw-pids P] [--up-pids P,P] [--threads 2]
          [--loadgen-cpus LIST] [--tmp DIR]
                              one wrk run; appends one JSON line: wrk's summary plus the CPU time of the
                              gateway, the upstream, wrk and everything else on the machine during the run
  brief JSONL                 one-line digest of the last run
  summarize JSONL [--max-foreign 0.15] [--target-us 150]
                              Markdown report on stdout
  cli-json FILE KEY           the KEY of the JSON object a `switchboard users|keys create` printed to FILE
"""
import json
import os
import resource
import statistics
import subprocess
import sys
import time

CLK_TCK = os.sysconf("SC_CLK_TCK")


def _pids(text):
    return [p for p in (text or "").split(",") if p]


def ticks(pids):
    total = 0
    for p in pids:
        try:
            with open(f"/proc/{p}/stat") as f:
                data = f.read()
        except (FileNotFoundError, ProcessLookupError):
            return -1
        rest = data[data.rindex(")") + 2:].split()
        total += int(rest[11]) + int(rest[12])  # fields 14 (utime) and 15 (stime)
    return total


def machine():
    """jiffies of the whole machine from /proc/stat: (user+nice+system, steal, total)"""
    with open("/proc/stat") as f:
        v = [int(x) for x in f.readline().split()[1:]] + [0] * 10
    user, nice, system, idle, iowait, irq, softirq, steal = v[:8]
    return user + nice + system, steal, user + nice + system + idle + iowait + irq + softirq + steal


def _opts(args, multi=()):
    out = {k: [] for k in multi}
    it = iter(args)
    for a in it:
        if not a.startswith("--"):
            raise SystemExit(f"unexpected argument {a}")
        k = a[2:]
        v = next(it)
        if k in multi:
            out[k].append(v)
        else:
            out[k] = v
    return out


def cmd_gate(args):
    o = _opts(args)
    pids = _pids(o.get("pids"))
    limit = float(o.get("max-foreign", 0.15))
    window = float(o.get("window", 2))
    max_wait = float(o.get("max-wait", 120))
    start = time.monotonic()
    while True:
        m0, o0, t0 = machine(), ticks(pids), time.monotonic()
        time.sleep(window)
        m1, o1 = machine(), ticks(pids)
        ours = (o1 - o0) if o0 >= 0 and o1 >= 0 else 0
        foreign = max(0.0, (m1[0] - m0[0] - ours + m1[1] - m0[1]) / CLK_TCK / (time.monotonic() - t0))
        waited = time.monotonic() - start
        if foreign <= limit or waited >= max_wait:
            print(f"{waited:.1f} {foreign:.2f}")
            return


def cmd_measure(args):
    o = _opts(args, multi=("header",))
    dur = int(o["duration"])
    conns = int(o["conns"])
    threads = min(int(o.get("threads", 2)), conns)
    tmp = o.get("tmp", "/tmp")
    wrk_out = os.path.join(tmp, f"wrk-{o['target']}-{o['mode']}-c{conns}-{o['rep']}-{o['attempt']}.json")
    gw, up = _pids(o.get("gw-pids")), _pids(o.get("up-pids"))
    # the run's other processes (the gateway while the floor is measured, and the other way round): not interference
    idle = [p for p in _pids(o.get("other-pids")) if p not in gw and p not in up]
    cmd = ["timeout", str(dur + 30)]
    if o.get("loadgen-cpus"):
        cmd += ["taskset", "-c", o["loadgen-cpus"]]
    cmd += ["wrk", f"-t{threads}", f"-c{conns}", f"-d{dur}s", "--timeout", "10s", "-s", o["lua"]]
    for h in o["header"]:
        cmd += ["-H", h]
    cmd.append(o["url"])
    env = dict(os.environ, BENCH_BODY=o["body"], BENCH_OUT=wrk_out)
    if os.path.exists(wrk_out):
        os.remove(wrk_out)

    socks0 = _upstream_sockets(o.get("up-port"))
    gc0 = _gc_seconds(o.get("jstat"), gw)
    ru0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    g0, u0, i0, m0, w0 = ticks(gw), ticks(up), ticks(idle), machine(), time.monotonic()
    with open(wrk_out + ".txt", "w") as log:
        rc = subprocess.call(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    g1, u1, i1, m1, w1 = ticks(gw), ticks(up), ticks(idle), machine(), time.monotonic()
    ru1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    gc1 = _gc_seconds(o.get("jstat"), gw)
    socks1 = _upstream_sockets(o.get("up-port"))
    if rc != 0 or not os.path.exists(wrk_out):
        raise SystemExit(f"wrk failed (exit {rc}), see {wrk_out}.txt")
    with open(wrk_out) as f:
        row = json.loads(f.read().strip().splitlines()[-1])

    wall = w1 - w0
    n = max(row["requests"], 1)
    wrk_s = (ru1.ru_utime - ru0.ru_utime) + (ru1.ru_stime - ru0.ru_stime)
    gw_t = (g1 - g0) if gw and g0 >= 0 and g1 >= 0 else None
    up_t = (u1 - u0) if up and u0 >= 0 and u1 >= 0 else None
    idle_t = (i1 - i0) if idle and i0 >= 0 and i1 >= 0 else 0
    ours = (gw_t or 0) + (up_t or 0) + idle_t + wrk_s * CLK_TCK
    row.update({
        "target": o["target"], "mode": o["mode"], "conns": conns, "threads": threads,
        "rep": int(o["rep"]), "attempt": int(o["attempt"]), "wall_s": round(wall, 3),
        "errors": sum(row[k] for k in ("err_connect", "err_read", "err_write", "err_status", "err_timeout")),
        "gw_cpu_ticks": gw_t,
        # charged to the gateway only when it was the target; in direct runs it is the idle cost
        "gw_cpu_us_per_req": round(gw_t * 1e6 / CLK_TCK / n, 1) if gw_t is not None else None,
        "gw_cpu_cores": round(gw_t / CLK_TCK / wall, 2) if gw_t is not None else None,
        "up_cpu_us_per_req": round(up_t * 1e6 / CLK_TCK / n, 1) if up_t is not None else None,
        "wrk_cpu_cores": round(wrk_s / wall, 2),
        "foreign_cores": round(max(0.0, (m1[0] - m0[0] - ours) / CLK_TCK / wall), 2),
        "steal_cores": round((m1[1] - m0[1]) / CLK_TCK / wall, 2),
        "machine_busy_pct": round(100.0 * (1 - _idle_share(m0, m1)), 1),
        "loadavg_1m": float(open("/proc/loadavg").read().split()[0]),
        # the gateway's connections to the upstream (ESTABLISHED) before and after the run
        "up_sockets_before": socks0, "up_sockets_after": socks1,
        "gw_rss_mib": _rss_mib(gw),
        "gc_share_pct": round(100.0 * (gc1 - gc0) / wall, 2) if gc0 is not None and gc1 is not None else None,
    })
    with open(o["out"], "a") as f:
        f.write(json.dumps(row, sort_keys=True) + "\n")


def _idle_share(m0, m1):
    total = m1[2] - m0[2]
    busy = (m1[0] - m0[0]) + (m1[1] - m0[1])
    return 1 - busy / total if total > 0 else 0.0


def _socks(rs):
    b = [r.get("up_sockets_before") for r in rs if r.get("up_sockets_before") is not None]
    a = [r.get("up_sockets_after") for r in rs if r.get("up_sockets_after") is not None]
    return f"{max(b)} → {max(a)}" if a and b else "-"


def _load(path):
    with open(path) as f:
        return [json.loads(l) for l in f if l.strip()]


def _interference(r):
    return (r.get("foreign_cores") or 0) + (r.get("steal_cores") or 0)


# direct: nginx alone; gateway: through the gateway with a key without limits; limited: the same with a key that
# has limits (run.sh --limits), to see what counting them costs; covered: a key of a user whose plan covers the
# model (run.sh --covered), so nothing is held, charged or entered in the ledger: what the money path costs;
# floor: the pass-through of the gateway's HTTP server and upstream client alone (run.sh --floor)
TARGETS = ("direct", "gateway", "limited", "covered", "floor")


def cmd_brief(args):
    r = _load(args[0])[-1]
    cpu = f" gateway {r['gw_cpu_us_per_req']} µs/req" if r["target"] != "direct" else ""
    print(f"{r['target']:>7} {r['mode']:<4} c{r['conns']:<3} rep{r['rep']} try{r['attempt']}: "
          f"{r['rps']:8.0f} req/s p50 {r['p50_us'] / 1000:.2f} ms p99 {r['p99_us'] / 1000:.2f} ms "
          f"err {r['errors']}{cpu} | other procs {r['foreign_cores']} cores, steal {r['steal_cores']}")


def _rng(xs, p=0, unit=""):
    xs = [x for x in xs if x is not None]
    if not xs:
        return "-"
    med = statistics.median(xs)
    if len(xs) == 1:
        return f"{med:.{p}f}{unit}"
    return f"{med:.{p}f}{unit} [{min(xs):.{p}f}–{max(xs):.{p}f}]"


def _upstream_sockets(port):
    """Established TCP connections to the upstream port (the gateway's side; nginx's side has it as sport)."""
    if not port:
        return None
    out = subprocess.run(["ss", "-tanH", "state", "established", f"( dport = :{port} )"],
                         capture_output=True, text=True).stdout
    return sum(1 for line in out.splitlines() if line.strip())


def _rss_mib(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            return None
    return round(total / 1024, 1) if pids else None


def _gc_seconds(jstat, pids):
    """Total GC time of the JVM so far (jstat -gcutil's GCT column), or None."""
    if not jstat or not pids:
        return None
    out = subprocess.run([jstat, "-gcutil", str(pids[0])], capture_output=True, text=True).stdout.split()
    try:
        header = out[:len(out) // 2]
        return float(out[len(out) // 2 + header.index("GCT")])
    except (ValueError, IndexError):
        return None


def cmd_summarize(args):
    rows = _load(args[0])
    o = _opts(args[1:])
    limit = float(o.get("max-foreign", 0.15))
    target_us = float(o.get("target-us", 150))
    # of re-measured runs keep the least disturbed attempt
    best = {}
    for r in rows:
        k = (r["target"], r["mode"], r["conns"], r["rep"])
        if k not in best or _interference(r) < _interference(best[k]):
            best[k] = r
    rows = list(best.values())
    modes = [m for m in ("json", "sse", "xsse") if any(r["mode"] == m for r in rows)]
    conns = sorted({r["conns"] for r in rows})
    reps = sorted({r["rep"] for r in rows})

    def pick(t, m, c):
        return sorted((r for r in rows if r["target"] == t and r["mode"] == m and r["conns"] == c),
                      key=lambda r: r["rep"])

    def every_cell():
        """(mode, connections, target, its runs) for every combination, in the order of the tables."""
        for m in modes:
            for c in conns:
                for t in TARGETS:
                    yield m, c, t, pick(t, m, c)

    def same_repeats(t1, t2, m, c, both=lambda r1, r2: True):
        """The runs of targets t1 and t2 by repeat, and the repeats both have (that `both` accepts), in order."""
        by1 = {r["rep"]: r for r in pick(t1, m, c)}
        by2 = {r["rep"]: r for r in pick(t2, m, c)}
        return by1, by2, sorted(k for k in set(by1) & set(by2) if both(by1[k], by2[k]))

    print("## Results\n")
    print(f"Median of {len(reps)} repeat(s), [min–max] across repeats. Gateway CPU = utime+stime of the "
          "gateway JVM (/proc/PID/stat) during the run ÷ requests completed. ⚠ = a run during which other "
          f"processes plus VM steal took more than {limit} cores.\n")
    print("| mode | conns | target | req/s | p50 ms | p99 ms | gateway CPU µs/req | gateway cores | nginx CPU µs/req "
          "| errors | upstream sockets before → after (max) | gateway RSS MiB | GC % of wall | other procs cores (max) |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for m, c, t, rs in every_cell():
        if not rs:
            continue
        worst = max(_interference(r) for r in rs)
        print("| " + " | ".join([
            m, str(c), t,
            _rng([r["rps"] for r in rs]),
            _rng([r["p50_us"] / 1000 for r in rs], 2),
            _rng([r["p99_us"] / 1000 for r in rs], 2),
            _rng([r["gw_cpu_us_per_req"] for r in rs]) if t != "direct" else "-",
            _rng([r["gw_cpu_cores"] for r in rs], 2) if t != "direct" else "-",
            _rng([r["up_cpu_us_per_req"] for r in rs]),
            str(sum(r["errors"] for r in rs)),
            _socks(rs) if t == "gateway" else "-",
            _rng([r.get("gw_rss_mib") for r in rs if r.get("gw_rss_mib") is not None]) if t == "gateway" else "-",
            _rng([r.get("gc_share_pct") for r in rs if r.get("gc_share_pct") is not None], 2) if t == "gateway" else "-",
            f"{worst:.2f}" + (" ⚠" if worst > limit else ""),
        ]) + " |")

    print("\n## Added latency (gateway − direct, same repeat)\n")
    print("| mode | conns | Δp50 ms | Δp99 ms | gateway req/s ÷ direct req/s |")
    print("|---|---:|---:|---:|---:|")
    for m in modes:
        for c in conns:
            d, g, ks = same_repeats("direct", "gateway", m, c)
            if not ks:
                continue
            print("| " + " | ".join([
                m, str(c),
                _rng([(g[k]["p50_us"] - d[k]["p50_us"]) / 1000 for k in ks], 3),
                _rng([(g[k]["p99_us"] - d[k]["p99_us"]) / 1000 for k in ks], 2),
                _rng([g[k]["rps"] / d[k]["rps"] for k in ks], 3),
            ]) + " |")

    def beside_gateway(other, column, p50_sign, base="gateway"):
        """Per mode and connection count, in the repeats both have: `base`'s (the gateway key's) and `other`'s CPU per
        request, `column` = (function of the two runs, decimals) and the p50 difference (`other` − base, times
        p50_sign)."""
        value, places = column
        print("|---|---:|---:|---:|---:|---:|")
        for m in modes:
            for c in conns:
                g, o, ks = same_repeats(base, other, m, c,
                                        lambda r1, r2: r1["gw_cpu_us_per_req"] and r2["gw_cpu_us_per_req"])
                if not ks:
                    continue
                print("| " + " | ".join([
                    m, str(c),
                    _rng([g[k]["gw_cpu_us_per_req"] for k in ks]),
                    _rng([o[k]["gw_cpu_us_per_req"] for k in ks]),
                    _rng([value(g[k], o[k]) for k in ks], places),
                    _rng([p50_sign * (o[k]["p50_us"] - g[k]["p50_us"]) / 1000 for k in ks], 3),
                ]) + " |")

    if any(r["target"] == "limited" for r in rows):
        print("\n## What the limits cost (a key with limits − a key without, same repeat)\n")
        print("| mode | conns | gateway CPU µs/req without | with limits | with ÷ without | Δp50 ms |")
        beside_gateway("limited", (lambda g, o: o["gw_cpu_us_per_req"] / g["gw_cpu_us_per_req"], 3), 1)

    if any(r["target"] == "covered" for r in rows):
        print("\n## What the money path costs (a pay-as-you-go key − a key whose plan covers the model, same repeat)\n")
        print("Pay-as-you-go: the worst case held before the upstream call, the charge, ledger entry and usage record "
              "written after it. Covered by a plan: only the usage record.\n")
        print("| mode | conns | gateway CPU µs/req pay-as-you-go | covered by a plan | difference µs/req | Δp50 ms |")
        beside_gateway("covered", (lambda g, o: g["gw_cpu_us_per_req"] - o["gw_cpu_us_per_req"], 0), -1)

    if any(r["target"] == "floor" for r in rows):
        print("\n## The gateway beside the floor of its HTTP stack (same repeat)\n")
        print("Floor: the gateway's HTTP server and upstream client relaying the same request and answer, with nothing "
              "between them (no parsing, translation, keys, limits, billing, logging or metrics); the least a gateway "
              "built on this stack can cost.\n")
        print("| mode | conns | gateway CPU µs/req | floor | gateway − floor µs/req | Δp50 ms |")
        beside_gateway("floor", (lambda g, o: g["gw_cpu_us_per_req"] - o["gw_cpu_us_per_req"], 0), -1)
        if any(r["target"] == "covered" for r in rows):
            print("\nThe same beside a key whose plan covers the model (no money path):\n")
            print("| mode | conns | covered CPU µs/req | floor | covered − floor µs/req | Δp50 ms |")
            beside_gateway("floor", (lambda g, o: g["gw_cpu_us_per_req"] - o["gw_cpu_us_per_req"], 0), -1,
                           base="covered")

    print("\n## Verdict\n")
    for m in modes:
        loaded = [r["gw_cpu_us_per_req"] for r in rows
                  if r["target"] == "gateway" and r["mode"] == m and r["conns"] > 1 and r["gw_cpu_us_per_req"]]
        if not loaded:
            continue
        med = statistics.median(loaded)
        what = "plain requests" if m == "json" else "streamed requests (no target set)"
        line = (f"- {m}: gateway CPU {med:.0f} µs per request (median of {len(loaded)} loaded runs, "
                f"range {min(loaded):.0f}–{max(loaded):.0f}) for {what}")
        if m == "json":
            line += f"; target ≤ {target_us:.0f} µs: " + ("**met**" if med <= target_us else "**not met**")
        print(line + ".")
    c1 = [(pick("gateway", "json", 1), pick("direct", "json", 1))]
    g1, d1 = c1[0]
    if g1 and d1:
        d = {r["rep"]: r for r in d1}
        ks = [r["rep"] for r in g1 if r["rep"] in d]
        if ks:
            added = [(r["p50_us"] - d[r["rep"]]["p50_us"]) / 1000 for r in g1 if r["rep"] in d]
            print(f"- json, 1 connection: the gateway adds {statistics.median(added):.3f} ms at p50 "
                  f"(range {min(added):.3f}–{max(added):.3f}).")
    flagged = sum(1 for r in rows if _interference(r) > limit)
    print(f"- {flagged} of {len(rows)} kept runs had more than {limit} cores of interference from other processes.")

    print("\n## Every run\n")
    print("| mode | conns | target | rep | attempt | req/s | p50 ms | p99 ms | errors | gateway CPU µs/req "
          "| nginx CPU µs/req | wrk cores | other procs cores | steal cores | load avg 1m |")
    print("|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for m, c, t, rs in every_cell():
        for r in rs:
            print("| " + " | ".join(str(x) for x in [
                m, c, t, r["rep"], r["attempt"], f"{r['rps']:.0f}", f"{r['p50_us'] / 1000:.2f}",
                f"{r['p99_us'] / 1000:.2f}", r["errors"],
                r["gw_cpu_us_per_req"] if t != "direct" else "-",
                r["up_cpu_us_per_req"] if r["up_cpu_us_per_req"] is not None else "-",
                r["wrk_cpu_cores"],
                f"{r['foreign_cores']}" + (" ⚠" if _interference(r) > limit else ""),
                r["steal_cores"], r["loadavg_1m"]]) + " |")


def cmd_cli_json(args):
    """`switchboard users create` prints log lines, then a pretty-printed JSON object."""
    text = open(args[0]).read()
    start = text.find("\n{\n") + 1 if not text.startswith("{\n") else 0
    obj, _ = json.JSONDecoder().raw_decode(text[start:])
    print(obj[args[1]])


def main():
    if len(sys.argv) < 2 or sys.argv[1] in ("-h", "--help"):
        print(__doc__)
        return
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "ticks":
        print(ticks(_pids(args[0])))
    elif cmd == "gate":
        cmd_gate(args)
    elif cmd == "measure":
        cmd_measure(args)
    elif cmd == "brief":
        cmd_brief(args)
    elif cmd == "summarize":
        cmd_summarize(args)
    elif cmd == "cli-json":
        cmd_cli_json(args)
    else:
        raise SystemExit(f"unknown command {cmd}\n{__doc__}")


if __name__ == "__main__":
    main()
