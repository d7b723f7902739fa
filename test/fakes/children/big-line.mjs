// Writes one response whose line is about argv[2] MiB long, then a small notification.
const mib = Number(process.argv[2] ?? '20');
const text = 'x'.repeat(mib * 1024 * 1024);
process.stdout.write(JSON.stringify({ jsonrpc: '2.0', id: 1, result: { text } }) + '\n');
process.stdout.write('{"jsonrpc":"2.0","method":"after"}\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
