#!/usr/bin/env bash
# tools/run_ranks.sh with a fake program: every rank gets its own --rank, the same --ranks and
# --id-file after the program's arguments, and the exit codes combine as documented.
set -u
tool="$(dirname "$0")/../run_ranks.sh"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "run_ranks_test: $*"; exit 1; }

# The fake rank: records its arguments, then exits with the code its environment names for it.
cat >"$dir/fake" <<'FAKE'
#!/usr/bin/env bash
rank=""; for ((i = 1; i <= $#; i++)); do [ "${!i}" = "--rank" ] && { j=$((i + 1)); rank=${!j}; }; done
echo "$*" >"$OUT_DIR/args.$rank"
code_var="CODE_$rank"
exit "${!code_var:-0}"
FAKE
chmod +x "$dir/fake"
export OUT_DIR=$dir

bash "$tool" 3 "$dir/fake" --n 5 >/dev/null 2>&1 || fail "three passing ranks did not exit 0"
for r in 0 1 2; do
  [ -f "$dir/args.$r" ] || fail "rank $r did not run"
  grep -q -- "^--n 5 --rank $r --ranks 3 --id-file " "$dir/args.$r" || fail "rank $r: $(cat "$dir/args.$r")"
done
[ "$(cut -d' ' -f8 "$dir/args.0")" = "$(cut -d' ' -f8 "$dir/args.2")" ] || fail "ranks got different id files"

rc=0; CODE_1=3 bash "$tool" 3 "$dir/fake" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 3 ] || fail "a rank exiting 3 gave $rc"
rc=0; CODE_0=77 CODE_1=77 bash "$tool" 2 "$dir/fake" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 77 ] || fail "every rank skipped (77) gave $rc"
rc=0; CODE_1=77 bash "$tool" 2 "$dir/fake" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 1 ] || fail "some ranks skipped, others ran: gave $rc, expected 1"
rc=0; bash "$tool" 0 "$dir/fake" >/dev/null 2>&1 || rc=$?
[ "$rc" -eq 2 ] || fail "N = 0 gave $rc, expected a usage error (2)"
echo "run_ranks_test: ok"
