#!/usr/bin/env bash
# Drives the real desktop app through tauri-driver + WebKitWebDriver under Xvfb:
# the journey (ui/e2e/journey.e2e.ts) on a fresh user's folders (Claude Code's memory of a project among them), a real merge from the demo
# sample (ui/e2e/merge.e2e.ts), the start-up time with a 10,000-memory store
# (ui/e2e/startup.e2e.ts), an agent on another computer with a key made in Settings reaching
# the store through `haema mcp --http` (ui/e2e/remote.e2e.ts), a store that keeps people apart (ui/e2e/people.e2e.ts), connecting
# an AI with a key kept in a real Secret Service (ui/e2e/connect.e2e.ts), one store shared by
# two machines through the PostgreSQL test server (ui/e2e/shared.e2e.ts), then, in a session
# of its own, the embedding model downloaded on first use from a Hub on 127.0.0.1
# (ui/e2e/model.e2e.ts with ui/e2e/fakehub.mjs).
#
#   tools/desktop-e2e.sh APP_BINARY HAEMA_CLI_BINARY
#
# HAEMA_E2E_PORT picks tauri-driver's port (4444; WebKitWebDriver gets the next one); HAEMA_E2E_SCREENSHOTS the folder for
# the screenshots (docs/screenshots).
#
# Needs Xvfb, WebKitWebDriver (Debian: xvfb, webkit2gtk-driver), gnome-keyring and
# dbus-run-session (Debian: gnome-keyring, dbus), tauri-driver on PATH
# (cargo install tauri-driver --locked) and ui/node_modules (npm ci in ui/).
set -euo pipefail
app=$(realpath "$1")
cli=$(realpath "$2")
here=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
display=:$((90 + RANDOM % 9))
# Apps left by a failed session end with the Xvfb display they run on.
cleanup() {
  [[ -n "${driver_pid:-}" ]] && kill "$driver_pid" 2>/dev/null || true
  [[ -n "${hub_pid:-}" ]] && kill "$hub_pid" 2>/dev/null || true
  [[ -n "${ai_pid:-}" ]] && kill "$ai_pid" 2>/dev/null || true
  [[ -n "${xvfb_pid:-}" ]] && kill "$xvfb_pid" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

# Nothing here reaches the Hugging Face Hub: the stores of these tests work by words.
export HF_HUB_OFFLINE=1

Xvfb "$display" -screen 0 1280x860x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!

# A 10,000-memory store for the start-up measurement (lexical: no model needed).
python3 - "$work/big.jsonl" <<'PY'
import json, sys
topics = ["tea", "cello", "Vienna", "sourdough", "peanuts", "running", "Korean", "jazz", "rust", "garden"]
with open(sys.argv[1], "w") as f:
    for i in range(10_000):
        t = topics[i % len(topics)]
        f.write(json.dumps({"content": f"Note {i}: the user mentioned {t} on day {i // 10} while planning the week.",
                            "timestamp_ms": 1_700_000_000_000 + i * 60_000}) + "\n")
PY
"$cli" --store "$work/big" import "$work/big.jsonl" >/dev/null
# The demo sample: merges made by the real pipeline, two of them waiting for review.
"$cli" --store "$work/demo" import "$here/src-tui/assets/demo.jsonl" >/dev/null
# A store that keeps people's memories apart, with one memory of Ann's and one of Bob's.
mkdir -p "$work/team"
printf 'scope = "per_user"\nreview = "auto"\n[embedder]\nprovider = "none"\n' >"$work/team/haema.toml"
"$cli" --store "$work/team" --user ann add --items "Ann's project is the lighthouse survey" >/dev/null
"$cli" --store "$work/team" --user bob add --items "Bob's project is the harbour crane" >/dev/null

port=${HAEMA_E2E_PORT:-4444}
# Waits (up to 10 s) until tauri-driver answers on $port.
wait_for_driver() {
  for _ in $(seq 50); do
    curl -fsS "http://127.0.0.1:$port/status" >/dev/null 2>&1 && return
    sleep 0.2
  done
}
mkdir -p "$work/data" "$work/config"
# Claude Code's own memory of a project, for the journey's import of it.
mkdir -p "$work/claude/projects/-home-ana-office-move"
cp -r "$here/src-tui/tests/fixtures/claude-code/memory" "$work/claude/projects/-home-ana-office-move/"
export HAEMA_REVIEW=review
DISPLAY=$display XDG_DATA_HOME="$work/data" XDG_CONFIG_HOME="$work/config" CLAUDE_CONFIG_DIR="$work/claude" \
  tauri-driver --port "$port" --native-port "$((port + 1))" >"$work/driver.log" 2>&1 &
driver_pid=$!
wait_for_driver

cd "$here/ui"
status=0
HAEMA_E2E_APP="$app" HAEMA_E2E_CLI="$cli" HAEMA_E2E_STORE="$work/data/haema/default" \
  HAEMA_E2E_BIG_STORE="$work/big" HAEMA_E2E_DEMO_STORE="$work/demo" TAURI_DRIVER_URL="http://127.0.0.1:$port" CLAUDE_CONFIG_DIR="$work/claude" \
  npm run --silent e2e || status=$?
if [[ $status -ne 0 ]]; then
  echo "--- tauri-driver log" >&2
  tail -50 "$work/driver.log" >&2
fi

# A store that keeps people apart (ui/e2e/people.e2e.ts): a session of its own, with
# folders of its own, so that the journey's fresh user never sees this store as the last one.
kill "$driver_pid" 2>/dev/null || true
wait "$driver_pid" 2>/dev/null || true
mkdir -p "$work/data3" "$work/config3"
DISPLAY=$display XDG_DATA_HOME="$work/data3" XDG_CONFIG_HOME="$work/config3" \
  tauri-driver --port "$port" --native-port "$((port + 1))" >"$work/driver3.log" 2>&1 &
driver_pid=$!
wait_for_driver
HAEMA_E2E_APP="$app" HAEMA_E2E_TEAM_STORE="$work/team" TAURI_DRIVER_URL="http://127.0.0.1:$port" \
  npx vitest run --config vitest.e2e.config.ts e2e/people.e2e.ts || status=$?

# Connecting an AI without a terminal (ui/e2e/connect.e2e.ts): a session of its own with
# fresh folders, a real Secret Service (tools/with-keyring.sh) and an AI on 127.0.0.1
# (ui/e2e/fakeai.mjs); the default review policy, so the AI's merge waits for approval.
kill "$driver_pid" 2>/dev/null || true
wait "$driver_pid" 2>/dev/null || true
driver_pid=
export FAKEAI_KEY="sk-e2e-right-key-$RANDOM-7Q4Z"
node "$here/ui/e2e/fakeai.mjs" >"$work/ai.url" 2>"$work/ai.log" &
ai_pid=$!
for _ in $(seq 50); do [[ -s "$work/ai.url" ]] && break; sleep 0.1; done
mkdir -p "$work/data4" "$work/config4"
env -u HAEMA_REVIEW DISPLAY=$display XDG_DATA_HOME="$work/data4" XDG_CONFIG_HOME="$work/config4" \
  HAEMA_OLLAMA_URL="$(cat "$work/ai.url")" HAEMA_E2E_AI="$(cat "$work/ai.url")" HAEMA_E2E_APP="$app" \
  HAEMA_E2E_CLI="$cli" HAEMA_E2E_STORE="$work/data4/haema/default" HAEMA_E2E_FOLDERS="$work/data4:$work/config4" \
  HAEMA_E2E_PORT="$port" HAEMA_E2E_LOG="$work/driver4.log" \
  "$here/tools/with-keyring.sh" "$here/ui/e2e/connect-session.sh" || status=$?
kill "$ai_pid" 2>/dev/null || true

# One store shared by two machines through PostgreSQL (ui/e2e/shared.e2e.ts), when the test
# server runs (HAEMA_TEST_PG_URL, which .ci/run sets): machine A is the window, whose own
# config.toml names the store; machine B the CLI, with folders of its own. The password is
# PGPASSWORD's, never written in a file.
if [[ -n "${HAEMA_TEST_PG_URL:-}" ]]; then
  kill "$driver_pid" 2>/dev/null || true
  wait "$driver_pid" 2>/dev/null || true
  pg_bare=${HAEMA_TEST_PG_URL/:haema-test@/@}
  pg_store="$pg_bare?schema=desktop_$$_$RANDOM"
  mkdir -p "$work/data5" "$work/config5/haema" "$work/machine-b/data" "$work/machine-b/config"
  printf 'store = "%s"\n' "$pg_store" >"$work/config5/haema/config.toml"
  env -u HAEMA_REVIEW DISPLAY=$display XDG_DATA_HOME="$work/data5" XDG_CONFIG_HOME="$work/config5" \
    PGPASSWORD=haema-test HAEMA_REVIEW=auto \
    tauri-driver --port "$port" --native-port "$((port + 1))" >"$work/driver5.log" 2>&1 &
  driver_pid=$!
  wait_for_driver
  PGPASSWORD=haema-test HAEMA_E2E_APP="$app" HAEMA_E2E_CLI="$cli" HAEMA_E2E_PG_STORE="$pg_store" \
    HAEMA_E2E_OTHER_MACHINE="$work/machine-b" TAURI_DRIVER_URL="http://127.0.0.1:$port" \
    npx vitest run --config vitest.e2e.config.ts e2e/shared.e2e.ts || status=$?
  if [[ $status -ne 0 ]]; then
    echo "--- tauri-driver log (shared)" >&2
    tail -50 "$work/driver5.log" >&2
  fi
elif [[ -n "${CI:-}" ]]; then
  echo "the PostgreSQL test server is not running (HAEMA_TEST_PG_URL); .ci/run starts it" >&2
  status=1
else
  echo "skipped the shared-store e2e test: no PostgreSQL test server (tools/pg-test-server.sh)" >&2
fi

# The embedding model on first use (ui/e2e/model.e2e.ts): a session of its own whose app
# reaches a Hugging Face Hub on 127.0.0.1 serving the test model (HAEMA_TEST_MODEL_DIR).
model_dir="${HAEMA_TEST_MODEL_DIR:-$here/.cache/models/all-MiniLM-L6-v2}"
if [[ -f "$model_dir/model.safetensors" ]]; then
  kill "$driver_pid" 2>/dev/null || true
  wait "$driver_pid" 2>/dev/null || true
  FAKEHUB_LFS_DELAY_MS=2500 node "$here/ui/e2e/fakehub.mjs" "$model_dir" >"$work/hub.url" 2>"$work/hub.log" &
  hub_pid=$!
  for _ in $(seq 50); do [[ -s "$work/hub.url" ]] && break; sleep 0.1; done
  mkdir -p "$work/data2" "$work/config2" "$work/hf"
  env -u HF_HUB_OFFLINE DISPLAY=$display XDG_DATA_HOME="$work/data2" XDG_CONFIG_HOME="$work/config2" \
    HF_ENDPOINT="$(cat "$work/hub.url")" HF_HOME="$work/hf" HAEMA_REVIEW=auto \
    tauri-driver --port "$port" --native-port "$((port + 1))" >"$work/driver2.log" 2>&1 &
  driver_pid=$!
  wait_for_driver
  HAEMA_E2E_APP="$app" HAEMA_E2E_HUB="$(cat "$work/hub.url")" TAURI_DRIVER_URL="http://127.0.0.1:$port" \
    npx vitest run --config vitest.e2e.config.ts e2e/model.e2e.ts || status=$?
  kill "$hub_pid" 2>/dev/null || true
  if [[ $status -ne 0 ]]; then
    echo "--- tauri-driver log (model)" >&2
    tail -50 "$work/driver2.log" >&2
  fi
elif [[ -n "${CI:-}" ]]; then
  echo "the test model is missing at $model_dir; .ci/run fetches it with .ci/fetch-model" >&2
  status=1
else
  echo "skipped the model e2e test: no test model at $model_dir (run .ci/fetch-model)" >&2
fi
exit $status
