#!/usr/bin/env python3
"""Time from launching the gateway to its first answered chat request.

    bench/load/coldstart.py --jar server/target/switchboard.jar --config CONFIG --url http://127.0.0.1:PORT \
        --key sk-sb-... --body bench/load/bodies/chat.json [-- JVM flags, e.g. -Xmx768m -XX:AOTCache=F]
    bench/load/coldstart.py --launcher ./switchboard --config CONFIG --url ... --key ... --body ...

With --launcher the gateway is started the way it ships, `LAUNCHER --config CONFIG` (the launcher finds the JDK,
sets the heap and collector and uses or records its AOT cache next to the jar; JVM flags go to it in
SWITCHBOARD_JAVA_OPTS), so the time includes the launcher's own work.

Starts `java [flags] -jar JAR --config CONFIG` (--java, else $JAVA_HOME/bin/java, else java on PATH; it
must be JDK 21 or newer, 25 for the AOT cache), POSTs BODY to
URL/v1/chat/completions every 5 ms until one is answered 200, prints the milliseconds since launch,
and the CPU time (user + system, all threads, from /proc/PID/stat) the gateway had used by then: on a busy
machine the wall time moves with other processes' load, the CPU time much less. Then it stops the gateway with
SIGTERM and waits for it (a recording run writes its AOT cache then).
The config must name an upstream that answers (e.g. bench/load's nginx). Loopback only.
"""
import argparse, os, signal, subprocess, sys, time, urllib.request

ap = argparse.ArgumentParser()
for a in ("--config", "--url", "--key", "--body"):
    ap.add_argument(a, required=True)
started = ap.add_mutually_exclusive_group(required=True)
started.add_argument("--jar")
started.add_argument("--launcher")
ap.add_argument("--timeout", type=float, default=120)
ap.add_argument("--java", default="")
ap.add_argument("flags", nargs="*")
o = ap.parse_args()
java = o.java or (os.path.join(os.environ["JAVA_HOME"], "bin", "java") if os.environ.get("JAVA_HOME") else "java")
body = open(o.body, "rb").read()
TICK = os.sysconf("SC_CLK_TCK")


def cpu_ms(pid):
    """utime + stime of the process so far, in ms (fields 14 and 15 of /proc/PID/stat, after the command name)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / TICK


t0 = time.monotonic()
env = {**os.environ, "SWITCHBOARD_LOG_LEVEL": "WARN"}
if o.launcher:
    command = [o.launcher, "--config", o.config]
    if o.flags:
        env["SWITCHBOARD_JAVA_OPTS"] = " ".join(o.flags)
else:
    command = [java, *o.flags, "-jar", o.jar, "--config", o.config]
p = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT, env=env)
first = None
try:
    while time.monotonic() - t0 < o.timeout and p.poll() is None:
        try:
            req = urllib.request.Request(o.url.rstrip("/") + "/v1/chat/completions", data=body,
                                         headers={"Authorization": "Bearer " + o.key, "Content-Type": "application/json"})
            with urllib.request.urlopen(req, timeout=5) as r:
                if r.status == 200:
                    r.read()
                    first = (time.monotonic() - t0) * 1000
                    cpu = cpu_ms(p.pid)
                    break
        except OSError:
            time.sleep(0.005)
finally:
    if p.poll() is None:
        p.send_signal(signal.SIGTERM)
        p.wait(timeout=120)
if first is None:
    sys.exit(f"no answered request (gateway exit status {p.returncode})")
print(f"first answered request after {first:.0f} ms (gateway CPU by then {cpu:.0f} ms)")
