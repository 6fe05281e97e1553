#!/usr/bin/env bash
# A real single-node Apache Kafka broker (KRaft, no ZooKeeper) as a separate local process, from
# Maven Central jars: for CI, the demo and benchmarks on machines without Docker.
#
#   scripts/kafka-broker.sh start    # a fresh broker; prints the bootstrap address once it is ready
#   scripts/kafka-broker.sh stop
#   scripts/kafka-broker.sh status
#   scripts/kafka-broker.sh kill     # SIGKILL, as a crash: the data stays
#   scripts/kafka-broker.sh resume   # starts again on the data a kill left
#
# Environment: RAYSCALE_KAFKA_PORT (default 19092; the controller uses the next port),
# RAYSCALE_KAFKA_DIR (state, logs and pid; default .rayscale/kafka in the repository),
# RAYSCALE_KAFKA_EXTRA_PROPERTIES (a file appended to the broker's server.properties: more listeners, TLS),
# RAYSCALE_KAFKA_SCRAM (SCRAM credentials created when the storage is formatted, as kafka-storage's
# --add-scram takes them, e.g. 'SCRAM-SHA-512=[name=alice,password=...]').
set -euo pipefail
shopt -s inherit_errexit

root=$(cd "$(dirname "$0")/.." && pwd)
port=${RAYSCALE_KAFKA_PORT:-19092}
controller_port=$((port + 1))
dir=${RAYSCALE_KAFKA_DIR:-$root/.rayscale/kafka}
pid_file=$dir/broker.pid

running() {
  [[ -f $pid_file ]] && kill -0 "$(cat "$pid_file")" 2>/dev/null
}

port_open() {
  (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null
}

classpath() {
  local cp_file=$dir/classpath.txt
  if [[ ! -s $cp_file || $root/tools/kafka-broker/pom.xml -nt $cp_file ]]; then
    "$root/mvnw" -q -B -f "$root/tools/kafka-broker/pom.xml" dependency:build-classpath \
      -Dmdep.outputFile="$cp_file" >&2
  fi
  cat "$cp_file"
}

java_opts=()

start() {
  if running; then
    echo "127.0.0.1:$port"
    return
  fi
  if port_open; then
    echo "kafka-broker: port $port is already in use by another process; set RAYSCALE_KAFKA_PORT" >&2
    exit 1
  fi
  mkdir -p "$dir"
  local cp
  cp=$(classpath)
  java_opts=(-Xmx512m -cp "$cp" -Dlog4j2.configurationFile="$root/tools/kafka-broker/log4j2.properties" -Dkafka.logs.dir="$dir")
  rm -rf "$dir/data" "$dir/console.log"
  cat > "$dir/server.properties" <<PROPS
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller_port
listeners=PLAINTEXT://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=PLAINTEXT://127.0.0.1:$port
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT
log.dirs=$dir/data
num.partitions=3
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
PROPS
  if [[ -n ${RAYSCALE_KAFKA_EXTRA_PROPERTIES:-} ]]; then
    cat "$RAYSCALE_KAFKA_EXTRA_PROPERTIES" >> "$dir/server.properties"
  fi
  local scram=()
  if [[ -n ${RAYSCALE_KAFKA_SCRAM:-} ]]; then
    scram=(--add-scram "$RAYSCALE_KAFKA_SCRAM")
  fi
  local cluster_id
  cluster_id=$(java "${java_opts[@]}" kafka.tools.StorageTool random-uuid)
  java "${java_opts[@]}" kafka.tools.StorageTool format --standalone -t "$cluster_id" -c "$dir/server.properties" "${scram[@]}" > "$dir/format.log"
  launch
}

# Ready once the broker logs that it started: it binds its port before it serves requests, and a client
# that connects in between waits out its connection timeout.
started_lines() {
  grep -c "Kafka Server started" "$dir/broker.log" 2>/dev/null || true
}

launch() {
  local before
  before=$(started_lines)
  nohup java "${java_opts[@]}" kafka.Kafka "$dir/server.properties" >> "$dir/console.log" 2>&1 &
  echo $! > "$pid_file"
  for _ in $(seq 1 120); do
    if [[ $(started_lines) -gt $before ]] && port_open; then
      echo "127.0.0.1:$port"
      return
    fi
    if ! running; then
      echo "kafka-broker: the broker exited during start-up; see $dir/console.log and $dir/broker.log" >&2
      tail -20 "$dir/console.log" >&2 || true
      exit 1
    fi
    sleep 0.5
  done
  echo "kafka-broker: not ready after 60 s; see $dir/broker.log" >&2
  exit 1
}

stop() {
  if running; then
    local pid
    pid=$(cat "$pid_file")
    kill "$pid"
    for _ in $(seq 1 60); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
  rm -f "$pid_file"
}

crash() {
  if running; then
    kill -9 "$(cat "$pid_file")"
    while running; do sleep 0.1; done
  fi
  rm -f "$pid_file"
}

resume() {
  if running; then
    echo "127.0.0.1:$port"
    return
  fi
  [[ -f $dir/server.properties && -d $dir/data ]] || { echo "kafka-broker: nothing to resume in $dir" >&2; exit 1; }
  java_opts=(-Xmx512m -cp "$(classpath)" -Dlog4j2.configurationFile="$root/tools/kafka-broker/log4j2.properties" -Dkafka.logs.dir="$dir")
  launch
}

case ${1:-} in
  start) start ;;
  stop) stop ;;
  kill) crash ;;
  resume) resume ;;
  status) if running; then echo "running at 127.0.0.1:$port (pid $(cat "$pid_file"))"; else echo "stopped"; exit 3; fi ;;
  *) echo "usage: $0 start|stop|status|kill|resume" >&2; exit 2 ;;
esac
