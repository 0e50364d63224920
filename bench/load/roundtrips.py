#!/usr/bin/env python3
"""Counts the gateway's PostgreSQL and Redis round trips per request (run by bench/load/run.sh --roundtrips N).

Sends N requests one after another to the gateway instances in turn and reads, before and after:
- per gateway process, its TCP connections to PostgreSQL and to Redis: data segments sent (`ss -tinp`,
  data_segs_out). A driver sends each query (or each pipelined Parse/Bind/Execute/Sync) in one segment and waits
  for the answer, so segments sent = round trips while requests run one at a time;
- PostgreSQL's own counters for the database (pg_stat_database: transactions, rows inserted/updated/deleted);
- Redis's own counters (INFO commandstats: calls per command). Point the gateway at a Redis of its own so
  nobody else's commands are counted.
The same is read over an idle period as long as the run, so background jobs (hold sweeper, use counts) show.

    roundtrips.py --pids P,P --ports 18190,18191 --key KEY --body FILE --requests N
                  --pg-db NAME [--pg-port 5432] [--redis-port PORT] [--label TEXT]
"""
import argparse
import http.client
import re
import subprocess
import time

SEGS = re.compile(r"data_segs_out:(\d+)")
PID = re.compile(r"pid=(\d+)")


def segments(pids, port):
    """data_segs_out summed over the ESTABLISHED connections of `pids` to `port` (one ss line pair per socket)."""
    if not port:
        return 0
    out = subprocess.run(["ss", "-tinpH", "state", "established", f"( dport = :{port} )"],
                         capture_output=True, text=True).stdout.splitlines()
    total, owner = 0, None
    for line in out:
        m = PID.search(line)
        if m:
            owner = m.group(1)
            continue
        s = SEGS.search(line)
        if s and owner in pids:
            total += int(s.group(1))
    return total


def pg(db, port):
    q = ("SELECT xact_commit + xact_rollback, tup_inserted, tup_updated, tup_deleted FROM pg_stat_database "
         f"WHERE datname = '{db}'")
    out = subprocess.run(["psql", "-h", "127.0.0.1", "-p", str(port), "-U", "postgres", "-d", "postgres", "-Atc", q],
                         capture_output=True, text=True).stdout.strip()
    return [int(x) for x in out.split("|")] if out else [0, 0, 0, 0]


def redis(port):
    if not port:
        return {}
    out = subprocess.run(["redis-cli", "-p", str(port), "INFO", "commandstats"], capture_output=True, text=True).stdout
    calls = {}
    for line in out.splitlines():
        m = re.match(r"cmdstat_([^:]+):calls=(\d+)", line)
        if m:
            calls[m.group(1)] = int(m.group(2))
    return calls


def snapshot(a):
    time.sleep(11)  # an idle PostgreSQL backend publishes its counters within 10 s (PGSTAT_IDLE_INTERVAL)
    return {"pg_segs": segments(a.pids, a.pg_port), "redis_segs": segments(a.pids, a.redis_port),
            "pg": pg(a.pg_db, a.pg_port), "redis": redis(a.redis_port)}


def delta(s0, s1):
    r0, r1 = s0["redis"], s1["redis"]
    return {"pg_segs": s1["pg_segs"] - s0["pg_segs"], "redis_segs": s1["redis_segs"] - s0["redis_segs"],
            "pg": [b - a for a, b in zip(s0["pg"], s1["pg"])],
            "redis": {k: r1.get(k, 0) - r0.get(k, 0) for k in r1 if r1.get(k, 0) != r0.get(k, 0)}}


def main():
    p = argparse.ArgumentParser()
    for opt in ("--pids", "--ports", "--key", "--body", "--pg-db", "--label"):
        p.add_argument(opt, default="")
    p.add_argument("--requests", type=int, default=200)
    p.add_argument("--pg-port", type=int, default=5432)
    p.add_argument("--redis-port", type=int, default=0)
    p.add_argument("--path", default="/v1/chat/completions")
    a = p.parse_args()
    a.pids = set(a.pids.split(","))
    ports = [int(x) for x in a.ports.split(",")]
    body = open(a.body, "rb").read()

    s0 = snapshot(a)
    t0 = time.monotonic()
    conns = [http.client.HTTPConnection("127.0.0.1", port, timeout=30) for port in ports]
    failed = 0
    for i in range(a.requests):
        c = conns[i % len(conns)]
        c.request("POST", a.path, body=body, headers={"Authorization": f"Bearer {a.key}",
                                                        "Content-Type": "application/json"})
        r = c.getresponse()
        r.read()
        failed += r.status != 200
    busy = time.monotonic() - t0
    s1 = snapshot(a)
    time.sleep(max(0.0, busy - 11))
    s2 = snapshot(a)
    load, idle, n = delta(s0, s1), delta(s1, s2), a.requests

    def per(x):
        return f"{x / n:.2f}"

    print(f"## Round trips per request: {a.label} ({n} requests one at a time over {len(ports)} instance(s), "
          f"{failed} not 200; idle: the same time without requests)")
    print()
    print("| counter | during the requests | per request | idle, same time |")
    print("|---|---:|---:|---:|")
    print(f"| PostgreSQL: segments sent by the gateway (round trips) | {load['pg_segs']} | {per(load['pg_segs'])} | {idle['pg_segs']} |")
    names = ("transactions", "rows inserted", "rows updated", "rows deleted")
    for i, name in enumerate(names):
        print(f"| PostgreSQL: {name} (pg_stat_database) | {load['pg'][i]} | {per(load['pg'][i])} | {idle['pg'][i]} |")
    if a.redis_port:
        print(f"| Redis: segments sent by the gateway (round trips) | {load['redis_segs']} | {per(load['redis_segs'])} | {idle['redis_segs']} |")
        for cmd in sorted(set(load["redis"]) | set(idle["redis"])):
            lc, ic = load["redis"].get(cmd, 0), idle["redis"].get(cmd, 0)
            print(f"| Redis: {cmd} calls | {lc} | {per(lc)} | {ic} |")
    print()


if __name__ == "__main__":
    main()
