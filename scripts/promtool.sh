#!/usr/bin/env bash
# Prints the path of Prometheus' promtool: the one on the PATH, else one fetched once from Debian's prometheus package
# (apt-get download: no root, nothing installed) into .rayscale/tools. The deploy module's PromtoolTest checks the
# chart's alert rules with it:
#
#   "$(scripts/promtool.sh)" test rules deploy/src/test/promtool/alerts-test.yaml
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
if command -v promtool >/dev/null; then
  command -v promtool
  exit 0
fi
dir=$root/.rayscale/tools/prometheus
if [[ ! -x $dir/usr/bin/promtool ]]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  chmod a+rwx "$work" # apt's own user downloads into it
  if ! (cd "$work" && apt-get download prometheus >&2); then
    echo "promtool: not on the PATH, and Debian's prometheus package could not be fetched (apt-get download prometheus)" >&2
    exit 1
  fi
  mkdir -p "$dir"
  dpkg-deb -x "$work"/prometheus_*.deb "$dir"
fi
echo "$dir/usr/bin/promtool"
