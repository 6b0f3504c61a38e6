#!/usr/bin/env bash
# Installs a kdesched .deb on this machine with apt-get (its dependencies from Debian), checks the
# installed kdesched — version, our three plugins found in the installed plugin folder, the
# simulation with the installed profiles (load-aware.yaml moves the hotspot pod, default.yaml,
# Koordinator's configuration without a balance plugin, moves nothing) — then removes it again.
# Needs root.
#   tools/package-check.sh build/kdesched_0.1.0_amd64.deb
set -euo pipefail
deb=$(realpath "$1")
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -qq --no-install-recommends "$deb" >/dev/null
trap 'apt-get purge -y -qq kdesched >/dev/null' EXIT
fail() { echo "package check: $*" >&2; exit 1; }

[ "$(command -v kdesched)" = /usr/bin/kdesched ] || fail "kdesched is not /usr/bin/kdesched"
version=$(kdesched version)
echo "$version"
echo "$version" | grep -q "$(dpkg-query -W -f='${Version}' kdesched)" ||
  fail "kdesched version does not print the package's version"
plugins=$(kdesched plugins)
echo "$plugins"
for p in DefaultEvictor:defaultevictor LowNodeLoad:lownodeload MigrationController:migrationcontroller; do
  echo "$plugins" | grep -qE "^${p%%:*}[[:space:]].*/usr/lib/kdesched/plugins/kdesched_${p##*:}\.so$" ||
    fail "plugin ${p%%:*} not found in /usr/lib/kdesched/plugins"
done
report=$(kdesched simulate --cycles 6 --config /etc/kdesched/load-aware.yaml)
echo "$report" | tail -n 2
echo "$report" | grep -q "1 pod(s) moved" || fail "the load-aware simulation did not move the hotspot pod"
report=$(kdesched simulate --cycles 6 --config /etc/kdesched/default.yaml)
echo "$report" | grep -q "0 pod(s) moved" || fail "the default profile (no balance plugin) moved a pod"
echo "package check: OK ($(basename "$deb"))"
