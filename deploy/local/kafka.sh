#!/usr/bin/env bash
# Single-node Apache Kafka for local development and tests: KRaft mode, one JVM acting as
# both broker and controller, run directly from Maven Central jars (no Docker, no tarball).
#
#   deploy/local/kafka.sh start [--clean]   fetch jars if needed, format storage, start, wait until ready
#   deploy/local/kafka.sh stop              SIGTERM (SIGKILL after 20 s), remove the pid file
#   deploy/local/kafka.sh kill              SIGKILL at once (a crash), data kept: `start` brings the same broker back
#   deploy/local/kafka.sh status            exit 0 if the broker started by this script is running
#   deploy/local/kafka.sh fetch             only download the jars (skipped when already cached)
#
# Environment: KAFKA_HOME_DIR, KAFKA_LIB_DIR, KAFKA_PORT, KAFKA_CONTROLLER_PORT, KAFKA_CLUSTER_ID, KAFKA_CLEAN,
# KAFKA_HEAP_OPTS, KAFKA_START_TIMEOUT, JAVA_HOME. See deploy/local/README.md.
set -euo pipefail

SCRIPT_DIR=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
REPO_ROOT=$(cd -- "$SCRIPT_DIR/../.." && pwd -P)
POM="$SCRIPT_DIR/kafka/pom.xml"
DEPENDENCY_PLUGIN=org.apache.maven.plugins:maven-dependency-plugin:3.6.1

abspath() {
  case "$1" in
    /*) printf '%s\n' "$1" ;;
    *) printf '%s\n' "$PWD/$1" ;;
  esac
}

KHOME=$(abspath "${KAFKA_HOME_DIR:-$REPO_ROOT/.kafka}")
# Brokers of their own (a test's, under another KAFKA_HOME_DIR) can share one copy of the jars.
LIB_DIR=$(abspath "${KAFKA_LIB_DIR:-$KHOME/lib}")
MARKER="$LIB_DIR/.fetched"
DATA_DIR="$KHOME/data"
CONF_DIR="$KHOME/config"
LOG_FILE="$KHOME/kafka.log"
PID_FILE="$KHOME/kafka.pid"

PORT=${KAFKA_PORT:-9092}
CONTROLLER_PORT=${KAFKA_CONTROLLER_PORT:-9093}
# Fixed cluster id (base64url UUID) so that re-formatting with -g is a no-op and data survives restarts.
CLUSTER_ID=${KAFKA_CLUSTER_ID:-5PFThf5MTHaS52IR-Cg59Q}
HEAP_OPTS=${KAFKA_HEAP_OPTS:--Xms256m -Xmx768m}
START_TIMEOUT=${KAFKA_START_TIMEOUT:-90}
STOP_TIMEOUT=20

if [ -n "${JAVA_HOME:-}" ]; then JAVA="$JAVA_HOME/bin/java"; else JAVA=java; fi

log() { printf 'kafka.sh: %s\n' "$*"; }
err() { printf 'kafka.sh: error: %s\n' "$*" >&2; }
die() {
  err "$*"
  exit 1
}

usage() {
  cat <<EOF
Usage: $(basename -- "$0") <command> [options]

Commands:
  start [--clean]  start a single-node KRaft broker on 127.0.0.1:$PORT (downloads jars on first run);
                   --clean (or KAFKA_CLEAN=1) wipes the data directory first
  stop             stop the broker started by this script
  kill             SIGKILL that broker (a crash: no clean shutdown); its data stays, 'start' recovers it
  status           exit 0 if that broker is running, 1 otherwise
  fetch            download the broker jars into $LIB_DIR

Files: $KHOME/{lib,data,config,kafka.log,kafka.pid}
EOF
}

# ---------------------------------------------------------------------------------------------
# helpers

kafka_version() {
  sed -n 's:.*<kafka\.version>[[:space:]]*\([^<[:space:]]*\)[[:space:]]*</kafka\.version>.*:\1:p' "$POM" | head -n 1
}

# What the fetch marker must contain for the cached jars to be current. It carries the Kafka
# version (and a checksum of the whole pom), so bumping any dependency triggers a refetch.
marker_content() {
  printf 'kafka_2.13=%s\npom-cksum=%s\n' "$(kafka_version)" "$(cksum <"$POM" | cut -d' ' -f1,2)"
}

jars_current() {
  [ -f "$MARKER" ] && [ "$(cat "$MARKER")" = "$(marker_content)" ]
}

is_alive() { # pid: alive and not a zombie
  kill -0 "$1" 2>/dev/null || return 1
  case "$(ps -o stat= -p "$1" 2>/dev/null)" in Z*) return 1 ;; esac
  return 0
}

# Prints the pid of the broker this script started, if it is still running; fails otherwise.
running_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid=$(tr -cd '0-9' <"$PID_FILE")
  [ -n "$pid" ] && is_alive "$pid" || return 1
  # Guard against pid reuse: the process must still be our kafka.Kafka JVM.
  ps -ww -o args= -p "$pid" 2>/dev/null | grep -q ' kafka\.Kafka ' || return 1
  printf '%s\n' "$pid"
}

port_open() { # port: something accepts TCP connections on 127.0.0.1:port
  (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

# Stops pid: SIGTERM, wait up to STOP_TIMEOUT seconds, then SIGKILL.
terminate() {
  local pid=$1 i
  kill -TERM "$pid" 2>/dev/null || return 0
  for ((i = 0; i < STOP_TIMEOUT * 4; i++)); do
    is_alive "$pid" || return 0
    sleep 0.25
  done
  log "pid $pid still running after ${STOP_TIMEOUT}s; sending SIGKILL"
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 20; i++)); do
    is_alive "$pid" || return 0
    sleep 0.25
  done
  err "pid $pid did not exit after SIGKILL"
  return 1
}

need_java() {
  command -v "$JAVA" >/dev/null 2>&1 || die "java not found (set JAVA_HOME or put java on PATH; tested with Java 17)"
}

is_true() {
  case "${1:-}" in 1 | true | TRUE | yes | YES | on | ON) return 0 ;; *) return 1 ;; esac
}

set_jvm_opts() { # heap options -> JVM_OPTS (heap options first, then the common ones)
  JVM_OPTS=()
  read -r -a JVM_OPTS <<<"$1"
  JVM_OPTS+=(
    -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35
    -XX:+ExplicitGCInvokesConcurrent -XX:+ExitOnOutOfMemoryError -Djava.awt.headless=true
    "-Dlog4j.configuration=file:$CONF_DIR/log4j.properties" "-Dkafka.logs.dir=$KHOME"
  )
}

# ---------------------------------------------------------------------------------------------
# commands

do_fetch() {
  local version
  version=$(kafka_version)
  [ -n "$version" ] || die "could not read <kafka.version> from $POM"
  if jars_current; then
    log "Kafka $version jars already cached in $LIB_DIR"
    return 0
  fi
  command -v mvn >/dev/null 2>&1 || die "mvn not found: Maven is needed to download the Kafka jars"
  if running_pid >/dev/null; then
    die "the running broker uses $LIB_DIR; run '$0 stop' before fetching new jars"
  fi

  local tmp="$LIB_DIR.partial" mvn_log="$KHOME/fetch.log" t0=$SECONDS
  mkdir -p "$KHOME"
  rm -rf "$tmp"
  log "downloading Kafka $version jars from Maven Central into $LIB_DIR (once; ~/.m2 caches them) ..."
  if ! mvn -B -q -f "$POM" "$DEPENDENCY_PLUGIN:copy-dependencies" \
    -DincludeScope=runtime -DoutputDirectory="$tmp" >"$mvn_log" 2>&1; then
    cat "$mvn_log" >&2
    rm -rf "$tmp"
    die "Maven could not download the Kafka jars (output above, also in $mvn_log)"
  fi
  if ! ls "$tmp/kafka_2.13-$version.jar" >/dev/null 2>&1; then
    rm -rf "$tmp"
    die "Maven succeeded but kafka_2.13-$version.jar is missing from the copied dependencies"
  fi
  # Replace the whole directory: jars of an older version must not stay on the classpath.
  rm -rf "$LIB_DIR"
  mv "$tmp" "$LIB_DIR"
  marker_content >"$MARKER"
  rm -f "$mvn_log"
  log "fetched $(find "$LIB_DIR" -name '*.jar' | wc -l | tr -d ' ') jars ($(du -sh "$LIB_DIR" | cut -f1)) in $((SECONDS - t0))s"
}

write_config() {
  mkdir -p "$CONF_DIR"
  cat >"$CONF_DIR/server.properties" <<EOF
# Generated by deploy/local/kafka.sh on every start; edit the script, not this file.
process.roles=broker,controller
node.id=1
controller.quorum.voters=1@127.0.0.1:$CONTROLLER_PORT
controller.listener.names=CONTROLLER
listeners=PLAINTEXT://127.0.0.1:$PORT,CONTROLLER://127.0.0.1:$CONTROLLER_PORT
advertised.listeners=PLAINTEXT://127.0.0.1:$PORT
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT
log.dirs=$DATA_DIR

# single node: replication factor 1 everywhere, few partitions for internal topics
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
transaction.state.log.num.partitions=1
auto.create.topics.enable=true
delete.topic.enable=true

# no 3 s wait before the first rebalance of a new consumer group
group.initial.rebalance.delay.ms=0

# small footprint
num.network.threads=2
num.io.threads=2
background.threads=2
num.recovery.threads.per.data.dir=1
log.cleaner.threads=1
log.cleaner.dedupe.buffer.size=2097152
EOF

  cat >"$CONF_DIR/log4j.properties" <<'EOF'
# Generated by deploy/local/kafka.sh. Warnings and errors only, plus the startup/shutdown lines.
log4j.rootLogger=WARN, stdout
log4j.appender.stdout=org.apache.log4j.ConsoleAppender
log4j.appender.stdout.layout=org.apache.log4j.PatternLayout
log4j.appender.stdout.layout.ConversionPattern=[%d] %p %m (%c)%n
log4j.logger.kafka.server.KafkaRaftServer=INFO
EOF
}

format_storage() {
  local meta="$DATA_DIR/meta.properties" existing out
  if [ -f "$meta" ]; then
    existing=$(sed -n 's/^cluster\.id=//p' "$meta" | head -n 1)
    if [ -n "$existing" ] && [ "$existing" != "$CLUSTER_ID" ]; then
      die "$DATA_DIR was formatted for cluster id $existing, not $CLUSTER_ID; use 'start --clean' to wipe it"
    fi
  fi
  set_jvm_opts "-Xmx256m"
  if ! out=$("$JAVA" "${JVM_OPTS[@]}" -cp "$LIB_DIR/*" kafka.tools.StorageTool format \
    -t "$CLUSTER_ID" -c "$CONF_DIR/server.properties" -g 2>&1); then
    printf '%s\n' "$out" >&2
    die "formatting the storage in $DATA_DIR failed"
  fi
  case "$out" in
    *"already formatted"*) log "reusing existing data in $DATA_DIR" ;;
    *) log "formatted new storage in $DATA_DIR (cluster id $CLUSTER_ID)" ;;
  esac
}

do_start() {
  local clean=0 arg pid
  is_true "${KAFKA_CLEAN:-}" && clean=1
  for arg in "$@"; do
    case "$arg" in
      --clean) clean=1 ;;
      *)
        usage >&2
        die "unknown option for start: $arg"
        ;;
    esac
  done

  if pid=$(running_pid); then
    if [ "$clean" = 1 ]; then
      die "broker already running (pid $pid); run '$0 stop' before 'start --clean'"
    fi
    log "broker already running (pid $pid) on 127.0.0.1:$PORT; nothing to do"
    return 0
  fi
  rm -f "$PID_FILE"

  need_java
  do_fetch

  local p
  for p in "$PORT" "$CONTROLLER_PORT"; do
    if port_open "$p"; then
      die "127.0.0.1:$p is already in use by another process (another Kafka?); free it or set KAFKA_PORT / KAFKA_CONTROLLER_PORT"
    fi
  done

  if [ "$clean" = 1 ] && [ -d "$DATA_DIR" ]; then
    log "wiping $DATA_DIR"
    rm -rf "$DATA_DIR"
  fi
  mkdir -p "$DATA_DIR"
  write_config
  format_storage

  set_jvm_opts "$HEAP_OPTS"
  [ -f "$LOG_FILE" ] && mv -f "$LOG_FILE" "$LOG_FILE.prev"
  local t0=$SECONDS
  nohup "$JAVA" "${JVM_OPTS[@]}" -cp "$LIB_DIR/*" kafka.Kafka "$CONF_DIR/server.properties" \
    >"$LOG_FILE" 2>&1 </dev/null &
  pid=$!
  printf '%s\n' "$pid" >"$PID_FILE"
  log "starting Kafka $(kafka_version) (pid $pid), log: $LOG_FILE"

  local deadline=$((SECONDS + START_TIMEOUT))
  until grep -q 'Kafka Server started' "$LOG_FILE" 2>/dev/null; do
    if ! is_alive "$pid"; then
      rm -f "$PID_FILE"
      err "the broker exited during startup; last lines of $LOG_FILE:"
      tail -n 40 "$LOG_FILE" >&2 || true
      exit 1
    fi
    if ((SECONDS >= deadline)); then
      err "no 'Kafka Server started' within ${START_TIMEOUT}s; last lines of $LOG_FILE:"
      tail -n 40 "$LOG_FILE" >&2 || true
      terminate "$pid" || true
      rm -f "$PID_FILE"
      exit 1
    fi
    sleep 0.25
  done

  # The log line comes after the listeners are bound, but check the port as a client would.
  local i
  for ((i = 0; i < 40; i++)); do
    port_open "$PORT" && break
    sleep 0.25
  done
  if ! port_open "$PORT"; then
    err "broker logged startup but 127.0.0.1:$PORT does not accept connections; stopping it"
    terminate "$pid" || true
    rm -f "$PID_FILE"
    exit 1
  fi
  log "Kafka $(kafka_version) is up on 127.0.0.1:$PORT (pid $pid, ready in $((SECONDS - t0))s)"
}

do_stop() {
  local pid
  if ! pid=$(running_pid); then
    if [ -f "$PID_FILE" ]; then
      rm -f "$PID_FILE"
      log "not running (removed stale pid file)"
    else
      log "not running"
    fi
    return 0
  fi
  log "stopping broker (pid $pid) ..."
  terminate "$pid" || die "could not stop pid $pid"
  rm -f "$PID_FILE"
  log "stopped"
}

do_kill() {
  local pid i
  if ! pid=$(running_pid); then
    rm -f "$PID_FILE"
    log "not running"
    return 0
  fi
  kill -KILL "$pid" 2>/dev/null || true
  for ((i = 0; i < 40; i++)); do
    is_alive "$pid" || break
    sleep 0.25
  done
  is_alive "$pid" && die "pid $pid did not exit after SIGKILL"
  rm -f "$PID_FILE"
  log "killed broker (pid $pid); data kept in $DATA_DIR"
}

do_status() {
  local pid
  if pid=$(running_pid); then
    if port_open "$PORT"; then
      log "running (pid $pid) on 127.0.0.1:$PORT; data: $DATA_DIR; log: $LOG_FILE"
    else
      log "running (pid $pid) but 127.0.0.1:$PORT is not accepting connections yet; log: $LOG_FILE"
    fi
    return 0
  fi
  log "not running"
  return 1
}

main() {
  local cmd=${1:-}
  [ $# -gt 0 ] && shift
  case "$cmd" in
    start) do_start "$@" ;;
    stop | kill | status | fetch)
      [ $# -eq 0 ] || {
        usage >&2
        die "'$cmd' takes no arguments"
      }
      "do_$cmd"
      ;;
    -h | --help | help) usage ;;
    *)
      usage >&2
      exit 2
      ;;
  esac
}

main "$@"
