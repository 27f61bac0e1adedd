# Sourced by scripts/bench-http and scripts/bench-postgres-cost: a throwaway PostgreSQL for their
# replica figures and gateway replicas on it, set up the same way in both. The caller sets $pgwork
# (an empty directory), $work (with http-bench-tokens' root.pem) and, for warm_replica, $auth; it
# keeps the replicas' pids in $replicas.
pg_bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)
[ -x "$pg_bin/initdb" ] || { echo "PostgreSQL is needed: apt-get install postgresql" >&2; exit 1; }
# PostgreSQL refuses to run as root: then it runs as the postgres user.
as_postgres() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# start_postgres PORT CORE [SETTING ...]: a new cluster in $pgwork/data (fsync on, as SQLite's
# synchronous=FULL), running on CORE, each SETTING given as "-c SETTING".
start_postgres() {
  local port=$1 core=$2 settings="" setting
  shift 2
  for setting in "$@"; do settings="$settings -c $setting"; done
  [ "$(id -u)" = 0 ] && chown postgres "$pgwork"
  as_postgres "$pg_bin/initdb" -D "$pgwork/data" -U gateway --auth=trust -E UTF8 >/dev/null
  taskset -c "$core" bash -c "$(declare -f as_postgres); as_postgres '$pg_bin/pg_ctl' -D '$pgwork/data' -l '$pgwork/log' \
    -o '-c listen_addresses=127.0.0.1 -p $port -k $pgwork -c max_connections=100$settings' -w start" >/dev/null
}

stop_postgres() {
  if [ -f "$pgwork/data/postmaster.pid" ]; then as_postgres "$pg_bin/pg_ctl" -D "$pgwork/data" -m fast -w stop >/dev/null || true; fi
}

# start_replica GATEWAY PORT PGPORT LOG [VARIABLE=VALUE ...]: `gateway serve` on core 1 over that
# PostgreSQL, with the sandbox authority and trust root in $work, the variables added; waits
# until it answers.
start_replica() {
  local gateway=$1 port=$2 pgport=$3 log=$4
  shift 4
  env GATEWAY_STORE_URL="postgres://gateway@127.0.0.1:$pgport/postgres" GATEWAY_APPLE_PAY_TRUST_ROOTS="$work/root.pem" \
    GATEWAY_SANDBOX_AUTHORITY_DIRECTORY="$work/authority" GATEWAY_LOG_LEVEL=warning "$@" \
    taskset -c 1 "$gateway" serve --port "$port" >"$log" 2>&1 &
  replicas+=($!)
  for _ in $(seq 150); do
    curl -sf "http://127.0.0.1:$port/api/rest/version/100/information" >/dev/null && return 0
    sleep 0.1
  done
}

# warm_replica PORT BODIES PREFIX: a second of AUTHORIZEs from wrk on core 0 (the caller's $auth,
# order ids starting PREFIX), so the replica's pooled connections are open and its record statement
# prepared before anything is measured.
warm_replica() {
  taskset -c 0 wrk -t1 -c8 -d1s -s scripts/bench-http.lua "http://127.0.0.1:$1" -- "$2" "$auth" "$3" >/dev/null
}
