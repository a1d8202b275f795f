# Shared by the repros in scripts/hostile/: source it, then call bounded.
#
#   bounded NAME RSS_BOUND_MB TIME_LIMIT_S WANT_EXIT -- COMMAND...
#
# runs COMMAND with its address space capped at 4 GiB (prlimit) and killed
# after TIME_LIMIT_S, and prints one line:
#   NAME: peak 41 MB (bound 64 MB), 0.31 s (limit 10 s), exit 1 (want 1): ok
# It returns 1 when the peak, the time or the exit status is off.
# $PERFLAB is the perflab binary that scripts/bench-hostile built.
PERFLAB="${PERFLAB_HOSTILE_BIN:?run through scripts/bench-hostile}/perflab"

bounded() {
	local name=$1 bound=$2 limit=$3 want=$4
	shift 5
	local out
	out=$(mktemp)
	local code=0
	prlimit --as=$((4 << 30)) -- /usr/bin/time -f '%M %e' -o "$out" \
		timeout -s KILL "$limit" "$@" >/dev/null 2>"$out.err" || code=$?
	local kb secs
	read -r kb secs <"$(tail -1 "$out" >"$out.last"; echo "$out.last")" || true
	local mb=$(((${kb:-0} + 1023) / 1024))
	local verdict=ok
	if ((mb > bound)) || ((code == 137)) || ((code != want)); then verdict=FAIL; fi
	printf '%s: peak %s MB (bound %s MB), %s s (limit %s s), exit %s (want %s): %s\n' \
		"$name" "$mb" "$bound" "${secs:-?}" "$limit" "$code" "$want" "$verdict"
	[ "$verdict" = ok ] || sed 's/^/    /' "$out.err" | head -3
	rm -f "$out" "$out.err" "$out.last"
	[ "$verdict" = ok ]
}
