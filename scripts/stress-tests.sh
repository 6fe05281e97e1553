#!/usr/bin/env bash
# Runs the test suite of each module that talks to Kafka many times in a row, once with the broker
# inside the test JVM and once with an external broker process, and prints how many runs passed.
# Proves that a test JVM ends cleanly every time (not part of .ci/run: it takes a while).
#
#   scripts/stress-tests.sh [--runs N] [--modes embedded,external] [MODULE ...]
#
# Defaults: 10 runs, both modes, the modules test-support, demand-collector, scaling-planner,
# k8s-actuator. The logs of failed runs stay in .rayscale/stress/. Exit status 1 if any run failed.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

runs=10
modes=embedded,external
modules=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --runs) runs=$2; shift 2 ;;
    --modes) modes=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) modules+=("$1"); shift ;;
  esac
done
[[ ${#modules[@]} -gt 0 ]] || modules=(test-support demand-collector scaling-planner k8s-actuator)
logs=$root/.rayscale/stress
mkdir -p "$logs"

echo "building once (the runs below reuse what this installs)..."
./mvnw -q -B install -DskipTests

broker_started=
if [[ ,$modes, == *,external,* ]]; then
  trap 'scripts/kafka-broker.sh stop >/dev/null || true' EXIT
  external=$(scripts/kafka-broker.sh start)
  broker_started=yes
fi

failed=0
summary=()
IFS=, read -ra mode_list <<< "$modes"
for module in "${modules[@]}"; do
  for mode in "${mode_list[@]}"; do
    passed=0
    for ((run = 1; run <= runs; run++)); do
      log=$logs/$module-$mode-$run.log
      if [[ $mode == external ]]; then
        env_args=(RAYSCALE_TEST_KAFKA_BOOTSTRAP_SERVERS="$external")
        mvn_args=()
      else
        env_args=(-u RAYSCALE_TEST_KAFKA_BOOTSTRAP_SERVERS)
        mvn_args=(-Drayscale.test.kafka.mode=embedded)
      fi
      if env "${env_args[@]}" ./mvnw -B -o -pl "$module" "${mvn_args[@]}" verify > "$log" 2>&1; then
        passed=$((passed + 1))
        rm -f "$log"
      else
        failed=$((failed + 1))
        echo "  $module ($mode) run $run FAILED: $log"
      fi
    done
    line=$(printf '%-18s %-9s %2d/%d' "$module" "$mode" "$passed" "$runs")
    echo "$line"
    summary+=("$line")
  done
done

echo
echo "module             mode      passed"
printf '%s\n' "${summary[@]}"
[[ -z $broker_started ]] || scripts/kafka-broker.sh stop >/dev/null || true
[[ $failed -eq 0 ]]
