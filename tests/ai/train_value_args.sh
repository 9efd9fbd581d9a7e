#!/usr/bin/env bash
# senet-train-value: every malformed argument gives one "senet-train-value: error: ..." line on
# stderr, exit 2 and no weights file; a tiny run writes a file of the network's 2,961 weights.
set -u
tool="$1"
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
failures=0

expect_error() {
    local what="$1"; shift
    "$tool" "$@" >"$dir/out" 2>"$dir/err"
    local code=$?
    if [ "$code" -ne 2 ] || [ "$(wc -l <"$dir/err")" -ne 1 ] || ! grep -q '^senet-train-value: error: ' "$dir/err" ||
        [ -e "$dir/w.inc" ]; then
        echo "FAIL ($what): exit $code, stderr: $(cat "$dir/err")"
        failures=$((failures + 1))
    fi
}

expect_error "unknown flag" --rules standard --out "$dir/w.inc" --colour red
expect_error "missing value" --rules standard --out
expect_error "no --out" --rules standard --games 1
expect_error "unknown ruleset" --rules chess --out "$dir/w.inc"
expect_error "games 0" --rules standard --games 0 --out "$dir/w.inc"
expect_error "games not a number" --rules standard --games ten --out "$dir/w.inc"
expect_error "explore above 1" --rules standard --explore 2 --out "$dir/w.inc"
expect_error "lambda negative" --rules standard --lambda -0.1 --out "$dir/w.inc"
expect_error "random opponent above 1" --rules standard --random-opponent 1.5 --out "$dir/w.inc"
expect_error "alpha negative" --rules standard --alpha -1 --out "$dir/w.inc"
expect_error "alpha not finite" --rules standard --alpha nan --out "$dir/w.inc"
expect_error "init file missing" --rules standard --init "$dir/none.inc" --out "$dir/w.inc"
printf '{ 1, 2, 3 }\n' >"$dir/short.inc"
expect_error "init file too short" --rules standard --init "$dir/short.inc" --out "$dir/w.inc"

# A tiny run: two games, then the check games; the file holds every weight.
if ! "$tool" --rules standard --games 2 --check 2 --seed 3 --out "$dir/w.inc" >"$dir/out" 2>"$dir/err"; then
    echo "FAIL (tiny run): $(cat "$dir/err")"
    failures=$((failures + 1))
else
    count=$(sed -n '/{/,/}/p' "$dir/w.inc" | tr -d '{} \n' | tr ',' '\n' | grep -c .)
    [ "$count" -eq 2961 ] || { echo "FAIL (tiny run): $count weights, expected 2961"; failures=$((failures + 1)); }
    grep -q '^games 2 .*vs intermediate: .*%, vs random: .*%' "$dir/out" || { echo "FAIL (tiny run): no check line"; failures=$((failures + 1)); }
    # It can start again from its own output.
    "$tool" --rules standard --games 1 --check 1 --alpha 0 --init "$dir/w.inc" --out "$dir/again.inc" >/dev/null 2>&1 ||
        { echo "FAIL (--init of its own file)"; failures=$((failures + 1)); }
fi

[ "$failures" -eq 0 ] && echo "senet-train-value: all argument checks passed"
exit $((failures > 0))
