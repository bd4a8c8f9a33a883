/**
 * Loaded with `node --require` before an entry point: makes the process report FAKE_NODE_VERSION as
 * its Node version, and says on exit whether better-sqlite3 was loaded (the preflight must stop an
 * older Node before that).
 */
const fake = process.env['FAKE_NODE_VERSION'];
if (fake !== undefined) Object.defineProperty(process.versions, 'node', { value: fake });
process.on('exit', () => {
  if (Object.keys(require.cache).some((path) => path.includes('better-sqlite3'))) process.stderr.write('better-sqlite3 was loaded\n');
});
