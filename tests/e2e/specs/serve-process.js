// A `ur serve` of its own (UR_BINARY) for specs that stop, restart or pair servers, so the
// suite's server is not disturbed.
const { spawn } = require('node:child_process');

// `ur serve --host 127.0.0.1 --port PORT --quiet --data DIR` plus `extra`. Port 0 lets the
// system pick one no other process holds, read back from the server's "open http://…" line;
// a restart passes the port it had. Resolves to { child, base, port } once it listens.
function startServe(dataDir, { port = 0, extra = [] } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.env.UR_BINARY, ['serve', '--host', '127.0.0.1', '--port', String(port), '--quiet', '--data', dataDir, ...extra], {
      env: { ...process.env, XDG_DATA_HOME: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ur serve did not start within 30 s: ${output}`));
    }, 30_000);
    const read = (chunk) => {
      output += chunk;
      const found = output.match(/open (http:\/\/127\.0\.0\.1:(\d+))\//);
      if (found) {
        clearTimeout(timer);
        resolve({ child, base: found[1], port: Number(found[2]) });
      }
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`ur serve exited (${code}): ${output}`));
    });
  });
}

module.exports = { startServe };
