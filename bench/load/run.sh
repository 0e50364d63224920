#!/usr/bin/env bash
# Load test of the gateway against a static nginx upstream on loopback: requests per second, latency,
# latency added over calling the upstream directly, and the gateway's CPU time per request.
#
#   bench/load/run.sh [--out DIR] [--repeats 3] [--duration 15] [--warmup 3] [--initial-warmup 20]
#                     [--conns "1 32 128"] [--modes "json sse xsse"] [--threads 2]
#                     [--cpu-gateway LIST] [--cpu-upstream LIST] [--cpu-loadgen LIST]
#                     [--java-opts "..."] [--heap 768m] [--log-level INFO]
#                     [--max-foreign 0.15] [--gate-wait 120] [--retries 2]
#                     [--upstream-port 18180] [--gateway-port 18190] [--rebuild] [--max-lifetime 7200]
#                     [--limits "--rpm N --tpm N ..."] [--redis redis://127.0.0.1:6379] [--covered]
#                     [--instances 1] [--database sqlite|postgresql://user@host:5432/db] [--roundtrips N]
#                     [--floor] [--floor-port 18170]
#
# What it does: builds server/target/switchboard.jar if it is missing; starts nginx (1 worker) with
# bench/load/upstream-nginx.conf; writes a gateway config whose two models, bench-json and bench-sse,
# route to that nginx through an openai-type provider each; creates a user and an API key with the CLI
# (`switchboard users create`, `keys create`); starts the gateway (-Xmx768m, a 128 MiB starting heap and G1, as the
# launcher does, unless --java-opts names them); checks every target and mode answers correctly; warms the
# gateway up; then, per repeat (target order reversed on even repeats), per mode and connection count, runs wrk
# against `direct` (nginx) and `gateway`. With
# --limits (arguments of `switchboard keys create`, e.g. "--rpm 100000000 --tpm 100000000000") a second key
# with those limits is created and measured as the target `limited`, to see what counting limits costs;
# --redis puts the limit counters in that Redis (under a key prefix of this run's own).
# --covered adds a plan that covers both models, a user on it and a key, measured as the target `covered`: the
# same request with no money held, charged or entered in the ledger (only its usage record is written), to see
# what the pay-as-you-go money path costs per request.
# --floor adds the target `floor`: the pass-through proxy of the bench module (dev.switchboard.bench.PassThroughFloor:
# the gateway's HTTP server and upstream client with nothing between them; built into bench/target/benchmarks.jar
# when missing), started with the gateway's JVM flags and CPUs, in json and sse modes: the least any gateway on this
# stack can cost, and beside it what the gateway's own work adds.
# --instances N starts N gateway processes (ports --gateway-port, +1, ...) on one database, which must then be
# PostgreSQL (--database); wrk's threads are spread evenly over them (post.lua's setup, BENCH_ADDRS), and the
# gateway CPU per request is the sum of all N processes' CPU over the requests. --roundtrips N (PostgreSQL only)
# afterwards sends N plain requests one at a time per key and counts the PostgreSQL and Redis round trips each
# costs (bench/load/roundtrips.py); give --redis a Redis of the run's own, so only the gateway's commands count.
#
# Per run it records wrk's req/s and latency percentiles, and from /proc the CPU time (utime+stime) of
# the gateway JVM, of nginx, of wrk, and of everything else on the machine. Before each run it waits
# (up to --gate-wait s) until other processes plus VM steal use at most --max-foreign cores; a run
# during which they used more is measured again (--retries) and the least disturbed attempt is kept.
#
# Output in --out (default /tmp/switchboard-bench/<timestamp>): summary.md (also printed),
# results.jsonl (one line per run), env.txt, gateway.log, config.yaml, wrk/ (raw wrk output).
# Every process started here listens on 127.0.0.1 only, is bounded by `timeout --max-lifetime`, and is
# stopped by PID on exit.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/../.." && pwd)"
LIB="$HERE/loadlib.py"

OUT=""; DUR=15; WARM=3; INIT_WARM=20; REPEATS=3; CONNS="1 32 128"; MODES="json sse"; THREADS=2
CPU_GATEWAY=""; CPU_UPSTREAM=""; CPU_LOADGEN=""; JAVA_OPTS=""; HEAP=768m; LOG_LEVEL=INFO
MAX_FOREIGN=0.15; GATE_WAIT=120; RETRIES=2; UP_PORT=18180; GW_PORT=18190; REBUILD=""; MAX_LIFETIME=7200
LIMITS=""; REDIS=""; INSTANCES=1; DATABASE=""; ROUNDTRIPS=0; COVERED=""; FLOOR=""; FLOOR_PORT=18170

while [ $# -gt 0 ]; do
  case "$1" in
    --out) OUT="$2"; shift 2 ;;
    --repeats) REPEATS="$2"; shift 2 ;;
    --duration) DUR="$2"; shift 2 ;;
    --warmup) WARM="$2"; shift 2 ;;
    --initial-warmup) INIT_WARM="$2"; shift 2 ;;
    --conns) CONNS="$2"; shift 2 ;;
    --modes) MODES="$2"; shift 2 ;;
    --threads) THREADS="$2"; shift 2 ;;
    --cpu-gateway) CPU_GATEWAY="$2"; shift 2 ;;
    --cpu-upstream) CPU_UPSTREAM="$2"; shift 2 ;;
    --cpu-loadgen) CPU_LOADGEN="$2"; shift 2 ;;
    --java-opts) JAVA_OPTS="$2"; shift 2 ;;
    --heap) HEAP="$2"; shift 2 ;;
    --log-level) LOG_LEVEL="$2"; shift 2 ;;
    --max-foreign) MAX_FOREIGN="$2"; shift 2 ;;
    --gate-wait) GATE_WAIT="$2"; shift 2 ;;
    --retries) RETRIES="$2"; shift 2 ;;
    --upstream-port) UP_PORT="$2"; shift 2 ;;
    --gateway-port) GW_PORT="$2"; shift 2 ;;
    --rebuild) REBUILD=1; shift ;;
    --max-lifetime) MAX_LIFETIME="$2"; shift 2 ;;
    --limits) LIMITS="$2"; shift 2 ;;
    --redis) REDIS="$2"; shift 2 ;;
    --instances) INSTANCES="$2"; shift 2 ;;
    --database) DATABASE="$2"; shift 2 ;;
    --roundtrips) ROUNDTRIPS="$2"; shift 2 ;;
    --covered) COVERED=1; shift ;;
    --floor) FLOOR=1; shift ;;
    --floor-port) FLOOR_PORT="$2"; shift 2 ;;
    -h|--help) awk 'NR > 1 && /^#/ { sub(/^# ?/, ""); print; next } NR > 1 { exit }' "$0"; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

OUT="${OUT:-/tmp/switchboard-bench/$(date +%Y%m%d-%H%M%S)}"
log() { printf '[%s] %s\n' "$(date +%H:%M:%S)" "$*" >&2; }
die() { log "error: $*"; exit 1; }
[[ "$INSTANCES" =~ ^[1-9][0-9]?$ ]] || die "--instances takes 1 to 99"
[[ "$INSTANCES" -eq 1 || "$DATABASE" == postgresql://* ]] || die "several instances need a shared database: --database postgresql://..."
GW_PORTS=(); for i in $(seq 0 $((INSTANCES - 1))); do GW_PORTS+=($((GW_PORT + i))); done

# ---- tools ------------------------------------------------------------------------------------------
missing=()
for t in wrk nginx python3 curl taskset timeout; do command -v "$t" >/dev/null 2>&1 || missing+=("$t"); done
[ "${#missing[@]}" -eq 0 ] || die "missing tools: ${missing[*]} (Debian/Ubuntu: apt-get install wrk nginx-light python3 curl util-linux)"

java_ok() { [[ -x "$1/bin/java" ]] && "$1/bin/java" -version 2>&1 | grep -Eq 'version "(2[1-9]|[3-9][0-9])'; }
if [[ -z "${JAVA_HOME:-}" ]] || ! java_ok "$JAVA_HOME"; then
  JAVA_HOME=""
  if command -v java >/dev/null 2>&1; then
    sys="$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")"
    java_ok "$sys" && JAVA_HOME="$sys"
  fi
  if [[ -z "$JAVA_HOME" ]]; then
    for candidate in /usr/lib/jvm/*; do java_ok "$candidate" && { JAVA_HOME="$candidate"; break; }; done
  fi
  [[ -n "$JAVA_HOME" ]] || die "needs a JDK 21 or newer (set JAVA_HOME)"
  export JAVA_HOME
fi
JAVA="$JAVA_HOME/bin/java"

JAR="${SWITCHBOARD_JAR:-$ROOT/server/target/switchboard.jar}"  # SWITCHBOARD_JAR: another build (before/after runs)
if [[ ! -f "$JAR" || -n "$REBUILD" ]]; then
  log "building $JAR"
  (cd "$ROOT" && timeout 1800 ./mvnw -B -q -DskipTests -pl server -am package) >&2
fi
FLOOR_JAR="$ROOT/bench/target/benchmarks.jar"
if [[ -n "$FLOOR" && ( ! -f "$FLOOR_JAR" || -n "$REBUILD" ) ]]; then
  log "building $FLOOR_JAR"
  (cd "$ROOT" && timeout 1800 ./mvnw -B -q -DskipTests -pl bench -am package) >&2
fi

for p in "$UP_PORT" "${GW_PORTS[@]}" ${FLOOR:+"$FLOOR_PORT"}; do
  if ss -ltnH "sport = :$p" 2>/dev/null | grep -q .; then die "port $p is in use (--upstream-port / --gateway-port / --floor-port)"; fi
done

mkdir -p "$OUT/upstream/tmp" "$OUT/gateway" "$OUT/wrk"
OUT="$(cd "$OUT" && pwd)"
RES="$OUT/results.jsonl"
: > "$RES"

# ---- processes, stopped by PID on exit -------------------------------------------------------------
UP_TIMEOUT_PID=""; UP_MASTER=""; GW_TIMEOUT_PIDS=(); GW_PID_LIST=(); FLOOR_TIMEOUT_PID=""; FLOOR_PID=""; CLEANED=""
stop_pid() { # pid seconds: TERM (QUIT for nginx is passed as $3), wait, then KILL
  local pid="$1" secs="$2" sig="${3:-TERM}"
  [ -n "$pid" ] || return 0
  kill -"$sig" "$pid" 2>/dev/null || return 0
  for _ in $(seq 1 $((secs * 10))); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.1; done
  kill -KILL "$pid" 2>/dev/null || true
}
cleanup() {
  [ -n "$CLEANED" ] && return 0
  CLEANED=1
  set +e
  local p
  for p in "${GW_PID_LIST[@]}"; do stop_pid "$p" 15; done
  for p in "${GW_TIMEOUT_PIDS[@]}"; do stop_pid "$p" 2; done
  stop_pid "$FLOOR_PID" 5
  stop_pid "$FLOOR_TIMEOUT_PID" 2
  stop_pid "$UP_MASTER" 5 QUIT
  stop_pid "$UP_TIMEOUT_PID" 2
  wait 2>/dev/null
}
trap cleanup EXIT
trap 'cleanup; exit 143' TERM INT

# ---- upstream: nginx in the foreground under timeout --------------------------------------------------
sed -e "s/__PORT__/$UP_PORT/g" -e 's/^daemon on;/daemon off;/' "$HERE/upstream-nginx.conf" > "$OUT/upstream/nginx.conf"
cp "$HERE/sse-body.txt" "$OUT/upstream/sse-body.txt"
timeout 20 nginx -p "$OUT/upstream" -c "$OUT/upstream/nginx.conf" -t -q
up_pin=(); [ -n "$CPU_UPSTREAM" ] && up_pin=(taskset -c "$CPU_UPSTREAM")
timeout "$MAX_LIFETIME" "${up_pin[@]}" nginx -p "$OUT/upstream" -c "$OUT/upstream/nginx.conf" \
  > "$OUT/upstream/stdout.log" 2>&1 &
UP_TIMEOUT_PID=$!
for _ in $(seq 1 100); do
  curl -fsS --max-time 1 "http://127.0.0.1:$UP_PORT/healthz" >/dev/null 2>&1 && break
  sleep 0.1
done
UP_MASTER="$(cat "$OUT/upstream/nginx.pid" 2>/dev/null || true)"
[ -n "$UP_MASTER" ] || die "nginx did not start, see $OUT/upstream/error.log"
UP_WORKER="$(pgrep -P "$UP_MASTER" | head -n1)"
UP_PIDS="$UP_MASTER,$UP_WORKER"
log "upstream nginx on 127.0.0.1:$UP_PORT (master $UP_MASTER, worker $UP_WORKER)"

# ---- gateway config, user and key ---------------------------------------------------------------------
GW_DIR="$OUT/gateway"
cat > "$GW_DIR/config.yaml" <<EOF
# Written by bench/load/run.sh: two models on a static nginx upstream, one per reply kind.
listen: 127.0.0.1:$GW_PORT
database: ${DATABASE:-sqlite:$GW_DIR/bench.db}
admin_key: sk-admin-bench-not-secret-0123456789abcdef
providers:
  bench-json:
    type: openai
    base_url: http://127.0.0.1:$UP_PORT/json/v1
    keys: ["sk-upstream-bench-dummy"]
    # this path answers plain JSON only; the gateway would otherwise ask it for a stream
    streaming: false
  bench-sse:
    type: openai
    base_url: http://127.0.0.1:$UP_PORT/sse/v1
    keys: ["sk-upstream-bench-dummy"]
models:
  bench-json:
    context_length: 128000
    max_output_tokens: 16384
    pricing: {input: 0.15, output: 0.60}
    route: [{provider: bench-json, model: gpt-4o-mini}]
  bench-sse:
    context_length: 128000
    max_output_tokens: 16384
    pricing: {input: 0.15, output: 0.60}
    route: [{provider: bench-sse, model: gpt-4o-mini}]
EOF
if [ -n "$REDIS" ]; then
  printf 'redis: %s\nlimits: {redis_prefix: "bench:%s:"}\n' "$REDIS" "$(date +%s%N)" >> "$GW_DIR/config.yaml"
fi
if [ -n "$COVERED" ]; then
  printf 'plans:\n  bench-covered: {models: [bench-json, bench-sse]}\n' >> "$GW_DIR/config.yaml"
fi
cp "$GW_DIR/config.yaml" "$OUT/config.yaml"
cli() { (cd "$GW_DIR" && SWITCHBOARD_LOG_LEVEL=WARN timeout 120 "$JAVA" -jar "$JAR" --config "$GW_DIR/config.yaml" "$@"); }
cli users create --name bench --balance-usd 1000000 > "$GW_DIR/user.json" || die "users create failed: $(cat "$GW_DIR/user.json")"
USER_ID="$(python3 "$LIB" cli-json "$GW_DIR/user.json" id)"
cli keys create "$USER_ID" --name bench > "$GW_DIR/key.json" || die "keys create failed"
KEY="$(python3 "$LIB" cli-json "$GW_DIR/key.json" key)"
log "user $USER_ID, key $(python3 "$LIB" cli-json "$GW_DIR/key.json" prefix)…"
TARGETS="direct gateway"
if [ -n "$LIMITS" ]; then
  # shellcheck disable=SC2086  # LIMITS is a list of CLI options
  cli keys create "$USER_ID" --name bench-limited $LIMITS > "$GW_DIR/key-limited.json" || die "keys create $LIMITS failed"
  LIMITED_KEY="$(python3 "$LIB" cli-json "$GW_DIR/key-limited.json" key)"
  TARGETS="direct gateway limited"
  log "key with limits ($LIMITS): $(python3 "$LIB" cli-json "$GW_DIR/key-limited.json" prefix)…"
fi
if [ -n "$COVERED" ]; then
  cli users create --name bench-covered --plan bench-covered > "$GW_DIR/user-covered.json" \
    || die "users create --plan failed: $(cat "$GW_DIR/user-covered.json")"
  cli keys create "$(python3 "$LIB" cli-json "$GW_DIR/user-covered.json" id)" --name bench-covered > "$GW_DIR/key-covered.json" \
    || die "keys create (covered) failed"
  COVERED_KEY="$(python3 "$LIB" cli-json "$GW_DIR/key-covered.json" key)"
  TARGETS="$TARGETS covered"
  log "key of a user whose plan covers the models: $(python3 "$LIB" cli-json "$GW_DIR/key-covered.json" prefix)…"
fi

# ---- gateway instances ----------------------------------------------------------------------------------
gw_pin=(); [ -n "$CPU_GATEWAY" ] && gw_pin=(taskset -c "$CPU_GATEWAY")
for i in $(seq 0 $((INSTANCES - 1))); do
  port="${GW_PORTS[$i]}"; cfg="$GW_DIR/config.yaml"; glog="$OUT/gateway.log"
  if [ "$i" -gt 0 ]; then
    cfg="$GW_DIR/config-$i.yaml"; glog="$OUT/gateway-$i.log"
    sed "s/^listen: .*/listen: 127.0.0.1:$port/" "$GW_DIR/config.yaml" > "$cfg"
  fi
  # shellcheck disable=SC2086  # JAVA_OPTS is a list of JVM flags
  gc=(-XX:+UseG1GC); case " $JAVA_OPTS " in *"-XX:+Use"*"GC"*) gc=() ;; esac
  # the launcher's starting heap too (128 MiB, not a 64th of the machine's memory), when the ceiling allows it
  case " $JAVA_OPTS " in *" -Xms"*|*"InitialHeapSize"*) ;; *)
    [[ "$HEAP" =~ ^([0-9]+)([mMgG])$ ]] && { [[ "${BASH_REMATCH[2]}" == [gG] ]] || [ "${BASH_REMATCH[1]}" -ge 128 ]; } \
      && gc+=(-XX:InitialHeapSize=128m) ;;
  esac
  (cd "$GW_DIR" && SWITCHBOARD_LOG_LEVEL="$LOG_LEVEL" exec timeout "$MAX_LIFETIME" "${gw_pin[@]}" \
    "$JAVA" -Xmx"$HEAP" "${gc[@]}" $JAVA_OPTS -jar "$JAR" --config "$cfg") > "$glog" 2>&1 &
  tpid=$!
  GW_TIMEOUT_PIDS+=("$tpid")
  for _ in $(seq 1 600); do
    curl -fsS --max-time 1 "http://127.0.0.1:$port/health" >/dev/null 2>&1 && break
    kill -0 "$tpid" 2>/dev/null || die "gateway exited, see $glog"
    sleep 0.1
  done
  gpid="$(pgrep -P "$tpid" | head -n1)"
  [ -n "$gpid" ] || die "gateway did not start, see $glog"
  GW_PID_LIST+=("$gpid")
  log "gateway pid $gpid on 127.0.0.1:$port$( [ -n "$CPU_GATEWAY" ] && echo ", cpus $CPU_GATEWAY")"
done
GW_PID="${GW_PID_LIST[0]}"
GW_PIDS="$(IFS=,; echo "${GW_PID_LIST[*]}")"
if [ -n "$FLOOR" ]; then
  # shellcheck disable=SC2086  # JAVA_OPTS is a list of JVM flags
  timeout "$MAX_LIFETIME" "${gw_pin[@]}" "$JAVA" -Xmx"$HEAP" "${gc[@]}" $JAVA_OPTS -cp "$FLOOR_JAR" \
    dev.switchboard.bench.PassThroughFloor "$FLOOR_PORT" "http://127.0.0.1:$UP_PORT" > "$OUT/floor.log" 2>&1 &
  FLOOR_TIMEOUT_PID=$!
  for _ in $(seq 1 300); do
    grep -q "listening" "$OUT/floor.log" 2>/dev/null && break
    kill -0 "$FLOOR_TIMEOUT_PID" 2>/dev/null || die "the pass-through floor exited, see $OUT/floor.log"
    sleep 0.1
  done
  FLOOR_PID="$(pgrep -P "$FLOOR_TIMEOUT_PID" | head -n1)"
  [ -n "$FLOOR_PID" ] || die "the pass-through floor did not start, see $OUT/floor.log"
  TARGETS="$TARGETS floor"
  log "pass-through floor pid $FLOOR_PID on 127.0.0.1:$FLOOR_PORT"
fi
# the processes whose CPU is the run's own: the measured gateway or floor, and nginx
OWN_PIDS="$GW_PIDS,$UP_PIDS${FLOOR_PID:+,$FLOOR_PID}"
cpu_pids() { if [ "$1" = floor ]; then echo "$FLOOR_PID"; else echo "$GW_PIDS"; fi; }
# the floor relays bytes only: a stream across formats is not its kind of request
runs() { [ "$1" != floor ] || [ "$2" != xsse ]; }
# wrk's threads go to the instances in turn (post.lua's setup); the direct target is nginx alone, floor is one process
GW_ADDRS="$(printf '127.0.0.1:%s,' "${GW_PORTS[@]}")"; GW_ADDRS="${GW_ADDRS%,}"
addrs() { [[ "$1" = direct || "$1" = floor ]] || echo "$GW_ADDRS"; }
threads_for() { # target: at least one thread per instance, a multiple of the instances
  local t="$THREADS"
  if [[ "$1" != direct && "$1" != floor ]] && [ "$INSTANCES" -gt 1 ]; then t=$(( (THREADS + INSTANCES - 1) / INSTANCES * INSTANCES )); fi
  echo "$t"
}

# ---- targets ------------------------------------------------------------------------------------------
# Modes: json (plain answer), sse (a streamed answer), xsse (a stream across formats: the messages endpoint
# over the same OpenAI-format upstream stream; its direct baseline is the upstream's sse stream).
url() { # target mode
  local m="$2"; [ "$m" = xsse ] && m=sse
  if [ "$1" = direct ]; then echo "http://127.0.0.1:$UP_PORT/$m/v1/chat/completions"
  elif [ "$1" = floor ]; then echo "http://127.0.0.1:$FLOOR_PORT/$m/v1/chat/completions"
  elif [ "$2" = xsse ]; then echo "http://127.0.0.1:$GW_PORT/v1/messages"
  else echo "http://127.0.0.1:$GW_PORT/v1/chat/completions"; fi
}
body() {
  case "$1" in
    json) echo "$HERE/bodies/chat.json" ;;
    xsse) echo "$HERE/bodies/messages-stream.json" ;;
    *) echo "$HERE/bodies/chat-stream.json" ;;
  esac
}
auth() {
  case "$1" in
    direct|floor) echo "Authorization: Bearer sk-bench-dummy" ;;
    limited) echo "Authorization: Bearer $LIMITED_KEY" ;;
    covered) echo "Authorization: Bearer $COVERED_KEY" ;;
    *) echo "Authorization: Bearer $KEY" ;;
  esac
}
# The messages format asks for its version header; any other request gets a harmless one.
version() { echo "anthropic-version: 2023-06-01"; }

for t in $TARGETS; do
  for m in $MODES; do
   runs "$t" "$m" || continue
   for port in "${GW_PORTS[@]}"; do
    [[ "$t" = direct || "$t" = floor ]] && [ "$port" != "$GW_PORT" ] && continue
    f="$OUT/wrk/check-$t-$m.out"
    code="$(curl -s -o "$f" -w '%{http_code}' --max-time 10 -X POST -H 'Content-Type: application/json' \
      -H "$(auth "$t")" -H "$(version)" --data-binary @"$(body "$m")" "$(url "$t" "$m" | sed "s/:$GW_PORT\//:$port\//")" || true)"
    ok=""
    if [ "$code" = 200 ]; then
      if [ "$m" = json ] && grep -q '"chatcmpl-bench0001"' "$f" && grep -q '"total_tokens":260' "$f"; then ok=1; fi
      if [ "$m" = sse ] && [ "$(grep -c '^data: ' "$f")" -ge 21 ] && grep -q '^data: \[DONE\]' "$f"; then ok=1; fi
      if [ "$m" = xsse ] && { [ "$t" = direct ] || grep -q '^event: message_stop' "$f"; } \
        && [ "$(grep -c '^data: ' "$f")" -ge 21 ]; then ok=1; fi
    fi
    [ -n "$ok" ] || die "check $t/$m failed: HTTP $code, body in $f"
    log "check $t/$m$( [[ "$t" = direct || "$t" = floor ]] || echo " on :$port"): HTTP $code, $(wc -c < "$f") bytes, ok"
   done
  done
done

{
  echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "machine: $(nproc) CPUs ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')), $(free -m | awk '/Mem:/{print $2}') MiB, kernel $(uname -r)"
  echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "java: $("$JAVA" -version 2>&1 | head -n1), flags: -Xmx$HEAP ${gc[*]} $JAVA_OPTS"
  echo "gateway: $(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null || echo '?')$(cd "$ROOT" && git diff --quiet HEAD 2>/dev/null || echo ' (uncommitted changes)'), jar $(date -u -r "$JAR" +%Y-%m-%dT%H:%M:%SZ), log level $LOG_LEVEL"
  echo "wrk: $(wrk -v 2>&1 | head -n1)"
  echo "nginx: $(nginx -v 2>&1 | sed 's/^nginx version: //'), 1 worker"
  echo "settings: repeats=$REPEATS duration=${DUR}s warmup=${WARM}s initial_warmup=${INIT_WARM}s conns='$CONNS' modes='$MODES' threads=$THREADS max_foreign=$MAX_FOREIGN gate_wait=${GATE_WAIT}s retries=$RETRIES"
  echo "pinning: gateway=${CPU_GATEWAY:-none} upstream=${CPU_UPSTREAM:-none} loadgen=${CPU_LOADGEN:-none}"
  echo "limits: ${LIMITS:-none} (target limited), counters in ${REDIS:-memory}"
  echo "covered: $( [ -n "$COVERED" ] && echo "a key whose plan covers the models (target covered)" || echo no)"
  echo "instances: $INSTANCES on ${DATABASE:-sqlite} (ports ${GW_PORTS[*]})"
  echo "floor: $( [ -n "$FLOOR" ] && echo "the pass-through of the gateway's HTTP stack on 127.0.0.1:$FLOOR_PORT, pid $FLOOR_PID (target floor)" || echo no)"
  echo "pids: gateway $GW_PIDS, nginx $UP_PIDS"
} > "$OUT/env.txt"

wrk_plain() { # target mode conns seconds (warm-up, not recorded)
  local th; th="$(threads_for "$1")"; [ "$3" -lt "$th" ] && th="$3"
  local pin=(); [ -n "$CPU_LOADGEN" ] && pin=(taskset -c "$CPU_LOADGEN")
  BENCH_ADDRS="$(addrs "$1")" BENCH_BODY="$(body "$2")" BENCH_OUT="$OUT/wrk/warm.json" timeout $(($4 + 30)) "${pin[@]}" \
    wrk -t"$th" -c"$3" -d"$4s" --timeout 10s -s "$HERE/post.lua" -H "$(auth "$1")" -H "$(version)" "$(url "$1" "$2")" > /dev/null
}

if [ "$INIT_WARM" -gt 0 ]; then
  for m in $MODES; do
    log "warming up the gateway: $m, 32 connections, ${INIT_WARM}s"
    wrk_plain gateway "$m" 32 "$INIT_WARM"
  done
fi

measure() { # target mode conns rep
  local a gate interf
  for a in $(seq 1 $((RETRIES + 1))); do
    gate="$(python3 "$LIB" gate --pids "$OWN_PIDS" --max-foreign "$MAX_FOREIGN" --max-wait "$GATE_WAIT")"
    if python3 -c "import sys; sys.exit(0 if ${gate%% *} > 3 else 1)"; then
      log "waited ${gate%% *}s for other processes to quieten (now ${gate##* } cores)"
    fi
    if [ "$WARM" -gt 0 ]; then wrk_plain "$1" "$2" "$3" "$WARM"; fi
    BENCH_ADDRS="$(addrs "$1")" python3 "$LIB" measure --out "$RES" --tmp "$OUT/wrk" --target "$1" --mode "$2" \
      --conns "$3" --rep "$4" --attempt "$a" --duration "$DUR" --threads "$(threads_for "$1")" --url "$(url "$1" "$2")" \
      --body "$(body "$2")" --lua "$HERE/post.lua" --header "$(auth "$1")" --header "$(version)" --gw-pids "$(cpu_pids "$1")" \
      --up-pids "$UP_PIDS" --other-pids "$OWN_PIDS" \
      --up-port "$UP_PORT" --jstat "$JAVA_HOME/bin/jstat" \
      ${CPU_LOADGEN:+--loadgen-cpus "$CPU_LOADGEN"}
    log "$(python3 "$LIB" brief "$RES")"
    interf="$(tail -n1 "$RES" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["foreign_cores"]+r["steal_cores"])')"
    if python3 -c "import sys; sys.exit(0 if $interf <= $MAX_FOREIGN else 1)"; then return 0; fi
    if [ "$a" -le "$RETRIES" ]; then log "other processes took $interf cores during that run: measuring again"
    else log "other processes took $interf cores during that run: kept, flagged"; fi
  done
}

for rep in $(seq 1 "$REPEATS"); do
  order="$TARGETS"; [ $((rep % 2)) -eq 0 ] && order="$(echo "$TARGETS" | tr ' ' '\n' | tac | tr '\n' ' ')"
  for m in $MODES; do
    for c in $CONNS; do
      for t in $order; do runs "$t" "$m" && measure "$t" "$m" "$c" "$rep"; done
    done
  done
done

if [ "$ROUNDTRIPS" -gt 0 ] && [[ "$DATABASE" == postgresql://* ]]; then
  pg_db="${DATABASE##*/}"; pg_db="${pg_db%%\?*}"
  pg_port="$(echo "$DATABASE" | sed -n 's#.*:\([0-9][0-9]*\)/.*#\1#p')"
  redis_port=""; [ -n "$REDIS" ] && redis_port="$(echo "$REDIS" | sed -n 's#.*:\([0-9][0-9]*\).*#\1#p')"
  for t in $TARGETS; do
    [ "$t" = direct ] && continue
    log "counting round trips: $t, $ROUNDTRIPS requests"
    python3 "$HERE/roundtrips.py" --pids "$GW_PIDS" --ports "$(IFS=,; echo "${GW_PORTS[*]}")" \
      --key "$(auth "$t" | sed 's/^Authorization: Bearer //')" --body "$HERE/bodies/chat.json" --requests "$ROUNDTRIPS" \
      --pg-db "$pg_db" --pg-port "${pg_port:-5432}" ${redis_port:+--redis-port "$redis_port"} \
      --label "$t ($(case "$t" in limited) echo "key with limits: $LIMITS" ;; covered) echo "key under a plan that covers the model" ;; *) echo "key without limits" ;; esac))" \
      >> "$OUT/roundtrips.md"
  done
fi

echo "gateway RSS at the end: $(awk '/VmRSS/{print $2" "$3}' "/proc/$GW_PID/status" 2>/dev/null || echo '?')" >> "$OUT/env.txt"
# The idle gateway: CPU over 10 s with no traffic (kept upstream connections must cost nothing).
idle0="$(awk '{print $14+$15}' "/proc/$GW_PID/stat")"; sleep 10; idle1="$(awk '{print $14+$15}' "/proc/$GW_PID/stat")"
echo "idle gateway: $(python3 -c "print(round(($idle1-$idle0)/$(getconf CLK_TCK)/10, 4))") cores over 10 s, upstream sockets $(ss -tanH state established "( dport = :$UP_PORT )" | wc -l)" >> "$OUT/env.txt"
{
  echo "# Switchboard load test"
  echo
  echo '```'
  cat "$OUT/env.txt"
  echo '```'
  echo
  python3 "$LIB" summarize "$RES" --max-foreign "$MAX_FOREIGN" --target-us 150
  [ -f "$OUT/roundtrips.md" ] && { echo; cat "$OUT/roundtrips.md"; }
} > "$OUT/summary.md"
cat "$OUT/summary.md"
log "results in $OUT"
