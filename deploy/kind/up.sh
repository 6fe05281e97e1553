#!/usr/bin/env bash
# Try Rayscale on a local kind cluster (needs Docker, kind, kubectl and helm; not run in CI).
#   deploy/kind/up.sh            # cluster + KubeRay + Kafka + Rayscale + the walk-through RayCluster
#   kind delete cluster --name rayscale
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cluster=rayscale
version=0.1.0

kind get clusters | grep -qx "$cluster" || kind create cluster --name "$cluster"

echo "== KubeRay operator (owns the pods; Rayscale only edits RayCluster specs)"
helm repo add kuberay https://ray-project.github.io/kuberay-helm/ >/dev/null
helm upgrade --install kuberay-operator kuberay/kuberay-operator --namespace kuberay --create-namespace --wait

echo "== Kafka (Strimzi, one KRaft node)"
kubectl create namespace kafka --dry-run=client -o yaml | kubectl apply -f -
helm repo add strimzi https://strimzi.io/charts/ >/dev/null
helm upgrade --install strimzi strimzi/strimzi-kafka-operator --namespace kafka --wait
kubectl apply -n kafka -f "$root/deploy/kind/kafka.yaml"
kubectl wait -n kafka kafka/rayscale --for=condition=Ready --timeout=600s

echo "== Rayscale images"
(cd "$root" && ./mvnw -q -B package -DskipTests)
for service in demand-collector scaling-planner k8s-actuator; do
  docker build -q -f "$root/$service/src/main/docker/Dockerfile.jvm" -t "ghcr.io/rayscale/$service:$version" "$root/$service"
  kind load docker-image --name "$cluster" "ghcr.io/rayscale/$service:$version"
done

echo "== Rayscale"
# The chart also creates the topics as Strimzi KafkaTopics (one replica: kind has one Kafka node).
# A throwaway lab: its Kafka has one plain listener (kafka.yaml), so PLAINTEXT is chosen on purpose here. A real install
# gives each service its own principal (users.strimzi.create, SASL_SSL; docs/trust-model.md).
helm upgrade --install rayscale "$root/deploy/helm/rayscale" --namespace rayscale --create-namespace \
  --set kafka.bootstrapServers=rayscale-kafka-bootstrap.kafka.svc:9092 --set kafka.securityProtocol=PLAINTEXT \
  --set kafka.allowPlaintext=true --set-json 'networkPolicy.metricsFrom=[]' \
  --set topics.strimzi.create=true --set topics.strimzi.replicas=1 --set topics.strimzi.minInsyncReplicas=1 \
  --set image.pullPolicy=Never --wait --timeout 5m

echo "== the walk-through RayCluster (opted in with rayscale.dev/autoscaling: enabled)"
kubectl apply -f "$root/deploy/samples/raycluster-walkthrough.yaml"
echo "Submit 15 one-CPU tasks to it, then watch: kubectl get raycluster raycluster-autoscaler -w"
