# bench/lib.sh — what bench/run and bench/hotpath/run share: cleanup of what they started, wrk and
# its statistics, nginx (the upstream, A, the plain proxy), the bench cell and its person, the JFR
# profile of the gate. Sourced; the caller sets BASE's ports (P_UP, P_AUTH, P_A, P_PROXY and the
# QALDY_PORT_*), TARGET, QALDY_VAR, QALDY, RUNS and WRK_ARGS first.
say() { printf '[bench] %s\n' "$*" >&2; }
die() { say "FAILED: $*"; exit 1; }

# ---- cleanup: everything started here, by pid ------------------------------------------------
NGINX_PID= CELL_STARTED=0
cleanup() {
  set +e
  local c pid
  for c in control gate gate2 runtime status db; do   # a SIGSTOPped process cannot end: CONT first
    [[ -f $QALDY_VAR/run/$c.pid ]] && { pid=$(cat "$QALDY_VAR/run/$c.pid"); kill -CONT "$pid" 2>/dev/null; }
  done
  if [[ $CELL_STARTED == 1 ]]; then "$QALDY" down >&2 2>&1 | sed 's/^/[bench] /' >&2; fi
  if [[ -n $NGINX_PID ]] && kill -0 "$NGINX_PID" 2>/dev/null; then
    kill -TERM "$NGINX_PID"; for _ in $(seq 1 50); do kill -0 "$NGINX_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$NGINX_PID" 2>/dev/null
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- tools -----------------------------------------------------------------------------------
ensure_tools() {
  local missing=()
  command -v wrk >/dev/null || missing+=(wrk)
  command -v nginx >/dev/null || missing+=(nginx)
  (( ${#missing[@]} == 0 )) && return 0
  say "installing ${missing[*]} (apt-get)"
  local sudo=; [[ $(id -u) == 0 ]] || sudo=sudo
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >/dev/null 2>&1 \
    || { $sudo apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q "${missing[@]}" >/dev/null; } \
    || die "could not install ${missing[*]}"
}

# ---- statistics ------------------------------------------------------------------------------
# med_min_max v1 v2 … → "median [min–max]"
stat3() { printf '%s\n' "$@" | sort -g | awk '{v[NR]=$1} END {m = (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2; printf "%.6g %.6g %.6g", m, v[1], v[NR]}'; }
median() { stat3 "$@" | awk '{print $1}'; }
fmt() { awk -v m="$1" -v lo="$2" -v hi="$3" -v d="${4:-0}" 'BEGIN {f="%." d "f"; printf(f " [" f "–" f "]", m, lo, hi)}'; }

# One wrk run → "rps p50ms p99ms non2xx errors"
wrk_once() { # URL [wrk header args…]
  local url=$1; shift
  wrk "${WRK_ARGS[@]}" "$@" "$url" 2>&1 | awk '
    function ms(v) { if (v ~ /us$/) return v / 1000; if (v ~ /ms$/) return v + 0; if (v ~ /s$/) return v * 1000; return v }
    /Requests\/sec:/ { rps = $2 }
    $1 == "50.000%" || $1 == "50%" { p50 = ms($2) }
    $1 == "99.000%" || $1 == "99%" { p99 = ms($2) }
    /Non-2xx or 3xx responses:/ { non2xx = $5 }
    /Socket errors:/ { err = $4 + $6 + $8 + $10; gsub(",", "", err) }
    END { printf "%s %s %s %d %d\n", rps, p50, p99, non2xx, err }'
}

declare -A R_RPS R_P50 R_P99 R_BAD W_USED
# Warm-up under the series' own load until the JVMs stop compiling and the rate stops rising: rounds
# of WARMUP_ROUND (15 s) of wrk -t2 -c32, ended by the first round (at least the second) in which the
# JIT compiler threads of every JVM in WARM_PIDS (space-separated; none: the rate alone) used at most
# 5 % of a core and the rate was no more than 5 % above the best round before it; or by WARMUP_MAX
# (300 s). A Payara gate's C2 compiler took a quarter of its CPU for the first 80 s of load and its
# rate rose for about 100 s (2026-12-03); in front of the runtime host, sharing the cores with it,
# the gate still spent a third of its CPU compiling after 60 s while its rate rose by under 5 % a
# round, so the rate alone ended that warm-up too early. Sets W_USED[NAME] to "SECONDS s: rate, …".
compiler_ticks() { # PID → CPU ticks used so far by its JIT compiler threads
  local t sum=0
  for t in /proc/"$1"/task/*; do
    case $(cat "$t/comm" 2>/dev/null) in C1\ *|C2\ *) sum=$((sum + $(awk '{print $14 + $15}' "$t/stat" 2>/dev/null || echo 0))) ;; esac
  done
  echo "$sum"
}
warm_until_steady() { # NAME URL [wrk args…]
  local name=$1 url=$2; shift 2
  local round=${WARMUP_ROUND:-15} max=${WARMUP_MAX:-300} used=0 best=0 rate rates=() pid quiet
  local -A before
  local hz; hz=$(getconf CLK_TCK)
  while (( used + round <= max )); do
    for pid in ${WARM_PIDS:-}; do before[$pid]=$(compiler_ticks "$pid"); done
    rate=$(wrk -t2 -c32 "-d${round}s" "$@" "$url" 2>/dev/null | awk '/Requests\/sec:/ {printf "%d", $2}')
    rate=${rate:-0}; used=$((used + round)); rates+=("$rate")
    quiet=1
    for pid in ${WARM_PIDS:-}; do
      (( $(compiler_ticks "$pid") - ${before[$pid]} > hz * round / 20 )) && quiet=0
    done
    if (( ${#rates[@]} >= 2 && quiet == 1 )) && awk -v r="$rate" -v b="$best" 'BEGIN { exit !(r <= 1.05 * b) }'; then
      break
    fi
    (( rate > best )) && best=$rate
  done
  W_USED[$name]="$used s: $(IFS=,; echo "${rates[*]}" | sed 's/,/, /g') req/s"
  say "$name: warmed for ${W_USED[$name]}"
}

# BENCH_SERIES: when set, only the series it names (space-separated) are measured and reported.
wanted() { [[ -z ${BENCH_SERIES:-} || " $BENCH_SERIES " == *" $1 "* ]]; }
measured() { [[ -n ${R_RPS[$1]:-} ]]; }

series() { # NAME URL [wrk args…]: a warm-up (SERIES_WARMUP: a wrk duration, default 2s, or "steady"), then RUNS runs
  local name=$1 url=$2; shift 2
  wanted "$name" || return 0
  local rps=() p50=() p99=() bad=0 line
  if [[ ${SERIES_WARMUP:-2s} == steady ]]; then
    warm_until_steady "$name" "$url" "$@"
  else
    wrk -t2 -c32 "-d${SERIES_WARMUP:-2s}" "$@" "$url" >/dev/null 2>&1 || true
    W_USED[$name]=${SERIES_WARMUP:-2s}
  fi
  for _ in $(seq 1 "$RUNS"); do
    line=$(wrk_once "$url" "$@")
    read -r a b c d e <<<"$line"
    rps+=("$a"); p50+=("$b"); p99+=("$c"); bad=$((bad + d + e))
  done
  R_RPS[$name]=$(stat3 "${rps[@]}"); R_P50[$name]=$(stat3 "${p50[@]}"); R_P99[$name]=$(stat3 "${p99[@]}"); R_BAD[$name]=$bad
  say "$name: rps ${R_RPS[$name]} | p50 ms ${R_P50[$name]} | p99 ms ${R_P99[$name]} | non-2xx+errors $bad"
}

row() { # NAME LABEL; nothing for a series not measured
  local n=$1
  measured "$n" || return 0
  # shellcheck disable=SC2086
  printf '| %s | %s | %s | %s | %s |\n' "$2" "$(fmt ${R_RPS[$n]} 0)" "$(fmt ${R_P50[$n]} 2)" "$(fmt ${R_P99[$n]} 2)" "${R_BAD[$n]}"
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
first() { awk '{print $1}' <<<"$1"; }

# ---- nginx: upstream, the auth endpoint, A (auth_request + proxy_cache), plain proxy ---------
start_nginx() {
  local dir=$TARGET/nginx
  rm -rf "$dir"; mkdir -p "$dir/html" "$dir/logs" "$dir/cache" "$dir/tmp"
  # one 1.4 KB static page
  local page='<!doctype html><html><head><title>bench</title></head><body>' i
  for i in $(seq 1 30); do page+=$(printf '\n<p>Line %02d of the benchmark page, about fifty bytes.</p>' "$i"); done
  printf '%s\n</body></html>\n' "${page:0:1380}" > "$dir/html/index.html"
  cat > "$dir/nginx.conf" <<EOF
worker_processes 2;
user root;
daemon off;
pid $dir/nginx.pid;
error_log $dir/logs/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body; proxy_temp_path $dir/tmp/proxy;
  fastcgi_temp_path $dir/tmp/fcgi; uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;
  default_type text/html;
  proxy_cache_path $dir/cache keys_zone=access:10m max_size=100m inactive=1h;
  upstream app { server 127.0.0.1:$P_UP; keepalive 64; }
  upstream access { server 127.0.0.1:$P_AUTH; keepalive 16; }

  # The upstream: one static 1.4 KB file for any path.
  server { listen 127.0.0.1:$P_UP; root $dir/html; location / { try_files /index.html =404; } }

  # The access endpoint: 200 for the bench token, 401 otherwise (stands for the control plane's answer).
  server { listen 127.0.0.1:$P_AUTH;
    location / { if (\$http_authorization != "Bearer BENCHTOKEN") { return 401; } return 200 "allow"; } }

  # A: auth_request to the access endpoint, its answer cached (proxy_cache), then the upstream.
  server { listen 127.0.0.1:$P_A;
    location = /_access { internal;
      proxy_pass http://access/check; proxy_http_version 1.1; proxy_set_header Connection "";
      proxy_pass_request_body off; proxy_set_header Content-Length "";
      proxy_cache access; proxy_cache_key "\$host\$http_authorization"; proxy_cache_valid 200 401 1h;
      proxy_ignore_headers Cache-Control Expires Set-Cookie; }
    location / { auth_request /_access;
      proxy_pass http://app; proxy_http_version 1.1; proxy_set_header Connection ""; } }

  # C-proxy: plain reverse proxy.
  server { listen 127.0.0.1:$P_PROXY;
    location / { proxy_pass http://app; proxy_http_version 1.1; proxy_set_header Connection ""; } }
}
EOF
  # the bench token is replaced below with the real session token, so A and B send the same header
  sed -i "s/BENCHTOKEN/$TOKEN_FOR_NGINX/" "$dir/nginx.conf"
  nginx -t -c "$dir/nginx.conf" -p "$dir" >/dev/null 2>&1 || { nginx -t -c "$dir/nginx.conf" -p "$dir"; die "nginx config"; }
  setsid nginx -c "$dir/nginx.conf" -p "$dir" >"$dir/logs/stdout" 2>&1 </dev/null &
  NGINX_PID=$!
  for _ in $(seq 1 50); do curl -sf -o /dev/null "http://127.0.0.1:$P_UP/" && break; sleep 0.1; done
  curl -sf -o /dev/null "http://127.0.0.1:$P_UP/" || die "nginx did not start; see $dir/logs"
}

# ---- the cell ----------------------------------------------------------------------------------
GATE_OPTS_COMMON="-Dqaldy.runtime.url=http://127.0.0.1:$P_UP \
 -Dqaldy.gate.shield.plan.free.per-client-per-minute=100000000 -Dqaldy.gate.shield.plan.free.burst=100000000 \
 -Dqaldy.gate.shield.plan.free.per-app-per-minute=100000000 -Dqaldy.gate.shield.plan.free.per-app-burst=100000000 \
 -Dqaldy.gate.shield.plan.free.per-app-per-day=1000000000"

api() { # METHOD PATH [curl args…]
  local m=$1 p=$2; shift 2
  curl -sS -f -m 30 -X "$m" -H "Host: localhost:$QALDY_PORT_GATE" "http://127.0.0.1:$QALDY_PORT_GATE/api/v1$p" "$@"
}
json_field() { sed -n "s/.*\"$1\"[[:space:]]*:[[:space:]]*\"\{0,1\}\([^\",}]*\)\"\{0,1\}.*/\1/p" | head -n 1; }

pid_of() { cat "$QALDY_VAR/run/$1.pid"; }

fresh_cell() { # the cell must not be running from an earlier, interrupted bench run
  local c
  for c in db control runtime gate gate2 status; do
    [[ -f $QALDY_VAR/run/$c.pid ]] && kill -0 "$(cat "$QALDY_VAR/run/$c.pid")" 2>/dev/null && die "a bench cell is still running ($c); bin/qaldy down with QALDY_VAR=$QALDY_VAR"
  done
  rm -rf "$QALDY_VAR/run" "$QALDY_VAR/db" "$QALDY_VAR/gate-cap" "$QALDY_VAR/gate2-cap" "$QALDY_VAR/log" "$QALDY_VAR/liberty/servers"
}

start_cell() {
  local t0 t1
  start_cell_libs
  say "starting the cell (bin/qaldy up, ports $QALDY_PORT_GATE-$QALDY_PORT_DB, QALDY_VAR=$QALDY_VAR)"
  CELL_STARTED=1
  t0=$(date +%s.%N)
  QALDY_OPTS_GATE="$GATE_OPTS_COMMON -Dqaldy.gate.access-freshness=PT1H" "$QALDY" up >"$TARGET/cell-up.log" 2>&1 \
    || { tail -n 30 "$TARGET/cell-up.log" >&2; die "bin/qaldy up"; }
  t1=$(date +%s.%N)
  CELL_START_S=$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.1f", b - a}')
  CELL_RSS=""
  local c
  for c in db control runtime gate status; do
    [[ -f $QALDY_VAR/run/$c.pid ]] || continue
    CELL_RSS+="$c $(ps -o rss= -p "$(pid_of "$c")" | awk '{printf "%.0f", $1/1024}') MiB; "
  done
  grep -E 'ready on port' "$TARGET/cell-up.log" | sed 's/^/[bench]   /' >&2 || true
  say "cell up in ${CELL_START_S}s; RSS: $CELL_RSS"
}

start_cell_libs() {
  mkdir -p "$QALDY_VAR/lib"
  # Payara Micro and H2 straight from ~/.m2 when there (bin/qaldy would copy them through Maven).
  local payara h2
  payara=$(sed -n 's:.*<payara.version>\(.*\)</payara.version>.*:\1:p' "$ROOT/pom.xml" | head -1)
  h2=$(sed -n 's:.*<h2.version>\(.*\)</h2.version>.*:\1:p' "$ROOT/pom.xml" | head -1)
  [[ -f $QALDY_VAR/lib/payara-micro.jar ]] || cp "$HOME/.m2/repository/fish/payara/extras/payara-micro/$payara/payara-micro-$payara.jar" "$QALDY_VAR/lib/payara-micro.jar" 2>/dev/null || true
  [[ -f $QALDY_VAR/lib/h2.jar ]] || cp "$HOME/.m2/repository/com/h2database/h2/$h2/h2-$h2.jar" "$QALDY_VAR/lib/h2.jar" 2>/dev/null || true
}

restart_gate() { # extra opts
  "$QALDY" stop gate >/dev/null
  QALDY_OPTS_GATE="$GATE_OPTS_COMMON $1" "$QALDY" start gate >/dev/null || die "gate restart"
}

person_and_app() {
  local email="bench-$(date +%s)@example.com" password="correct horse bench battery"
  api POST /people -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}" >/dev/null || die "sign-up"
  TOKEN=$(api POST /sessions -H 'Content-Type: application/json' -d "{\"email\":\"$email\",\"password\":\"$password\"}" | json_field token)
  [[ -n $TOKEN ]] || die "sign-in"
  APP=benchapp
  api POST /apps -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{\"name\":\"$APP\"}" >/dev/null || die "create app"
  # A huge spending cap, so a million benchmark requests never put the app to sleep.
  api PUT /billing/cap -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d '{"capCents":100000000}' >/dev/null \
    || say "note: could not raise the spending cap"
  # Publish the guestbook, as a person would (the gate proxies to nginx, not to its runtime host).
  local zip=$TARGET/guestbook.zip version status=
  # Its qaldy.json must name the app it is uploaded to (the API refuses another name).
  rm -rf "$TARGET/guestbook-src"; cp -r "$ROOT/examples/guestbook" "$TARGET/guestbook-src"
  sed -i "s/\"name\":\"guestbook\"/\"name\":\"$APP\"/" "$TARGET/guestbook-src/qaldy.json"
  rm -f "$zip"; (cd "$TARGET/guestbook-src" && jar cfM "$zip" .)
  version=$(api POST "/apps/$APP/builds" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/zip' --data-binary "@$zip" | json_field version) || true
  if [[ -n $version ]]; then
    for _ in $(seq 1 60); do
      status=$(api GET "/apps/$APP/builds/$version" -H "Authorization: Bearer $TOKEN" | json_field status) || true
      [[ $status == succeeded || $status == failed ]] && break; sleep 1
    done
    [[ $status == succeeded ]] && api PUT "/apps/$APP/live" -H "Authorization: Bearer $TOKEN" -H 'Content-Type: application/json' -d "{\"version\":$version}" >/dev/null
  fi
  say "app $APP (build: ${status:-not uploaded}); token ${#TOKEN} chars"
}

gate_url() { echo "http://127.0.0.1:$QALDY_PORT_GATE/"; }
GATE_HDRS=()
check_gate() {
  local code
  code=$(curl -s -o /dev/null -w '%{http_code}' -H "Host: $APP.localhost:$QALDY_PORT_GATE" -H "Authorization: Bearer $TOKEN" -H 'User-Agent: wrk' "$(gate_url)")
  [[ $code == 200 ]] || { curl -s -D- -H "Host: $APP.localhost:$QALDY_PORT_GATE" -H "Authorization: Bearer $TOKEN" -H 'User-Agent: wrk' "$(gate_url)" | head -20 >&2; die "gate answered $code, not 200"; }
}

# Sequential requests after SIGSTOP of the control plane: latency of each, and when the gate
# last waited (> 100 ms) — the time until it answers from the copy without waiting.
first_answer_after_stop() {
  local out=$TARGET/sigstop-trace.txt t0 i start lat code
  : > "$out"
  kill -STOP "$(pid_of control)"
  t0=$(date +%s%N)
  for i in $(seq 1 400); do
    start=$(date +%s%N)
    read -r code lat < <(curl -s -o /dev/null -m 10 -w '%{http_code} %{time_total}\n' "${GATE_HDRS[@]}" "$(gate_url)")
    printf '%s %s %s\n' "$(( (start - t0) / 1000000 ))" "$(awk -v l="$lat" 'BEGIN{printf "%.1f", l*1000}')" "$code" >> "$out"
    (( ($(date +%s%N) - t0) / 1000000 > 12000 )) && break
  done
  # columns: ms since STOP, latency ms, status
  T3_FIRST=$(head -1 "$out" | awk '{print $2}')
  T3_MAX=$(awk 'BEGIN{m=0} $2>m{m=$2} END{print m}' "$out")
  T3_SLOW=$(awk '$2 > 100' "$out" | wc -l)
  T3_LAST=$(awk '$2 > 100 {e = $1 + $2} END {printf "%.0f", e + 0}' "$out")
  T3_N=$(wc -l < "$out"); T3_NON200=$(awk '$3 != 200' "$out" | wc -l)
  say "after SIGSTOP: first request ${T3_FIRST} ms, slowest ${T3_MAX} ms, ${T3_SLOW} of ${T3_N} > 100 ms, last slow one ended ${T3_LAST} ms after STOP, non-200: $T3_NON200"
}

# JFR of the gate under wrk (settings=profile: a Java sample about every 10 ms per thread). Writes
# bench/target/profile-LABEL.{jfr,txt}: the top frames (self: where the sample was taken) and the
# inclusive counts of the gate's own methods and the libraries on its path.
# async-profiler (Maven Central's tools.profiler:async-profiler), loaded into a running JVM through the
# attach API (bench/hotpath/AgentLoad.java): JFR's profile settings cut the gate to a tenth of its rate
# (787 req/s against 8,800, 2026-12-03), so its shares were those of another program.
AP_VERSION=3.0
profiler_library() { # → the path of libasyncProfiler.so, fetched through Maven once
  local jar=$HOME/.m2/repository/tools/profiler/async-profiler/$AP_VERSION/async-profiler-$AP_VERSION-linux-x64.jar
  [[ -f $jar ]] || mvn -B -ntp -q dependency:get "-Dartifact=tools.profiler:async-profiler:$AP_VERSION:jar:linux-x64" >&2 \
    || die "could not fetch async-profiler $AP_VERSION from Maven Central"
  mkdir -p "$TARGET/async-profiler"
  (cd "$TARGET/async-profiler" && unzip -o -q "$jar" 'linux-x64/libasyncProfiler.so')
  echo "$TARGET/async-profiler/linux-x64/libasyncProfiler.so"
}

# Profiles the gate under wrk -t2 -c32 for PROFILE_SECONDS (15) with PROFILE_EVENT (itimer: CPU, every
# 1 ms; wall: where threads wait too; alloc: who allocates, a sample every 64 KiB). Writes
# $TARGET/profile-LABEL.collapsed (one line per stack, root first, for flame graphs) and .txt: the rate
# and the gate's cores while profiled, the top frames (self) and the inclusive share of the gate's own
# steps and the libraries on its path.
profile_gate() { # LABEL
  local pid out=$TARGET/profile-$1 secs=${PROFILE_SECONDS:-15} event=${PROFILE_EVENT:-itimer} lib start dump cpu0 cpu1
  pid=$(pid_of gate)
  lib=$(profiler_library)
  case $event in
    alloc) start="start,event=alloc,alloc=64k" dump="collapsed,total" ;;
    *) start="start,event=$event,interval=1ms" dump="collapsed" ;;
  esac
  rm -f "$out.collapsed"
  java "$BENCH/hotpath/AgentLoad.java" "$pid" "$lib" "$start" || die "could not load async-profiler into the gate"
  cpu0=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  wrk -t2 -c32 "-d${secs}s" --latency "${GATE_HDRS[@]}" "$(gate_url)" > "$out.wrk.txt" 2>&1 || true
  cpu1=$(awk '{print $14 + $15}' "/proc/$pid/stat")
  java "$BENCH/hotpath/AgentLoad.java" "$pid" "$lib" "stop,file=$out.collapsed,$dump" || die "could not stop async-profiler"
  [[ -s $out.collapsed ]] || die "async-profiler wrote no samples"
  awk -v ev="$event" -v label="$1" -v rps="$(awk '/Requests\/sec/ {print $2}' "$out.wrk.txt")" \
      -v cores="$(awk -v a="$cpu0" -v b="$cpu1" -v s="$secs" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.2f", (b - a) / hz / s}')" '
    { n = $NF; line = $0; sub(/ [0-9]+$/, "", line); k = split(line, f, ";"); total += n
      self[f[k]] += n; delete seen
      for (i = 1; i <= k; i++) if (!(f[i] in seen)) { seen[f[i]] = 1; incl[f[i]] += n } }
    END {
      printf "# async-profiler (%s) of the gate (%s) under wrk -t2 -c32: %d samples, %s req/s and %s cores while profiled\n\n", ev, label, total, rps, cores
      print "## top frames (self, % of samples)"
      for (x in self) printf "%6.1f%%  %s\n", 100 * self[x] / total, x | "sort -rn | head -25"
      close("sort -rn | head -25")
      print "\n## inclusive: the gate (dev/qaldy) and the libraries on its path, % of samples"
      for (x in incl) if (x ~ /^(dev\/qaldy|com\/nimbusds|com\/github\/benmanes|io\/github\/bucket4j|org\/apache\/hc|org\/glassfish\/grizzly|org\/apache\/catalina|org\/jboss\/weld|com\/sun\/enterprise|fish\/payara|java\/util\/logging|sun\/nio|java\/net)/)
        printf "%6.1f%%  %s\n", 100 * incl[x] / total, x | "sort -rn | head -60"
      close("sort -rn | head -60")
      for (x in incl) if (x ~ /CompileBroker::compiler_thread_loop/) jit += incl[x]
      printf "\n%.1f%% of the samples were the JIT compiler at work (the gate still warming up when high)\n", 100 * jit / total
    }' "$out.collapsed" > "$out.txt"
  say "profile $1: $(head -1 "$out.txt")"
}

# System calls per request of one process while wrk runs (strace -f -c attached to every thread):
# strace slows the process, but the calls each request makes stay the same. Writes
# $TARGET/syscalls-LABEL.txt: "N syscalls/request (R requests)" and strace's table, busiest first.
syscalls_per_request() { # LABEL PID URL [wrk args…]
  local label=$1 pid=$2 url=$3 out=$TARGET/syscalls-$1 tracer requests total
  shift 3
  command -v strace >/dev/null || { say "no strace: system calls of $label not counted"; return 0; }
  strace -f -c -qq -o "$out.strace" -p "$pid" & tracer=$!
  sleep 2   # attached to every thread
  wrk -t2 -c32 -d5s "$@" "$url" > "$out.wrk.txt" 2>&1 || true
  kill -INT "$tracer"; wait "$tracer" 2>/dev/null || true
  requests=$(awk '/requests in/ {print $1}' "$out.wrk.txt")
  total=$(awk '$NF == "total" {print $(NF-2)}' "$out.strace")
  { awk -v t="${total:-0}" -v r="${requests:-0}" 'BEGIN { printf "%s: %.1f syscalls/request (%d requests in 5 s under strace)\n", "'"$label"'", (r > 0 ? t / r : 0), r }'
    cat "$out.strace"; } > "$out.txt"
  say "$(head -1 "$out.txt")"
}

