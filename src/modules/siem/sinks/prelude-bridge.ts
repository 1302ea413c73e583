/**
 * Prelude has no HTTP input: sensors speak libprelude's TLS protocol to prelude-manager. This small Python
 * program (Debian's python3-prelude bindings) is the sensor. It reads one JSON line per alert on stdin,
 * `{"id": …, "idmef": <libprelude IDMEF JSON>}`, hands it to libprelude and answers `ok <id>` or
 * `err <id> <reason>` on stdout. libprelude keeps a failover spool when the manager is unreachable and
 * replays it on reconnect, so "ok" means the alert is in prelude's own durable hands.
 *
 * Kept as a string so the build ships it without extra files; run as `python3 -u -c SOURCE <profile>
 * --prelude --server-addr <ip:port>` (libprelude reads its options from argv).
 */
export const PRELUDE_BRIDGE_SOURCE = `
import sys, json
import prelude
profile = sys.argv[1]
client = prelude.ClientEasy(profile, prelude.ClientEasy.PERMISSION_IDMEF_WRITE,
                            "Parapet", "Parapet", "Parapet", "1.0")
client.start()
sys.stdout.write("ready\\n")
sys.stdout.flush()
for line in sys.stdin:
    line = line.strip()
    if not line:
        continue
    ident = "?"
    try:
        msg = json.loads(line)
        ident = str(msg.get("id", "?"))
        client.sendIDMEF(prelude.IDMEF(json.dumps(msg["idmef"])))
        sys.stdout.write("ok %s\\n" % ident)
    except Exception as exc:
        sys.stdout.write("err %s %s\\n" % (ident, str(exc).replace("\\n", " ")))
    sys.stdout.flush()
`;
