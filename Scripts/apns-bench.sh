#!/usr/bin/env bash
# The APNs endpoint under load (issue 28.7): h2load sends N pushes (default 10,000) over 10
# connections with 100 streams each to `unterm run --apns-listen`, whose script waits for every
# one of them; then the same load against nghttpd answering a static 200 on the same machine, the
# protocol's floor here. Prints pushes per second and p50/p99 latency beside the floor's. Then the
# interactive session under the same load: how long a key takes to reach the screen, beside the
# same session with nothing arriving (Scripts/apns-screen-load.py).
#
#   Scripts/apns-bench.sh [N]        (release build; CONFIG=debug for a quick smoke)
#
# Needs h2load and nghttpd (Debian: nghttp2-client, nghttp2-server).
set -euo pipefail
cd "$(dirname "$0")/.."
pushes=${1:-10000}
config=${CONFIG:-release}
for tool in h2load nghttpd; do
  command -v "$tool" >/dev/null || { echo "apns-bench: $tool is missing (apt-get install nghttp2-client nghttp2-server)" >&2; exit 1; }
done
swift build -c "$config" --product unterm >/dev/null
unterm=".build/$config/unterm"
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
token=$(printf 'ef%.0s' {1..32})
port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
b64() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }
jwt="$(printf '{"alg":"ES256","kid":"ABC123DEFG"}' | b64).$(printf '{"iss":"DEF567XYZA","iat":%d}' "$(date +%s)" | b64).$(printf 'x%.0s' {1..64} | b64)"
printf '{"aps":{"alert":{"title":"Load","body":"One of many"}}}' > "$work/payload.json"

# Percentiles of h2load's per-request log (the third column is the time to the response, in µs).
figures() {
  python3 - "$1" "$2" <<'PY'
import sys
rows = [line.split() for line in open(sys.argv[1]) if line.strip()]
times = sorted(int(r[2]) for r in rows)
statuses = [r[1] for r in rows]
ok = sum(1 for s in statuses if s == "200")
seconds = (max(int(r[0]) + int(r[2]) for r in rows) - min(int(r[0]) for r in rows)) / 1e6
p = lambda q: times[min(len(times) - 1, int(q * len(times)))] / 1000
print(f"{sys.argv[2]:<22} {len(rows) / seconds:>10.0f} pushes/s   p50 {p(0.5):>7.2f} ms   p99 {p(0.99):>7.2f} ms   {ok}/{len(rows)} answered 200")
PY
}

unterm_port=$(port)
printf 'bundle com.example.chat\nwait push %d within 300s\n' "$pushes" > "$work/load.session"
"$unterm" run --apns-listen "$unterm_port" --apns-plaintext --device-token "com.example.chat=$token" \
  "$work/load.session" > "$work/run.out" 2> "$work/run.err" &
run=$!
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$unterm_port") 2>/dev/null && break; sleep 0.1; done
h2load -n "$pushes" -c 10 -m 100 -d "$work/payload.json" -H "apns-topic: com.example.chat" \
  -H "authorization: bearer $jwt" --log-file "$work/unterm.log" \
  "http://127.0.0.1:$unterm_port/3/device/$token" > "$work/h2load-unterm.out"
if ! wait "$run"; then
  echo "apns-bench: the script did not see every push delivered:" >&2
  cat "$work/run.out" "$work/run.err" >&2
  exit 1
fi

floor_port=$(port)
mkdir -p "$work/docroot/3/device"
: > "$work/docroot/3/device/$token"
nghttpd --no-tls -d "$work/docroot" "$floor_port" > /dev/null 2>&1 &
for _ in $(seq 100); do (exec 3<>/dev/tcp/127.0.0.1/"$floor_port") 2>/dev/null && break; sleep 0.1; done
h2load -n "$pushes" -c 10 -m 100 -d "$work/payload.json" --log-file "$work/floor.log" \
  "http://127.0.0.1:$floor_port/3/device/$token" > "$work/h2load-floor.out"

echo "$pushes pushes, 10 connections × 100 streams ($config build)"
figures "$work/unterm.log" "unterm (every one shown)"
figures "$work/floor.log" "nghttpd static 200"
echo "every push delivered exactly once: the script's 'wait push $pushes' passed ($(grep -c . "$work/run.out") report line)"

# The interactive screen during the same load: a key's time to the screen, beside the same
# session with nothing arriving. Goal: p99 under load within 100 ms, a key a person sees at once.
echo
python3 Scripts/apns-screen-load.py "$unterm" "$(port)" "$token" "$work/payload.json" "$jwt" "$pushes"
echo "goal: a key drawn under load within 100 ms at p99"
