#!/usr/bin/env bash
# A backend's CI job: start UNTerm as APNs, run the provider against it, and check what the
# device shows. Needs unterm on PATH, python3 with aioapns (pip install aioapns) and openssl.
set -euo pipefail
cd "$(dirname "$0")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_DATA_HOME="$work/data"
port=${PORT:-8443}
token=$(printf 'ab%.0s' {1..32})
# A test key, as a backend's fixture would hold one (never the production key).
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$work/AuthKey_ABC123DEFG.p8" 2>/dev/null
ca=$(unterm apns ca | sed -n 1p)
unterm run --apns-listen "$port" --apns-key "ABC123DEFG=$work/AuthKey_ABC123DEFG.p8" --apns-team DEF567XYZA \
  --device-token "com.example.chat=$token" --apns-log "$work/apns.jsonl" order-shipped.session &
run=$!
# The endpoint is up once the port answers.
for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
python3 provider.py --port "$port" --ca "$ca" --key "$work/AuthKey_ABC123DEFG.p8" --key-id ABC123DEFG \
  --team-id DEF567XYZA --topic com.example.chat --token "$token"
wait "$run"
echo "APNs log:"
cat "$work/apns.jsonl"
