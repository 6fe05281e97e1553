#!/usr/bin/env bash
# Re-makes the golden recording that the build replays (audit/.../golden/walkthrough.events.jsonl.gz): runs the
# demo's walk-through and keeps what it recorded. Run it in the commit that changes the planner's decisions on
# purpose, and say why in the commit message; GoldenRecordingsTest then holds the new decisions.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
golden=$root/audit/src/main/resources/dev/rayscale/audit/golden
"$root/rayscale" demo --scenario walkthrough
"$root/rayscale" replay --verify --file "$root/.rayscale/demo/walkthrough.events.jsonl"
gzip -9 -n -c "$root/.rayscale/demo/walkthrough.events.jsonl" > "$golden/walkthrough.events.jsonl.gz"
echo "golden recording re-made: $golden/walkthrough.events.jsonl.gz"
