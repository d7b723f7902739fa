// Ignores stdin EOF and SIGTERM; only SIGKILL ends it. Says "ready" once the handler is set.
process.on('SIGTERM', () => {});
process.stdin.resume();
process.stdin.on('end', () => {});
setInterval(() => {}, 1000);
process.stdout.write('{"jsonrpc":"2.0","method":"ready"}\n');
