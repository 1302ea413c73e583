// A second test reporter beside TAP: it says nothing while the suite runs and, at the end, lists every
// failed test with its file and the first lines of its error. Why: CI keeps only the tail of a long run,
// and in TAP a failure can sit thousands of lines above the totals, so a red run said "fail 1" and not which.
const MAX_ERROR_LINES = 12;

function errorText(error) {
  if (!error) return '';
  // The runner wraps the test's own error (failureType testCodeFailure, hookFailed…) in `cause`.
  const inner = error.cause ?? error;
  const text = inner?.stack ?? inner?.message ?? String(inner);
  return String(text).split('\n').slice(0, MAX_ERROR_LINES).join('\n');
}

export default async function* failuresReporter(source) {
  const failures = [];
  // The names of the enclosing suites, per file and depth, so that a failure reads "suite › test".
  const open = new Map();
  for await (const event of source) {
    if (event.type === 'test:start') {
      const { file, nesting, name } = event.data;
      const names = open.get(file) ?? [];
      names.length = nesting;
      names[nesting] = name;
      open.set(file, names);
      continue;
    }
    if (event.type !== 'test:fail') continue;
    const { file, line, details, nesting } = event.data;
    const name = [...(open.get(file) ?? []).slice(0, nesting), event.data.name].join(' › ');
    // A suite fails when one of its tests fails; listing the suite too would count the failure twice.
    if (details?.error?.failureType === 'subtestsFailed') continue;
    failures.push({ name, where: file ? `${file}${line ? `:${line}` : ''}` : '(unknown file)', error: errorText(details?.error) });
  }
  if (failures.length === 0) return;
  yield `\n# ${failures.length} failed test${failures.length === 1 ? '' : 's'}:\n`;
  for (const f of failures) {
    yield `# ✖ ${f.name}\n#   at ${f.where}\n`;
    if (f.error) yield `${f.error.split('\n').map((l) => `#     ${l}`).join('\n')}\n`;
  }
}
