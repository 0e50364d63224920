#!/usr/bin/env python3
"""The slow-stream scale test: as many concurrent long streams as the descriptor limit allows.

    bench/load/slowstreams.py [--streams 9900] [--chunks 20] [--interval 1.0] [--ramp 1000] [--heap 768m] [--jvm FLAGS]
                              [--jar server/target/switchboard.jar] [--out DIR] [--java JAVA]

A slow provider (this script, `upstream` mode, asyncio) answers every streamed chat request with the response
head at once, then one `chat.completion.chunk` every INTERVAL seconds, CHUNKS in all (20 s by default), a usage
frame and `[DONE]`. The gateway runs from its jar (-XmxHEAP) on a fresh SQLite database with one openai-type
provider pointing at it. STREAMS clients (this script, `clients` mode, asyncio, opened at RAMP per second) each
send one streamed /v1/chat/completions request and read it to the end. Each stream costs the gateway two
descriptors (the caller's and the provider's connection), so with the usual limit of 20,000 the largest run is
about 9,900 streams.

Reported: streams completed and failed (with the first reasons), time to first byte p50/p99/max, the gateway's
peak RSS and peak descriptors while the streams were open, its RSS after, heap after a full GC (jcmd; the class
histogram at that moment goes to OUT/histogram-mid.txt), and the
gateway's CPU seconds. Exits 1 on any failed stream. Everything listens on 127.0.0.1 only; every child process
is stopped when the script ends.
"""
import argparse, asyncio, json, os, resource, signal, socket, subprocess, sys, tempfile, time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def raise_nofile():
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


# ---- the slow provider --------------------------------------------------------------------------------
def chunk(i, text):
    return ("data: " + json.dumps({"id": "chatcmpl-slow", "object": "chat.completion.chunk", "created": 1,
                                   "model": "slow-model",
                                   "choices": [{"index": 0, "delta": ({"role": "assistant", "content": text} if i == 0
                                                                      else {"content": text}),
                                                "finish_reason": None}]}) + "\n\n").encode()


async def serve_upstream(port, chunks, interval):
    tail = ("data: " + json.dumps({"id": "chatcmpl-slow", "object": "chat.completion.chunk", "created": 1,
                                   "model": "slow-model",
                                   "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
                                   "usage": {"prompt_tokens": 12, "completion_tokens": chunks,
                                             "total_tokens": 12 + chunks}}) + "\n\ndata: [DONE]\n\n").encode()

    async def handle(reader, writer):
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                for line in head.split(b"\r\n"):
                    if line.lower().startswith(b"content-length:"):
                        length = int(line.split(b":", 1)[1])
                await reader.readexactly(length)
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                for i in range(chunks):
                    body = chunk(i, "w%d " % i)
                    writer.write(b"%x\r\n%s\r\n" % (len(body), body))
                    await writer.drain()
                    await asyncio.sleep(interval)
                writer.write(b"%x\r\n%s\r\n0\r\n\r\n" % (len(tail), tail))
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    server = await asyncio.start_server(handle, "127.0.0.1", port, backlog=4096, limit=1 << 20)
    async with server:
        await server.serve_forever()


# ---- the clients ----------------------------------------------------------------------------------------
async def run_clients(port, key, streams, ramp, deadline):
    body = json.dumps({"model": "slow", "stream": True, "max_tokens": 64,
                       "messages": [{"role": "user", "content": "Count slowly."}]}).encode()
    request = (b"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer " + key.encode()
               + b"\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    ttfb, failures, done = [], [], [0]

    async def one(n):
        start = time.monotonic()
        writer = None
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port, limit=1 << 20)
            writer.write(request)
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), deadline)
            if b" 200 " not in status:
                raise RuntimeError("status " + status.decode(errors="replace").strip())
            seen_first, tail = False, b""
            while True:
                data = await asyncio.wait_for(reader.read(65536), deadline)
                if not data:
                    raise RuntimeError("connection closed before [DONE]")
                if not seen_first and b"data: " in data:
                    seen_first = True
                    ttfb.append((time.monotonic() - start) * 1000)
                tail = (tail + data)[-256:]
                if b"data: [DONE]" in tail:
                    break
            done[0] += 1
        except Exception as e:  # every failure is counted and its kind reported
            failures.append(f"stream {n}: {type(e).__name__}: {e}")
        finally:
            if writer is not None:
                writer.close()

    tasks = []
    for n in range(streams):
        tasks.append(asyncio.create_task(one(n)))
        if (n + 1) % max(1, ramp // 20) == 0:
            await asyncio.sleep(0.05)
    await asyncio.gather(*tasks)
    return {"completed": done[0], "failed": len(failures), "failures": failures[:10], "ttfb_ms": sorted(ttfb)}


# ---- the gateway ----------------------------------------------------------------------------------------
def proc_stat(pid):
    rss = fds = 0
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                rss = int(line.split()[1]) // 1024
    try:
        fds = len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        pass
    return rss, fds


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        parts = f.read().rsplit(")", 1)[1].split()
    return (int(parts[11]) + int(parts[12])) / os.sysconf("SC_CLK_TCK")


def heap_used(pid):
    out = subprocess.run(["jcmd", str(pid), "GC.heap_info"], capture_output=True, text=True).stdout
    for word in out.split(","):
        if word.strip().startswith("used "):
            return word.strip().split()[1]
    return "unknown (jcmd unavailable)"


def pct(xs, p):
    return xs[min(len(xs) - 1, int(len(xs) * p))] if xs else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", nargs="?", default="run", choices=["run", "upstream", "clients"])
    ap.add_argument("--streams", type=int, default=9900)
    ap.add_argument("--chunks", type=int, default=20)
    ap.add_argument("--interval", type=float, default=1.0)
    ap.add_argument("--ramp", type=int, default=1000, help="streams opened per second")
    ap.add_argument("--heap", default="768m")
    ap.add_argument("--jvm", default="", help="more JVM flags for the gateway, e.g. a flight recording")
    ap.add_argument("--jar", default=os.path.join(ROOT, "server/target/switchboard.jar"))
    ap.add_argument("--java", default=os.path.join(os.environ["JAVA_HOME"], "bin/java") if os.environ.get("JAVA_HOME") else "java")
    ap.add_argument("--out", default="")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--key", default="")
    ap.add_argument("--result", default="")
    o = ap.parse_args()
    raise_nofile()
    if o.mode == "upstream":
        asyncio.run(serve_upstream(o.port, o.chunks, o.interval))
        return
    if o.mode == "clients":
        deadline = o.chunks * o.interval + 60
        result = asyncio.run(run_clients(o.port, o.key, o.streams, o.ramp, deadline))
        with open(o.result, "w") as f:
            json.dump(result, f)
        return

    out = o.out or tempfile.mkdtemp(prefix="switchboard-slowstreams-")
    os.makedirs(out, exist_ok=True)
    up_port, gw_port = free_port(), free_port()
    children = []

    def stop_all():
        for p in reversed(children):
            if p.poll() is None:
                p.send_signal(signal.SIGTERM)
        for p in reversed(children):
            try:
                p.wait(timeout=30)
            except subprocess.TimeoutExpired:
                p.kill()

    me = [sys.executable, os.path.abspath(__file__)]
    try:
        children.append(subprocess.Popen(me + ["upstream", "--port", str(up_port), "--chunks", str(o.chunks),
                                               "--interval", str(o.interval)]))
        config = os.path.join(out, "config.yaml")
        with open(config, "w") as f:
            f.write(f"""# Written by bench/load/slowstreams.py: one model on a slow streaming provider.
listen: 127.0.0.1:{gw_port}
database: sqlite:{out}/slow.db
admin_key: sk-admin-slow-not-secret-0123456789abcdef
providers:
  slow:
    type: openai
    base_url: http://127.0.0.1:{up_port}/v1
    keys: ["sk-upstream-slow-dummy"]
    timeouts: {{first_byte: 30s, idle: 30s}}
models:
  slow:
    context_length: 128000
    max_output_tokens: 16384
    pricing: {{input: 0.15, output: 0.60}}
    route: [{{provider: slow, model: slow-model}}]
""")
        env = {**os.environ, "SWITCHBOARD_LOG_LEVEL": "WARN"}

        def cli(*args):
            r = subprocess.run([o.java, "-jar", o.jar, "--config", config, *args], capture_output=True, text=True,
                               env=env, cwd=out, timeout=180)
            if r.returncode != 0:
                sys.exit(f"switchboard {' '.join(args)} failed: {r.stdout}{r.stderr}")
            return json.loads(r.stdout)

        user = cli("users", "create", "--name", "slow", "--balance-usd", "1000000")
        key = cli("keys", "create", user["id"], "--name", "slow")["key"]
        log = open(os.path.join(out, "gateway.log"), "w")
        gw = subprocess.Popen([o.java, f"-Xmx{o.heap}", *o.jvm.split(), "-jar", o.jar, "--config", config], stdout=log,
                              stderr=subprocess.STDOUT, env=env, cwd=out)
        children.append(gw)
        for _ in range(600):
            try:
                socket.create_connection(("127.0.0.1", gw_port), timeout=1).close()
                break
            except OSError:
                time.sleep(0.1)
        else:
            sys.exit("the gateway did not start; see " + os.path.join(out, "gateway.log"))
        # warm-up: a handful of streams, so the peak measures the streams, not class loading
        subprocess.run(me + ["clients", "--port", str(gw_port), "--key", key, "--streams", "20", "--chunks", str(o.chunks),
                            "--interval", str(o.interval), "--result", os.path.join(out, "warmup.json")], check=True)
        base_rss, base_fds = proc_stat(gw.pid)
        cpu0 = cpu_seconds(gw.pid)
        result_file = os.path.join(out, "clients.json")
        clients = subprocess.Popen(me + ["clients", "--port", str(gw_port), "--key", key, "--streams", str(o.streams),
                                         "--chunks", str(o.chunks), "--interval", str(o.interval), "--ramp", str(o.ramp),
                                         "--result", result_file])
        children.append(clients)
        peak_rss = peak_fds = 0
        live_at, live = o.streams / o.ramp + o.chunks * o.interval / 2, ""
        t0 = time.monotonic()
        while clients.poll() is None:
            rss, fds = proc_stat(gw.pid)
            peak_rss, peak_fds = max(peak_rss, rss), max(peak_fds, fds)
            if not live and time.monotonic() - t0 > live_at:
                # the live heap with the streams open: what each open stream really keeps
                subprocess.run(["jcmd", str(gw.pid), "GC.run"], capture_output=True)
                live = heap_used(gw.pid) + f" with {fds} descriptors open"
                # what they keep, by class (histogram-mid.txt): compare runs per open stream, not in total
                with open(os.path.join(out, "histogram-mid.txt"), "w") as f:
                    f.write(f"descriptors open: {fds}\n")
                    f.flush()
                    subprocess.run(["jcmd", str(gw.pid), "GC.class_histogram"], stdout=f, stderr=subprocess.DEVNULL)
            time.sleep(0.5)
        wall = time.monotonic() - t0
        cpu = cpu_seconds(gw.pid) - cpu0
        time.sleep(2)
        after_rss, after_fds = proc_stat(gw.pid)
        subprocess.run(["jcmd", str(gw.pid), "GC.run"], capture_output=True)
        with open(result_file) as f:
            r = json.load(f)
        t = r["ttfb_ms"]
        print(f"slow-stream scale test: {o.streams} concurrent streams of {o.chunks} chunks every {o.interval}s "
              f"(opened at {o.ramp}/s), gateway -Xmx{o.heap}, load average {os.getloadavg()[0]:.1f}")
        print(f"  completed {r['completed']}, failed {r['failed']}, wall {wall:.1f} s, gateway CPU {cpu:.1f} s")
        print(f"  time to first byte ms: p50 {pct(t, 0.5):.0f}, p99 {pct(t, 0.99):.0f}, max {t[-1] if t else float('nan'):.0f}")
        print(f"  gateway RSS MiB: before {base_rss}, peak {peak_rss}, after {after_rss}; "
              f"descriptors: before {base_fds}, peak {peak_fds}, after {after_fds}")
        print(f"  heap after a full GC: mid-run {live or 'not sampled'}; after the run {heap_used(gw.pid)}")
        for failure in r["failures"]:
            print("  " + failure)
        print(f"  files in {out}")
        sys.exit(1 if r["failed"] else 0)
    finally:
        stop_all()


if __name__ == "__main__":
    main()
