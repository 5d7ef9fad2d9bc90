#!/usr/bin/env bash
# Keeps every run's Observatory report on a branch of a git repository, one folder per runner,
# so that trends and comparisons read all of them, not only the reports committed by hand.
#
#   history.sh record REMOTE BRANCH RUNNER REPORT   add REPORT under RUNNER/ on BRANCH and push
#   history.sh fetch REMOTE BRANCH DIRECTORY        copy BRANCH's reports into DIRECTORY
#   history.sh latest DIRECTORY RUNNER              print the newest report of RUNNER, if any
#
# REMOTE is anything `git clone` takes: the workflow's own repository (`origin`'s URL with a
# token) or a bare repository on disk. A report is stored as `RUNNER/<UTC time>_<its name>`, so
# file names sort oldest first. Two jobs pushing at once rebase and retry: each writes only its
# own runner's folder, so they never conflict.
set -euo pipefail

usage() {
  sed -n '4,7p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 1
}

# A runner's name becomes a folder: letters, digits, '.', '_' and '-' only.
check_runner() {
  if [[ ! $1 =~ ^[A-Za-z0-9._-]+$ || $1 == . || $1 == .. ]]; then
    echo "history.sh: runner '$1': use letters, digits, '.', '_' and '-' only" >&2
    exit 1
  fi
}

# Clones BRANCH of REMOTE into $1, or starts the branch there if the remote has none yet.
checkout() {
  local work=$1 remote=$2 branch=$3
  if git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null 2>&1; then
    git clone --quiet --depth 1 --branch "$branch" "$remote" "$work"
  else
    git init --quiet "$work"
    git -C "$work" checkout --quiet --orphan "$branch"
    git -C "$work" remote add origin "$remote"
  fi
}

command=${1:-}
# A repository on disk is named from here; the clones below work elsewhere.
if [ $# -ge 2 ] && [ "$command" != latest ] && [ -d "$2" ]; then
  set -- "$1" "file://$(cd "$2" && pwd)" "${@:3}"
fi
case "$command" in
  record)
    [ $# -eq 5 ] || usage
    remote=$2 branch=$3 runner=$4 report=$5
    check_runner "$runner"
    [ -f "$report" ] || { echo "history.sh: $report: no such file" >&2; exit 1; }
    work=$(mktemp -d)
    trap 'rm -rf "$work"' EXIT
    name="$(date -u +%Y-%m-%dT%H%M%S.%NZ)_$(basename "$report")"
    for attempt in 1 2 3 4 5; do
      rm -rf "$work/clone"
      checkout "$work/clone" "$remote" "$branch"
      mkdir -p "$work/clone/$runner"
      cp "$report" "$work/clone/$runner/$name"
      git -C "$work/clone" add "$runner/$name"
      git -C "$work/clone" -c user.name="${GIT_AUTHOR_NAME:-observatory}" \
        -c user.email="${GIT_AUTHOR_EMAIL:-observatory@localhost}" \
        commit --quiet -m "Observatory report of $runner: $(basename "$report")"
      if git -C "$work/clone" push --quiet origin "HEAD:refs/heads/$branch" 2>/dev/null; then
        echo "$runner/$name"
        exit 0
      fi
      sleep "$attempt"
    done
    echo "history.sh: could not push to $branch of $remote after 5 attempts" >&2
    exit 1
    ;;
  fetch)
    [ $# -eq 4 ] || usage
    remote=$2 branch=$3 directory=$4
    mkdir -p "$directory"
    directory=$(cd "$directory" && pwd)
    if git ls-remote --exit-code --heads "$remote" "$branch" >/dev/null 2>&1; then
      work=$(mktemp -d)
      trap 'rm -rf "$work"' EXIT
      git clone --quiet --depth 1 --branch "$branch" "$remote" "$work/clone"
      (cd "$work/clone" && find . -path ./.git -prune -o -name '*.csv' -type f \
        -exec cp --parents {} "$directory/" \;)
    fi
    ;;
  latest)
    [ $# -eq 3 ] || usage
    directory=$2 runner=$3
    check_runner "$runner"
    if [ -d "$directory/$runner" ]; then
      find "$directory/$runner" -maxdepth 1 -name '*.csv' -type f | sort | tail -n 1
    fi
    ;;
  *) usage ;;
esac
