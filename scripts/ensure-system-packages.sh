#!/usr/bin/env bash
# Installs the Debian packages listed in scripts/system-packages.txt when some are missing: with apt-get as
# root it installs them; otherwise it stops at once and prints the exact command to run. It returns in well
# under a second when everything is there. It only installs packages: the tests start their own receivers and
# servers on loopback ports in temporary folders, so no system service is configured, enabled or started.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mapfile -t packages < <(sed -e 's/#.*//' -e 's/[[:space:]]//g' "$here/system-packages.txt" | grep -v '^$')

installed() {
  local status
  status=$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)
  [ "$status" = "install ok installed" ]
}

if ! command -v dpkg-query >/dev/null 2>&1; then
  echo "ensure-system-packages: this is not a Debian-like system; install these packages (or their equivalents) first:" >&2
  echo "  ${packages[*]}" >&2
  exit 1
fi

need=()
for p in "${packages[@]}"; do installed "$p" || need+=("$p"); done

if [ "${#need[@]}" -gt 0 ]; then
  if [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ensure-system-packages: the test suite needs Debian packages that are missing. Run:" >&2
    echo "  sudo apt-get update && sudo apt-get install -y --no-install-recommends ${need[*]}" >&2
    exit 1
  fi
  echo "ensure-system-packages: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # prelude-manager's maintainer script otherwise wants a database; the tests only use its file outputs.
  echo "prelude-manager prelude-manager/dbconfig-install boolean false" | debconf-set-selections
  # Exit code 101 from policy-rc.d stops maintainer scripts from starting system services (rsyslog,
  # prelude-manager, sshd…); the tests run their own instances.
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  cleanup() { if [ "$created_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi; }
  trap cleanup EXIT
  # A package left half-configured by an earlier interrupted run would make apt-get fail.
  dpkg --configure -a >/dev/null 2>&1 || true
  apt-get update -qq
  if ! apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
    # prelude-manager's first configure can fail while dbconfig-common settles; a second pass succeeds.
    dpkg --configure -a
    apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

for p in "${packages[@]}"; do
  if ! installed "$p"; then
    echo "ensure-system-packages: $p is not installed correctly" >&2
    exit 1
  fi
done
# libprelude's manager expects this run directory for its pid and unix socket.
[ -d /run/prelude-manager ] || mkdir -p /run/prelude-manager
