// The Node.js versions Workstreams runs on. Plain CommonJS on purpose: it is the first thing
// next.config.ts and the server's start-up hook load, and it must run (and refuse) on an old
// Node that cannot load the rest of the app, whether it is required or imported. Run it
// directly to check a Node binary: `node root/node-version.cjs`.
const MIN_NODE_MAJOR = 22;

/** The one line that explains why this Node cannot run the app, or null when it can. */
function unsupportedNodeMessage(version = process.versions.node) {
  const major = Number.parseInt(version.split(".")[0] || "", 10);
  if (major >= MIN_NODE_MAJOR) return null;
  return (
    `Workstreams needs Node.js ${MIN_NODE_MAJOR} or newer; this is ${version}. ` +
    "Run it through npm (npm run dev / npm start), which uses the project's Node 24."
  );
}

/** Stops the process with that line and a non-zero exit on an unsupported Node. */
function exitOnUnsupportedNode() {
  const message = unsupportedNodeMessage();
  if (message === null) return;
  console.error(message);
  process.exit(1);
}

exports.MIN_NODE_MAJOR = MIN_NODE_MAJOR;
exports.unsupportedNodeMessage = unsupportedNodeMessage;
exports.exitOnUnsupportedNode = exitOnUnsupportedNode;

if (require.main === module) exitOnUnsupportedNode();
