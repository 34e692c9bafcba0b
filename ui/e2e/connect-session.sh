#!/usr/bin/env bash
# One tauri-driver session for ui/e2e/connect.e2e.ts, run by tools/desktop-e2e.sh inside
# tools/with-keyring.sh, so that the app, the test and the CLI it runs share one unlocked
# Secret Service. HAEMA_E2E_PORT is tauri-driver's port, HAEMA_E2E_LOG its log.
set -euo pipefail
port=${HAEMA_E2E_PORT:-4444}
tauri-driver --port "$port" --native-port "$((port + 1))" >"${HAEMA_E2E_LOG:-/dev/null}" 2>&1 &
driver=$!
trap 'kill "$driver" 2>/dev/null || true; wait "$driver" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
  curl -fsS "http://127.0.0.1:$port/status" >/dev/null 2>&1 && break
  sleep 0.2
done
cd "$(dirname "$0")/.."
status=0
TAURI_DRIVER_URL="http://127.0.0.1:$port" npx vitest run --config vitest.e2e.config.ts e2e/connect.e2e.ts || status=$?
if [[ $status -ne 0 && -n "${HAEMA_E2E_LOG:-}" ]]; then
  echo "--- tauri-driver log (connect)" >&2
  tail -50 "$HAEMA_E2E_LOG" >&2
fi
exit $status
