#!/usr/bin/env bash
# Installs the real SIEM receivers the event tests run against: rsyslog with its GnuTLS driver, prelude-manager
# with libprelude's Python bindings and admin tool, and openssl for the throw-away test CA. Idempotent, and it
# returns in well under a second when everything is already installed. It only installs packages: the tests
# start their own receivers on high loopback ports in temporary folders, so no system service is configured,
# enabled or started here.
set -euo pipefail

packages=(rsyslog rsyslog-gnutls openssl prelude-manager prelude-utils python3-prelude)
need=()
for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  [ "$status" = "install ok installed" ] || need+=("$p")
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

if [ "${#need[@]}" -gt 0 ]; then
  echo "install-receivers: installing ${need[*]}"
  export DEBIAN_FRONTEND=noninteractive
  # prelude-manager's maintainer script otherwise wants a database; the tests only use its file outputs.
  echo "prelude-manager prelude-manager/dbconfig-install boolean false" | $SUDO debconf-set-selections
  # Exit code 101 from policy-rc.d stops the maintainer scripts from starting the system rsyslog or
  # prelude-manager services; the tests run their own instances.
  created_policy=0
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' | $SUDO tee /usr/sbin/policy-rc.d >/dev/null
    $SUDO chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  cleanup() { if [ "$created_policy" = 1 ]; then $SUDO rm -f /usr/sbin/policy-rc.d; fi; }
  trap cleanup EXIT
  # A package left half-configured by an earlier interrupted run would make apt-get fail.
  $SUDO dpkg --configure -a >/dev/null 2>&1 || true
  $SUDO apt-get update -qq
  if ! $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; then
    # prelude-manager's first configure can fail while dbconfig-common settles; a second pass succeeds.
    $SUDO dpkg --configure -a
    $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  fi
fi

for p in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
  if [ "$status" != "install ok installed" ]; then
    echo "install-receivers: $p is not installed correctly ($status)" >&2
    exit 1
  fi
done
# libprelude's manager expects this run directory for its pid and unix socket.
[ -d /run/prelude-manager ] || $SUDO mkdir -p /run/prelude-manager
/usr/bin/python3 -c 'import prelude' || { echo "install-receivers: python3 cannot import prelude" >&2; exit 1; }
echo "install-receivers: ok ($(rsyslogd -v | head -n 1 | awk '{print $1, $2}'))"
