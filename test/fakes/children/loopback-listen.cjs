// Preload (node --require) for published servers whose CLI listens on every interface: makes a
// server that listens on a bare port listen on 127.0.0.1 only, and prints the port it got as
// "LOOPBACK_PORT <n>" on stderr (run them with PORT=0).
'use strict';
const net = require('node:net');

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const first = args[0];
  const bare = typeof first === 'number' || (typeof first === 'string' && /^\d+$/.test(first));
  const options = typeof first === 'object' && first !== null && !Array.isArray(first) && 'port' in first;
  if (!bare && !options) return listen.apply(this, args);
  this.once('listening', () => {
    const address = this.address();
    if (address !== null && typeof address === 'object') process.stderr.write(`LOOPBACK_PORT ${address.port}\n`);
  });
  if (options)
    return listen.call(this, { ...first, host: '127.0.0.1' }, ...args.slice(1).filter((a) => typeof a === 'function'));
  return listen.call(this, Number(first), '127.0.0.1', ...args.slice(1).filter((a) => typeof a === 'function'));
};
