#!/usr/bin/env bash
# Times a newcomer's first start: a fresh clone of this checkout's HEAD, `npm install`, `npm start`,
# until /ping answers. Prints the seconds of each step. The clone's API port is moved off 4195
# (so a nekton already running here is no obstacle); nothing else differs from the README's steps.
# Usage: scripts/measure-first-start.sh [PORT [REF]]   (default 4295, HEAD)
set -euo pipefail
port=${1:-4295}
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/nekton-first-start.XXXXXX)
server=
trap 'if [ -n "$server" ]; then kill -- -"$server" 2>/dev/null || true; fi; rm -rf "$work"' EXIT
now() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

t0=$(now)
git clone -q "$repo" "$work/nekton"
cd "$work/nekton"
git checkout -q "${2:-HEAD}"
sed -i "s/127.0.0.1:4195/127.0.0.1:$port/" examples/observability.yaml
echo "clone: $(since "$t0") s"
t1=$(now)
npm install --no-audit --no-fund > "$work/install.log" 2>&1
echo "npm install: $(since "$t1") s ($(grep -c 'EBADENGINE Unsupported engine\|not yet covered by allowScripts' "$work/install.log" || true) engine/script warnings)"
t2=$(now)
set -m
npm start > "$work/start.log" 2>&1 &
server=$!
set +m
for _ in $(seq 1 2400); do
  curl -sf "127.0.0.1:$port/ping" > /dev/null && break
  sleep 0.05
done
curl -sf "127.0.0.1:$port/ping" > /dev/null || { echo "no /ping after 120 s:"; cat "$work/start.log"; exit 1; }
if grep -q 'up to date, not building' "$work/start.log"; then echo "npm start did not build again"; else echo "npm start built again"; fi
echo "npm start to /ping: $(since "$t2") s"
echo "clone to /ping: $(since "$t0") s"
