# Steps and background jobs for .ci/run (sourced): each step's wall time, and jobs that run
# beside the steps with their output kept until they are waited for.
#
#   step NAME                 ends the step before, starts NAME (and prints "== NAME")
#   background NAME CMD...    runs CMD in the background at the lowest priority, its output
#                             in a log of its own
#   wait_background NAME      waits for it, prints its output and time; fails if it failed
#   end_steps                 prints every step's time, the background jobs' and the total
#   stop_background           kills what still runs, whole (for the exit trap)
#
# A background job runs in a session of its own (setsid), so that stopping it stops the
# compilers it started too.

_run_start=$(date +%s)
_steps=()
_step_name=""
_step_start=0
_bg_dir="$(mktemp -d)"
# With the kernel's autogroup scheduling (sched_autogroup_enabled), `nice` weighs a process
# only against its own session, and a new session gets as much CPU as the foreground one:
# a `nice -n 19` job in a session of its own would take half the machine. Its session's
# autogroup is niced instead, so that it takes only what the foreground leaves idle.
_lowest_in_session='echo 19 >/proc/self/autogroup 2>/dev/null || true; exec nice -n 19'

declare -A _bg_pid=() _bg_start=()

_close_step() {
    if [[ -n "$_step_name" ]]; then
        _steps+=("$(($(date +%s) - _step_start))|$_step_name")
        _step_name=""
    fi
}

step() {
    _close_step
    _step_name="$1"
    _step_start=$(date +%s)
    echo "== $1"
}

background() {
    local name="$1"
    shift
    _bg_start[$name]=$(date +%s)
    if (($# == 1)); then set -- bash -c "set -euo pipefail; $1"; fi
    setsid bash -c "$_lowest_in_session"' "$@"' "$name" "$@" >"$_bg_dir/$name.log" 2>&1 &
    _bg_pid[$name]=$!
    echo "(started in the background: $name)"
}

wait_background() {
    local name="$1" status=0 waited_from
    waited_from=$(date +%s)
    wait "${_bg_pid[$name]}" || status=$?
    unset "_bg_pid[$name]"
    local now
    now=$(date +%s)
    sed "s/^/[$name] /" "$_bg_dir/$name.log"
    _steps+=("$((now - _bg_start[$name]))|  (background) $name, of which $((now - waited_from)) s waited for")
    echo "(background $name: $((now - _bg_start[$name])) s, exit $status)"
    return "$status"
}

_steps_printed=""
end_steps() {
    [[ -n "$_steps_printed" ]] && return 0
    _steps_printed=1
    [[ -n "$_step_name" ]] && [[ "${1:-}" == failed ]] && echo "== failed in step: $_step_name"
    _close_step
    echo "== step times (wall clock)"
    local s
    for s in "${_steps[@]}"; do
        printf '%6d s  %s\n' "${s%%|*}" "${s#*|}"
    done
    printf '%6d s  total (%d min %d s)\n' "$(($(date +%s) - _run_start))" \
        "$((($(date +%s) - _run_start) / 60))" "$((($(date +%s) - _run_start) % 60))"
}

stop_background() {
    local pid
    for pid in "${_bg_pid[@]}"; do
        kill -- "-$pid" 2>/dev/null || true
    done
    rm -rf "$_bg_dir"
}
