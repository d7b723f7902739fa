// B18 through a pipe: the CRLF of the first message is split across two writes.
import { setTimeout as sleep } from 'node:timers/promises';

process.stdout.write('{"jsonrpc":"2.0","id":1,"result":{}}\r');
await sleep(60);
process.stdout.write('\n\r\n{"jsonrpc":"2.0","id":2,"result":{}}\r\n');
process.stdin.resume();
process.stdin.on('end', () => process.exit(0));
