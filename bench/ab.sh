#!/usr/bin/env bash
# Before/after of a change to the turn's path, in interleaved pairs:
#
#   bench/ab.sh [--base=REF] [--pairs=N] [--db=pglite,postgres] [--turns=N]
#
# Runs the plain-turn benchmark (`npm run bench -- --only=overhead`) on REF (default HEAD, checked
# out in a temporary worktree) and on the working tree, alternately: each pair runs both, in the
# opposite order from the pair before. On this project's 2-core machines single runs of the same
# code differ by up to 5 ms of CPU per turn and drift over an evening, so only pairs run side by
# side compare; a change smaller than that spread shows as pairs that disagree. Prints each run's
# result line. A run of one section writes only the ignored quick.md and quick.json, so
# bench/results stays as it was.
#
# Both sides are measured by the working tree's bench/ (one instrument), each on its own app: the
# base worktree gets a copy of it, so the model it picks messages with and the baseline server
# are the base's own (bench/lib/model-ttft.ts). The base worktree is this script's alone, so it is
# built where it is checked out, as that commit's own tree builds (--build=in-place), and served
# from there. A base whose HTTP API the current bench no longer speaks fails in its first run.
# BENCH_PG_URL and BENCH_PORTS (bench/lib/cli.ts) pass through to both sides.
set -euo pipefail

base=HEAD
pairs=3
dbs=pglite,postgres
turns=400
for arg in "$@"; do
  case $arg in
    --base=*) base=${arg#--base=} ;;
    --pairs=*) pairs=${arg#--pairs=} ;;
    --db=*) dbs=${arg#--db=} ;;
    --turns=*) turns=${arg#--turns=} ;;
    *) echo "unknown argument: $arg (see the comment at the top of $0)" >&2; exit 2 ;;
  esac
done

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
sha=$(git -C "$repo" rev-parse --short "$base")
old=$(mktemp -d /tmp/workstreams-ab-XXXXXX)
cleanup() {
  git -C "$repo" worktree remove --force "$old" >/dev/null 2>&1 || rm -rf "$old"
  git -C "$repo" worktree prune
}
trap cleanup EXIT
git -C "$repo" worktree add --detach --force "$old" "$sha" >/dev/null
# The same installed packages, hard-linked (no install, no network); the same auth secret; the
# working tree's bench.
cp -al "$repo/node_modules" "$old/node_modules"
mkdir -p "$old/.data"
if [[ -f $repo/.data/auth-secret ]]; then cp "$repo/.data/auth-secret" "$old/.data/"; fi
rm -rf "$old/bench"
cp -r "$repo/bench" "$old/bench"

run() { # dir label db build
  local dir=$1 label=$2 db=$3 build=$4 out
  out=$(cd "$dir" && PATH="$dir/node_modules/.bin:$PATH" npm run --silent bench -- \
    --only=overhead --db="$db" --turns="$turns" --name="ab-$label" --build="$build" 2>&1) || {
    echo "$out" | tail -20 >&2
    return 1
  }
  printf '%-8s %s\n' "$label" "$(echo "$out" | grep -E "^$db " | head -1)"
}

echo "before: $sha (worktree $old); after: the working tree of $repo; $turns turns per run"
header=$(cd "$repo" && grep -E "^server +turns" bench/results/latest.md | head -1 || true)
[[ -n $header ]] && printf '%-8s %s\n' "" "$header"
IFS=, read -r -a dblist <<<"$dbs"
for ((pair = 1; pair <= pairs; pair++)); do
  for db in "${dblist[@]}"; do
    if ((pair % 2)); then
      run "$old" before "$db" in-place
      run "$repo" after "$db" auto
    else
      run "$repo" after "$db" auto
      run "$old" before "$db" in-place
    fi
  done
done
