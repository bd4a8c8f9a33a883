#!/usr/bin/env node
// Compiles src/ (tsc -p tsconfig.build.json) and the browser tracking script (tsc -p
// tsconfig.browser.json, browser/ into dist/browser/) only when dist/ is missing or older than a source
// file or a build setting, so that `npm start`, `npm run cli` and `npm run demo` start at once after the first build.
// Plain JavaScript on purpose: it must run before anything is compiled.
'use strict';
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
// Written after each build here: tsc leaves its own build info untouched when nothing changed.
const stamp = join(root, 'dist', '.built-src');
const outputs = [
  'dist/src/bootstrap/main.js',
  'dist/src/bootstrap/cli.js',
  'dist/src/bootstrap/demo/demo.js',
  'dist/browser/tracker.js',
].map((p) => join(root, p));
const projects = ['tsconfig.build.json', 'tsconfig.browser.json'];

const newest = (path) => {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((latest, name) => Math.max(latest, newest(join(path, name))), stat.mtimeMs);
};

const inputs = ['src', 'browser', 'tsconfig.json', ...projects, 'package-lock.json'].map((p) => join(root, p));
const stale = !existsSync(stamp) || outputs.some((out) => !existsSync(out)) || Math.max(...inputs.map(newest)) > statSync(stamp).mtimeMs;
if (stale) {
  for (const project of projects) {
    process.stderr.write(`building (tsc -p ${project})\n`);
    execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, project)], { stdio: 'inherit' });
  }
  writeFileSync(stamp, `${new Date().toISOString()}\n`);
}
